#include "cli/support_convert.h"

#include "hub/fs_util.h"
#include "hub/metadata.h"
#include "package/manifest_writer.h"
#include "package/package.h"
#include "wgk/error.h"

namespace fs = std::filesystem;

namespace wgk::cli {

package::Dialect parseDialect(const std::string& text) {
  if (text == "2.1") return package::Dialect::Spec21;
  if (text == "seeds") return package::Dialect::Seeds;
  throw Error(ErrorCode::InvalidArgument, "unknown manifest dialect '" + text + "' (2.1 or seeds)");
}

size_t convertPackageFolder(const fs::path& packageDir, package::Dialect to, const fs::path& outPackageDir,
                            const std::string& org) {
  auto pkg = package::Package::open(packageDir.string());
  const std::string id = pkg->manifest().id();
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(fs::absolute(outPackageDir));
  if (fs::exists(out / "build" / "webgpu", ec) &&
      fs::equivalent(out / "build" / "webgpu", pkg->webgpuDir(), ec))
    throw Error(ErrorCode::InvalidArgument, "the output folder " + out.string() + " is the package itself");
  hub::removeQuietly(out / "build" / "webgpu");
  auto files = withContext("while converting " + id + " to " + std::string(package::dialectName(to)),
                           [&] { return package::convertPackage(*pkg, to, out); });
  const hub::PackageMetadata meta = hub::generateMetadata(out, org, id);
  hub::writeFileAtomic(hub::webgpuDir(out) / "metadata.json", meta.serialize());
  // The writer's output must read back in its dialect (a failure here is a writer bug).
  auto back = withContext("while reading the converted package " + out.string(),
                          [&] { return package::Package::open(out.string()); });
  if (back->manifest().dialect != to)
    throw Error(ErrorCode::Internal, "the converted manifest of " + id + " reads as dialect " +
                                         std::string(package::dialectName(back->manifest().dialect)));
  return files.size() + 1;
}

}  // namespace wgk::cli

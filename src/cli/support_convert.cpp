#include "cli/support_convert.h"

#include "hub/cache.h"
#include "hub/fs_util.h"
#include "hub/metadata.h"
#include "hub/repo_ref.h"
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

ConvertedPackage convertPackageFolder(const fs::path& packageDir, package::Dialect to, const fs::path& outDir,
                                      const std::string& org, bool verify) {
  hub::checkOrganisation(org, "--org");
  auto pkg = package::Package::open(packageDir.string());
  const std::string id = pkg->manifest().id();
  std::error_code ec;
  if (verify && fs::is_regular_file(pkg->webgpuDir() / "metadata.json", ec))
    withContext("while verifying " + pkg->rootDir().string() +
                    " before converting it (a convert signs what it writes; --no-verify converts it anyway)",
                [&] { hub::verifyWebgpuFolder(pkg->webgpuDir(), false); });
  // The folder the user named is resolved once (links above it are the user's); below it, on
  // the way to build/webgpu, nothing may be a link (refuseLinksBelow).
  const fs::path named = fs::absolute(outDir).lexically_normal();
  const bool namedIsPackage = (named.has_filename() ? named : named.parent_path()).filename() == id;
  const fs::path base = fs::weakly_canonical(namedIsPackage ? named.parent_path() : named, ec);
  const fs::path out = base / id, webgpu = hub::webgpuDir(out);
  if (hub::isSameOrInside(out, pkg->rootDir()) || hub::isSameOrInside(pkg->rootDir(), webgpu))
    throw Error(ErrorCode::InvalidArgument, "the output folder " + out.string() + " overlaps the package " +
                                                pkg->rootDir().string() +
                                                " it converts (it is the package, inside it, or holds it); "
                                                "choose an --out outside the package");
  hub::removeTreeBelow(base, webgpu);
  auto files = withContext("while converting " + id + " to " + std::string(package::dialectName(to)),
                           [&] { return package::convertPackage(*pkg, to, out); });
  const hub::PackageMetadata meta = hub::generateMetadata(out, org, id);
  hub::writeFileAtomic(webgpu / "metadata.json", meta.serialize());
  // The writer's output must read back in its dialect (a failure here is a writer bug).
  auto back = withContext("while reading the converted package " + out.string(),
                          [&] { return package::Package::open(out.string()); });
  if (back->manifest().dialect != to)
    throw Error(ErrorCode::Internal, "the converted manifest of " + id + " reads as dialect " +
                                         std::string(package::dialectName(back->manifest().dialect)));
  return {out, files.size() + 1};
}

}  // namespace wgk::cli

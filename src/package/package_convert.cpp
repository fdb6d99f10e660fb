#include <fstream>
#include <sstream>

#include "package/manifest_writer.h"
#include "package/package.h"
#include "wgk/error.h"

namespace fs = std::filesystem;

namespace wgk::package {

namespace {

std::string readAll(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorCode::Io, "cannot read " + file.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeAll(const fs::path& file, const std::string& bytes) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << bytes;
  out.close();
  if (!out) throw Error(ErrorCode::Io, "cannot write " + file.string());
}

}  // namespace

std::vector<std::string> convertPackage(const Package& pkg, Dialect to, const fs::path& outPackageDir) {
  const Json manifest = writeManifest(pkg.manifest(), to);
  const fs::path src = pkg.webgpuDir(), dst = outPackageDir / "build" / "webgpu";
  std::error_code ec;
  if (fs::equivalent(src, dst, ec))
    throw Error(ErrorCode::InvalidArgument, "the output folder is the package itself: " + dst.string());
  std::vector<std::string> written;
  writeAll(dst / "manifest.json", manifest.dump(2) + "\n");
  written.push_back("manifest.json");
  const bool same = pkg.manifest().dialect == to;
  for (auto it = fs::recursive_directory_iterator(src, ec); it != fs::recursive_directory_iterator(); ++it) {
    if (!it->is_regular_file()) continue;
    const std::string rel = fs::relative(it->path(), src).generic_string();
    if (rel == "manifest.json" || rel == "metadata.json") continue;
    std::string bytes = readAll(it->path());
    if (!same && rel.ends_with(".jinja")) bytes = rewriteTemplate(bytes, to);
    writeAll(dst / rel, bytes);
    written.push_back(rel);
  }
  if (fs::is_regular_file(pkg.rootDir() / "README.md", ec) &&
      !fs::equivalent(pkg.rootDir(), outPackageDir, ec))
    writeAll(outPackageDir / "README.md", readAll(pkg.rootDir() / "README.md"));
  return written;
}

}  // namespace wgk::package

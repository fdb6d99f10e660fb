#include "cli/support_package.h"

#include "hub/metadata.h"
#include "hub/resolver.h"
#include "package/package.h"
#include "runtime/package_loader.h"
#include "wgk/error.h"

namespace fs = std::filesystem;

namespace wgk::cli {

namespace {

// A folder given as build/webgpu itself stands for the package folder two levels up.
fs::path packageFolderOf(const fs::path& given) {
  fs::path abs = fs::weakly_canonical(fs::absolute(given));
  std::error_code ec;
  if (!fs::is_directory(abs / "build" / "webgpu", ec) && abs.filename() == "webgpu" &&
      abs.parent_path().filename() == "build")
    return abs.parent_path().parent_path();
  return abs;
}

}  // namespace

PackageArg resolvePackageArg(const std::string& repoOrPath, const HubCliOptions& hub,
                             const hub::PackageRequest& request, bool withTests) {
  PackageArg a;
  if (runtime::looksLikePath(repoOrPath)) {
    if (hub.version || hub.revision)
      throw Error(ErrorCode::InvalidArgument,
                  "'" + repoOrPath + "' is a folder: --version/--revision apply only to repo ids");
    std::error_code ec;
    if (!fs::is_directory(repoOrPath, ec))
      throw Error(ErrorCode::NotFound, "package folder " + repoOrPath + " does not exist");
    a.folder = packageFolderOf(repoOrPath);
    a.org = hub::orgOfPackageDir(a.folder);
    a.name = a.folder.filename().string();
    a.origin = "path";
    return a;
  }
  hub::HubOptions o = hub.toHubOptions();
  o.withTests = withTests;
  hub::ResolvedPackage r = withContext("while resolving package " + repoOrPath,
                                       [&] { return hub::resolvePackage(repoOrPath, request, o); });
  a.folder = r.folder;
  a.org = r.repo.org;
  a.name = r.repo.name;
  a.origin = r.originLabel();
  a.revision = r.displayRevision();
  return a;
}

PackageArg resolvePackageArg(const std::string& repoOrPath, const HubCliOptions& hub, bool withTests) {
  return resolvePackageArg(repoOrPath, hub, hub.request(), withTests);
}

}  // namespace wgk::cli

#include "runtime/package_loader.h"

#include <cstdlib>
#include <filesystem>

#include "core/install_layout.h"
#include "hub/cache.h"
#include "hub/resolver.h"
#include "wgk/error.h"

namespace fs = std::filesystem;

namespace wgk::runtime {

bool looksLikePath(const std::string& text) {
  if (text.empty()) return false;
  if (text[0] == '/' || text[0] == '.' || text[0] == '~') return true;
  std::error_code ec;
  return fs::is_directory(text, ec);
}

std::string embeddedPackagesRoot(const std::string& configured) {
  if (!configured.empty()) return configured;
  // An installed wgk uses its own prefix's packages, even when the tree it was built from exists.
  std::error_code ec;
  if (auto installed = install::packagesDir(); installed && fs::is_directory(*installed, ec))
    return installed->string();
  return WGK_SOURCE_PACKAGES_DIR;
}

hub::HubOptions hubOptionsFor(const RuntimeOptions& options) {
  hub::HubOptions h;
  h.endpoint = options.endpoint;
  h.cacheDir = options.cacheDir;
  h.embeddedRoot = embeddedPackagesRoot(options.packagesDir);
  h.lockFile = options.lockFile;
  h.offline = options.offline;
  h.trustRemoteCode = options.trustRemoteCode;
  h.trustedEndpoint = options.trustedEndpoint;
  h.verifyFolders = options.verifyDigests;
  if (options.refsTtlSec >= 0) h.refsTtlSec = options.refsTtlSec;
  h.token = options.token;
  if (options.hubFileTimeoutSec > 0) h.http.fileDeadlineSec = options.hubFileTimeoutSec;
  if (options.hubDownloadTimeoutSec > 0) h.http.downloadDeadlineSec = options.hubDownloadTimeoutSec;
  return h;
}

namespace {
// A folder named by path gets the digest check every resolved package gets: a template edited
// after `wgk digest --write` is refused (Error(Integrity)) unless the caller opted out. A folder
// without metadata.json has no digests to hold it to and loads as it is.
void verifyFolderPackage(const package::Package& p, const hub::HubOptions& hub) {
  if (!hub.verifyFolders) return;  // RuntimeOptions::verifyDigests, --no-verify or WGK_NO_VERIFY
  std::error_code ec;
  if (!fs::is_regular_file(p.webgpuDir() / "metadata.json", ec)) return;
  withContext("while verifying package folder " + p.rootDir().string() +
                  " (after editing it: `wgk digest --write`, or load with --no-verify / WGK_NO_VERIFY=1)",
              [&] { hub::verifyWebgpuFolder(p.webgpuDir(), false); });
}
}  // namespace

LoadedPackage loadPackage(const std::string& repoOrPath, const LoadOptions& load, const hub::HubOptions& hub) {
  LoadedPackage out;
  if (looksLikePath(repoOrPath)) {
    if (load.version || load.revision)
      throw Error(ErrorCode::InvalidArgument,
                  "'" + repoOrPath + "' is a folder: --version/--revision apply only to repo ids");
    out.package = package::Package::open(repoOrPath);
    verifyFolderPackage(*out.package, hub);
    out.source.repo = repoOrPath;
    out.source.requested = "path";
    out.source.revision = "";
    out.source.origin = "path";
    out.source.folder = out.package->rootDir().string();
  } else {
    hub::ResolvedPackage r = withContext("while resolving package " + repoOrPath, [&] {
      return hub::resolvePackage(repoOrPath, hub::PackageRequest::make(load.version, load.revision), hub);
    });
    out.package = withContext("while opening package " + r.repo.str(), [&] { return package::Package::open(r.folder.string()); });
    out.source.repo = r.repo.str();
    out.source.requested = r.requested.gitRev();
    out.source.revision = r.displayRevision();
    out.source.origin = r.originLabel();
    out.source.folder = r.folder.string();
  }
  out.source.opId = out.package->manifest().id();
  return out;
}

}  // namespace wgk::runtime

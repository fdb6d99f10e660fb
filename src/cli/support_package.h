// The one way commands that work on a package's files (digest, publish-layout, convert, and the
// loaders' repo ids through runtime::loadPackage) turn their PACKAGE argument into a folder: a
// path is taken as it is; anything else is a repo id resolved by the hub (lock file, cache,
// embedded copy, endpoint) with the command's hub options.
#pragma once

#include <filesystem>
#include <string>

#include "cli/support_hub_options.h"

namespace wgk::cli {

struct PackageArg {
  std::filesystem::path folder;  // the package folder (holds build/webgpu/)
  std::string org, name;         // a repo id's parts; a folder's parent folder name and basename
  std::string origin;            // "path", or the hub's: "cache", "embedded", "network", "lock"
  std::string revision;          // the hub's display revision; empty for a path
  // A folder the user owns (a path or the embedded copy), as opposed to verified cache content.
  bool ownFolder() const { return origin == "path" || origin == "embedded"; }
  std::string repo() const { return org + "/" + name; }
};

// `request` is the version/revision to resolve a repo id at (a path with one is
// Error(InvalidArgument)). withTests also fetches test.json and bench.json.
PackageArg resolvePackageArg(const std::string& repoOrPath, const HubCliOptions& hub,
                             const hub::PackageRequest& request, bool withTests = false);
PackageArg resolvePackageArg(const std::string& repoOrPath, const HubCliOptions& hub, bool withTests = false);

}  // namespace wgk::cli

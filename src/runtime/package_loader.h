// Turns what a user names (a package folder, or a repo id with a version or revision) into an
// opened package and where it came from. Repo ids go through the hub resolver: lock file, cache,
// embedded packages, network (src/hub/resolver.h); folders are opened as they are.
#pragma once

#include <memory>
#include <string>

#include "hub/hub_config.h"
#include "package/package.h"
#include "wgk/runtime.h"

namespace wgk::runtime {

struct LoadedPackage {
  std::shared_ptr<package::Package> package;
  PackageSource source;
};

// True when `text` names an existing folder (or looks like a path: starts with '/', '.', '~').
bool looksLikePath(const std::string& text);
// The embedded packages root: `configured` (RuntimeOptions::packagesDir; fromEnvironment fills it
// from WGK_PACKAGES), else <prefix>/<datadir>/wgk/packages when wgk runs from an install
// prefix (core/install_layout.h), else the source tree's packages/.
std::string embeddedPackagesRoot(const std::string& configured);
// The hub options of a runtime with these options: what the caller set, nothing from the environment.
hub::HubOptions hubOptionsFor(const RuntimeOptions& options);
LoadedPackage loadPackage(const std::string& repoOrPath, const LoadOptions& load, const hub::HubOptions& hub);

}  // namespace wgk::runtime

// The hub options every package-loading command accepts (download, lock, and later run, test,
// bench, plan, info): --version/--revision, --endpoint, --cache-dir, --offline,
// --trust-remote-code, --lock. Environment defaults are applied by wgk::hub::effectiveOptions.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "hub/hub_config.h"
#include "hub/repo_ref.h"

namespace wgk::cli {

struct HubCliOptions {
  std::optional<int> version;
  std::optional<std::string> revision;
  std::string endpoint;
  std::string cacheDir;
  std::string lockFile;
  bool offline = false;
  bool trustRemoteCode = false;
  bool noVerify = false;  // --no-verify: package folders skip the digest check (while editing one)
  uint64_t gpuTimeoutMs = 0;  // --gpu-timeout-ms (RuntimeOptions::gpuTimeoutMs; 0: its default)
  std::optional<long> refsTtl;  // --refs-ttl SECONDS (unset: WGK_REFS_TTL, else 300)

  // version/revision as a validated request (version 1 when neither is given).
  hub::PackageRequest request() const { return hub::PackageRequest::make(version, revision); }
  // The hub options, with the embedded packages root (WGK_PACKAGES, else the built-in folder).
  hub::HubOptions toHubOptions() const;
};

// Adds the options to `cmd`; withLock=false leaves out --lock (for `wgk lock` itself);
// withRequest=false leaves out --version/--revision (a command that gives them its own meaning).
void addHubOptions(CLI::App* cmd, HubCliOptions& options, bool withLock = true, bool withRequest = true);

// The embedded packages root, as the runtime finds it (runtime::embeddedPackagesRoot): WGK_PACKAGES,
// the install prefix's share/wgk/packages, else the source tree's packages/.
std::string defaultPackagesDir();

}  // namespace wgk::cli

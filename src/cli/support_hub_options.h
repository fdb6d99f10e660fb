// The hub options every package-loading command accepts (download, lock, run, test, bench, plan,
// info, ...): --version/--revision, --endpoint, --cache-dir, --offline, --trust-remote-code,
// --trusted-endpoint, --no-verify, --gpu-timeout-ms, --refs-ttl, --lock. The flags write straight into a
// RuntimeOptions; the environment fills what they leave unset in one place,
// RuntimeOptions::fromEnvironment (runtime/options.h), for a runtime and for hub-only commands alike.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "hub/hub_config.h"
#include "hub/repo_ref.h"
#include "wgk/runtime.h"

namespace wgk::cli {

struct HubCliOptions {
  std::optional<int> version;
  std::optional<std::string> revision;
  // --endpoint, --cache-dir, --lock, --offline, --trust-remote-code, --no-verify (verifyDigests),
  // --gpu-timeout-ms, --refs-ttl; what `openRuntime` creates the runtime with.
  RuntimeOptions runtime;

  // version/revision as a validated request (version 1 when neither is given).
  hub::PackageRequest request() const { return hub::PackageRequest::make(version, revision); }
  // The flags with the environment under them (RuntimeOptions::fromEnvironment): what a runtime is
  // created with.
  RuntimeOptions resolved() const;
  // resolved(), as the hub takes it.
  hub::HubOptions toHubOptions() const;
};

// Adds the options to `cmd`; withLock=false leaves out --lock (for `wgk lock` itself);
// withRequest=false leaves out --version/--revision (a command that gives them its own meaning).
void addHubOptions(CLI::App* cmd, HubCliOptions& options, bool withLock = true, bool withRequest = true);

// The embedded packages root, as the runtime finds it (runtime::embeddedPackagesRoot): WGK_PACKAGES,
// the install prefix's share/wgk/packages, else the source tree's packages/.
std::string defaultPackagesDir();

}  // namespace wgk::cli

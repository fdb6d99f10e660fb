#include "cli/support_hub_options.h"

#include "runtime/options.h"
#include "runtime/package_loader.h"

namespace wgk::cli {

std::string defaultPackagesDir() {
  return runtime::withDefaults(RuntimeOptions::fromEnvironment()).packagesDir;
}

RuntimeOptions HubCliOptions::resolved() const {
  return RuntimeOptions::fromEnvironment(runtime);
}

hub::HubOptions HubCliOptions::toHubOptions() const {
  return runtime::hubOptionsFor(resolved());
}

void addHubOptions(CLI::App* cmd, HubCliOptions& o, bool withLock, bool withRequest) {
  if (withRequest) {
    auto* v = cmd->add_option("--version", o.version, "contract version N: follows branch vN (default 1)");
    auto* r = cmd->add_option("--revision", o.revision, "a 40-hex commit: pins exact bytes");
    v->excludes(r);
  }
  cmd->add_option("--endpoint", o.runtime.endpoint,
                  "hub endpoint (default: WGK_ENDPOINT, then https://huggingface.co/kernels)");
  cmd->add_option("--cache-dir", o.runtime.cacheDir, "package cache (default: WGK_CACHE, then ~/.cache/wgk)");
  cmd->add_flag("--offline", o.runtime.offline, "never touch the network (also WGK_OFFLINE=1)");
  cmd->add_flag("--trust-remote-code", o.runtime.trustRemoteCode,
                "allow organisations other than webgpu-kernels, and packages from an endpoint other than the "
                "trusted one");
  cmd->add_option(
      "--trusted-endpoint", o.runtime.trustedEndpoint,
      "the endpoint whose webgpu-kernels packages are trusted (default: WGK_TRUSTED_ENDPOINT, then "
      "https://huggingface.co/kernels)");
  cmd->add_flag_callback(
      "--no-verify", [&o] { o.runtime.verifyDigests = false; },
      "load a package folder without checking it against its metadata.json (also WGK_NO_VERIFY=1)");
  cmd->add_flag_callback(
      "--no-subgroup-matrix", [&o] { o.runtime.device.subgroupMatrix = false; },
      "do not request subgroup matrices (tensor cores) from the adapter (also "
      "WGK_NO_SUBGROUP_MATRIX=1)");
  cmd->add_option("--gpu-timeout-ms", o.runtime.gpuTimeoutMs,
                  "longest wait for one GPU step of a call before it fails (default: WGK_GPU_TIMEOUT_MS, "
                  "then 60000)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{86'400'000}));
  cmd->add_option("--refs-ttl", o.runtime.refsTtlSec,
                  "seconds a branch's commit is used before asking the endpoint again (default: "
                  "WGK_REFS_TTL, then 300; 0: ask on every resolve)")
      ->check(CLI::NonNegativeNumber);
  if (withLock)
    cmd->add_option("--lock", o.runtime.lockFile, "resolve exactly as this lock file says; refuse drift");
}

}  // namespace wgk::cli

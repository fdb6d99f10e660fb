#include "runtime/options.h"

#include <filesystem>

#include "core/log.h"
#include "hub/http_client.h"
#include "runtime/package_loader.h"

namespace wgk::runtime {

namespace {
// The cache folder the environment names: WGK_CACHE, else the XDG base directory rule.
std::string cacheDirOf(const Environment& env) {
  if (!env.cache.empty()) return env.cache;
  if (!env.xdgCacheHome.empty()) return (std::filesystem::path(env.xdgCacheHome) / "wgk").string();
  if (!env.home.empty()) return (std::filesystem::path(env.home) / ".cache" / "wgk").string();
  return {};  // the hub's default (the account's home folder)
}
}  // namespace

RuntimeOptions overlayEnvironment(RuntimeOptions o, const Environment& env) {
  if (o.packagesDir.empty()) o.packagesDir = env.packages;
  if (o.cacheDir.empty()) o.cacheDir = cacheDirOf(env);
  if (o.endpoint.empty()) o.endpoint = env.endpoint;
  if (o.trustedEndpoint.empty()) o.trustedEndpoint = env.trustedEndpoint;
  if (o.token.empty()) {
    hub::checkHeaderValue(env.token, "WGK_TOKEN");
    o.token = env.token;
  }
  if (o.tuningFile.empty()) o.tuningFile = env.tuning;
  if (env.offline) o.offline = true;
  if (env.noVerify) o.verifyDigests = false;
  if (env.noSubgroupMatrix) o.device.subgroupMatrix = false;
  if (o.device.webgpuLibrary.empty()) o.device.webgpuLibrary = env.webgpuLibrary;
  if (o.device.dawnNode.empty()) o.device.dawnNode = env.dawnNode;
  if (o.device.napiStubs.empty()) o.device.napiStubs = env.napiStubs;
  if (env.noPipelineCache) o.pipelineCache = false;
  if (o.refsTtlSec < 0)
    if (auto ttl = env.refsTtlSec()) o.refsTtlSec = *ttl;
  if (o.gpuTimeoutMs == 0)
    if (auto ms = env.gpuTimeoutMs()) o.gpuTimeoutMs = *ms;
  if (o.hubFileTimeoutSec == 0)
    if (auto s = env.hubFileTimeoutSec()) o.hubFileTimeoutSec = *s;
  if (o.hubDownloadTimeoutSec == 0)
    if (auto s = env.hubDownloadTimeoutSec()) o.hubDownloadTimeoutSec = *s;
  return o;
}

RuntimeOptions withDefaults(RuntimeOptions o) {
  o.packagesDir = embeddedPackagesRoot(o.packagesDir);
  if (o.gpuTimeoutMs == 0) o.gpuTimeoutMs = kDefaultGpuTimeoutMs;
  return o;
}

}  // namespace wgk::runtime

namespace wgk {

RuntimeOptions RuntimeOptions::fromEnvironment(const RuntimeOptions& given) {
  return runtime::overlayEnvironment(given, readEnvironment());
}

RuntimeOptions RuntimeOptions::fromEnvironment() {
  return fromEnvironment(RuntimeOptions{});
}

void setLogLevelFromEnvironment() {
  log::setThreshold(log::levelFromText(readEnvironment().log, "WGK_LOG"));
}

}  // namespace wgk

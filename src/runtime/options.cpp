#include "runtime/options.h"

#include "runtime/package_loader.h"

namespace wgk::runtime {

RuntimeOptions withEnvironment(RuntimeOptions o, const Environment& env) {
  o.packagesDir = embeddedPackagesRoot(o.packagesDir.empty() ? env.packages : o.packagesDir);
  if (o.cacheDir.empty()) o.cacheDir = env.cache;
  if (o.endpoint.empty()) o.endpoint = env.endpoint;
  if (o.trustedEndpoint.empty()) o.trustedEndpoint = env.trustedEndpoint;
  if (o.tuningFile.empty()) o.tuningFile = env.tuning;
  if (env.offline) o.offline = true;
  if (env.noVerify) o.verifyDigests = false;
  if (env.noSubgroupMatrix) o.device.subgroupMatrix = false;
  if (env.noPipelineCache) o.pipelineCache = false;
  if (o.refsTtlSec < 0)
    if (auto ttl = env.refsTtlSec()) o.refsTtlSec = *ttl;
  if (o.gpuTimeoutMs == 0) o.gpuTimeoutMs = env.gpuTimeoutMs().value_or(kDefaultGpuTimeoutMs);
  return o;
}

RuntimeOptions withEnvironment(RuntimeOptions options) { return withEnvironment(std::move(options), readEnvironment()); }

}  // namespace wgk::runtime

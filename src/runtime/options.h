// runtime/options.h — the one path from the environment to a runtime's options.
//
// RuntimeOptions is what every caller fills: a C++ program, the Python bindings, the CLI (whose
// flags write into it directly, cli/support_hub_options.h). withEnvironment then fills each field
// the caller left at its default from the WGK_* variables (core/environment.h) and wgk's defaults;
// the runtime does this once, when it is created, and nothing below it reads the environment for
// these settings again.
#pragma once

#include "core/environment.h"
#include "wgk/runtime.h"

namespace wgk::runtime {

inline constexpr uint64_t kDefaultGpuTimeoutMs = 60'000;

//   packagesDir   <- WGK_PACKAGES, else the install prefix's share/wgk/packages, else the source tree's
//   cacheDir      <- WGK_CACHE (else empty: the hub's $XDG_CACHE_HOME/wgk or ~/.cache/wgk)
//   endpoint      <- WGK_ENDPOINT (else empty: the hub's default)
//   trustedEndpoint <- WGK_TRUSTED_ENDPOINT (else empty: the hub's default endpoint)
//   tuningFile    <- WGK_TUNING
//   offline       <- true when WGK_OFFLINE is on
//   verifyDigests <- false when WGK_NO_VERIFY is on
//   device.subgroupMatrix <- false when WGK_NO_SUBGROUP_MATRIX is on
//   pipelineCache <- false when WGK_NO_PIPELINE_CACHE is on
//   refsTtlSec    <- WGK_REFS_TTL (else -1: the hub's default)
//   gpuTimeoutMs  <- WGK_GPU_TIMEOUT_MS, else kDefaultGpuTimeoutMs
// A malformed number is Error(InvalidArgument) naming the variable.
RuntimeOptions withEnvironment(RuntimeOptions options, const Environment& env);
RuntimeOptions withEnvironment(RuntimeOptions options);  // readEnvironment()

}  // namespace wgk::runtime

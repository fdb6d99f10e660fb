// runtime/options.h — the one precedence rule of a runtime's options, and wgk's defaults.
//
// The library reads no environment variable. Callers fill RuntimeOptions: a C++ program, the
// Python bindings, the CLI (whose flags write into it directly, cli/support_hub_options.h). The
// edges (the CLI, the Python package, a C++ program that wants them) then call
// RuntimeOptions::fromEnvironment, which is overlayEnvironment below on core::readEnvironment:
//
//   an option the caller set  >  its WGK_* variable  >  wgk's default (withDefaults, in the runtime)
//
// written here once, for a runtime and for hub-only commands alike. The runtime applies only
// withDefaults, when it is created; the hub receives what that produced (hubOptionsFor).
#pragma once

#include "core/environment.h"
#include "wgk/runtime.h"

namespace wgk::runtime {

inline constexpr uint64_t kDefaultGpuTimeoutMs = 60'000;

// Fills each field the caller left at its default from `env`:
//   packagesDir   <- WGK_PACKAGES
//   cacheDir      <- WGK_CACHE, else $XDG_CACHE_HOME/wgk, else $HOME/.cache/wgk
//   endpoint      <- WGK_ENDPOINT
//   trustedEndpoint <- WGK_TRUSTED_ENDPOINT
//   token         <- WGK_TOKEN (Error(InvalidArgument) when it holds a control character)
//   tuningFile    <- WGK_TUNING
//   offline       <- true when WGK_OFFLINE is on
//   verifyDigests <- false when WGK_NO_VERIFY is on
//   device.subgroupMatrix <- false when WGK_NO_SUBGROUP_MATRIX is on
//   device.webgpuLibrary, device.dawnNode, device.napiStubs <- WGK_WEBGPU_LIBRARY, WGK_DAWN_NODE,
//                    WGK_NAPI_STUBS
//   pipelineCache <- false when WGK_NO_PIPELINE_CACHE is on
//   refsTtlSec    <- WGK_REFS_TTL (when -1)
//   gpuTimeoutMs  <- WGK_GPU_TIMEOUT_MS (when 0)
//   hubFileTimeoutSec, hubDownloadTimeoutSec <- WGK_HUB_FILE_TIMEOUT_S, WGK_HUB_DOWNLOAD_TIMEOUT_S
// A malformed number is Error(InvalidArgument) naming the variable. WGK_LOG is not an option of
// a runtime (the log is the process's): the edges apply it with log::applyLevelText.
RuntimeOptions overlayEnvironment(RuntimeOptions given, const Environment& env);

// wgk's defaults for what is still unset, reading nothing from the environment:
//   packagesDir  <- the install prefix's share/wgk/packages, else the source tree's (embeddedPackagesRoot)
//   gpuTimeoutMs <- kDefaultGpuTimeoutMs
// (the hub's own defaults, endpoint, cache folder and refs TTL, are hub::effectiveOptions').
RuntimeOptions withDefaults(RuntimeOptions options);

}  // namespace wgk::runtime

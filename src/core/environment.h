// core/environment.h — the one reader of wgk's environment variables.
//
// Every WGK_* variable (and the HOME / XDG_CACHE_HOME the cache falls back on) is read here and
// nowhere else, each with one spelling rule: a flag (WGK_OFFLINE, WGK_NO_VERIFY) is on for 1, true
// or yes in any case; a number is checked, and a malformed one is Error(InvalidArgument) naming the
// variable, when it is asked for. Only the edges call it: RuntimeOptions::fromEnvironment
// (runtime/options.h, the one precedence rule), the wgk command and the Python package (WGK_LOG,
// and the CLI's own WGK_TUNING display); the layers below take options and read no variable
// (tests/unit/layering checks it). Read anew on every call: a test or a host program may change it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace wgk {

struct Environment {
  std::string packages;       // WGK_PACKAGES: the embedded packages root
  std::string cache;          // WGK_CACHE: the hub cache
  std::string endpoint;       // WGK_ENDPOINT: the hub endpoint
  std::string trustedEndpoint;  // WGK_TRUSTED_ENDPOINT: whose webgpu-kernels packages are trusted
  std::string token;          // WGK_TOKEN: sent only to the endpoint's origin
  std::string tuning;         // WGK_TUNING: a tuning table
  bool offline = false;       // WGK_OFFLINE
  bool noVerify = false;      // WGK_NO_VERIFY: package folders skip the digest check
  bool noSubgroupMatrix = false;  // WGK_NO_SUBGROUP_MATRIX: never request subgroup matrices
  bool noPipelineCache = false;   // WGK_NO_PIPELINE_CACHE: no persistent pipeline cache
  std::string log;            // WGK_LOG: error, warn, info or debug (core/log.h checks it)
  std::string webgpuLibrary;  // WGK_WEBGPU_LIBRARY
  std::string dawnNode;       // WGK_DAWN_NODE
  std::string napiStubs;      // WGK_NAPI_STUBS
  std::string xdgCacheHome;   // XDG_CACHE_HOME
  std::string home;           // HOME

  // Checked numbers (unset or empty: nullopt).
  std::optional<long> refsTtlSec() const;              // WGK_REFS_TTL: 0 .. 999999999
  std::optional<uint64_t> gpuTimeoutMs() const;        // WGK_GPU_TIMEOUT_MS: 1 .. 86400000
  std::optional<long> hubFileTimeoutSec() const;       // WGK_HUB_FILE_TIMEOUT_S: 1 .. 86400
  std::optional<long> hubDownloadTimeoutSec() const;   // WGK_HUB_DOWNLOAD_TIMEOUT_S: 1 .. 86400

  // The raw text of the numeric variables (checked by the functions above).
  std::string refsTtlText, gpuTimeoutText, hubFileTimeoutText, hubDownloadTimeoutText;
};

Environment readEnvironment();

// The flag rule: "1", "true" or "yes", in any case.
bool envFlagIsOn(const std::string& value);

}  // namespace wgk

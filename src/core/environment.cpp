#include "core/environment.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "wgk/error.h"

namespace wgk {

namespace {

std::string var(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// A whole number in [lo, hi], or Error(InvalidArgument) "<NAME>='<text>' is not <what>".
std::optional<long long> number(const char* name, const std::string& text, long long lo, long long hi,
                                const std::string& what) {
  if (text.empty()) return std::nullopt;
  const bool digits = text.size() <= 18 && text.find_first_not_of("0123456789") == std::string::npos;
  errno = 0;
  const long long n = digits ? std::strtoll(text.c_str(), nullptr, 10) : -1;
  if (!digits || errno || n < lo || n > hi)
    throw Error(ErrorCode::InvalidArgument, std::string(name) + "='" + text + "' is not " + what);
  return n;
}

}  // namespace

bool envFlagIsOn(const std::string& value) {
  std::string v = value;
  std::transform(v.begin(), v.end(), v.begin(), [](char c) { return char(std::tolower(c)); });
  return v == "1" || v == "true" || v == "yes";
}

Environment readEnvironment() {
  Environment e;
  e.packages = var("WGK_PACKAGES");
  e.cache = var("WGK_CACHE");
  e.endpoint = var("WGK_ENDPOINT");
  e.trustedEndpoint = var("WGK_TRUSTED_ENDPOINT");
  e.token = var("WGK_TOKEN");
  e.tuning = var("WGK_TUNING");
  e.offline = envFlagIsOn(var("WGK_OFFLINE"));
  e.noVerify = envFlagIsOn(var("WGK_NO_VERIFY"));
  e.noSubgroupMatrix = envFlagIsOn(var("WGK_NO_SUBGROUP_MATRIX"));
  e.noPipelineCache = envFlagIsOn(var("WGK_NO_PIPELINE_CACHE"));
  e.log = var("WGK_LOG");
  e.webgpuLibrary = var("WGK_WEBGPU_LIBRARY");
  e.dawnNode = var("WGK_DAWN_NODE");
  e.napiStubs = var("WGK_NAPI_STUBS");
  e.xdgCacheHome = var("XDG_CACHE_HOME");
  e.home = var("HOME");
  e.refsTtlText = var("WGK_REFS_TTL");
  e.gpuTimeoutText = var("WGK_GPU_TIMEOUT_MS");
  e.hubFileTimeoutText = var("WGK_HUB_FILE_TIMEOUT_S");
  e.hubDownloadTimeoutText = var("WGK_HUB_DOWNLOAD_TIMEOUT_S");
  return e;
}

std::optional<long> Environment::refsTtlSec() const {
  auto n = number("WGK_REFS_TTL", refsTtlText, 0, 999'999'999,
                  "a whole number of seconds (0: ask on every resolve)");
  return n ? std::optional<long>(*n) : std::nullopt;
}

std::optional<uint64_t> Environment::gpuTimeoutMs() const {
  auto n = number("WGK_GPU_TIMEOUT_MS", gpuTimeoutText, 1, 86'400'000, "a number of milliseconds in [1, 86400000]");
  return n ? std::optional<uint64_t>(static_cast<uint64_t>(*n)) : std::nullopt;
}

std::optional<long> Environment::hubFileTimeoutSec() const {
  auto n = number("WGK_HUB_FILE_TIMEOUT_S", hubFileTimeoutText, 1, 86400,
                  "a whole number of seconds in [1, 86400]");
  return n ? std::optional<long>(*n) : std::nullopt;
}

std::optional<long> Environment::hubDownloadTimeoutSec() const {
  auto n = number("WGK_HUB_DOWNLOAD_TIMEOUT_S", hubDownloadTimeoutText, 1, 86400,
                  "a whole number of seconds in [1, 86400]");
  return n ? std::optional<long>(*n) : std::nullopt;
}

}  // namespace wgk

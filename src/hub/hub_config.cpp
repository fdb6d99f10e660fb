#include "hub/hub_config.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <set>

#include "hub/cache.h"
#include "hub/fs_util.h"

#include "wgk/error.h"

namespace wgk::hub {

namespace {

long refsTtlFromEnv() {
  std::string text = envOr("WGK_REFS_TTL");
  if (text.empty()) return kDefaultRefsTtlSec;
  if (text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    throw Error(ErrorCode::InvalidArgument,
                "WGK_REFS_TTL=\"" + text + "\" must be a whole number of seconds (0: ask on every resolve)");
  return std::stol(text);
}

// Each distinct announcement once per process: a program loading one package many times should
// not repeat the same line.
void stderrNotice(const std::string& line) {
  static std::mutex mutex;
  static std::set<std::string> seen;
  std::lock_guard<std::mutex> lock(mutex);
  if (seen.insert(line).second) std::fprintf(stderr, "wgk: note: %s\n", line.c_str());
}

}  // namespace

HubOptions effectiveOptions(const HubOptions& options) {
  HubOptions o = options;
  if (o.endpoint.empty()) o.endpoint = envOr("WGK_ENDPOINT", kDefaultEndpoint);
  while (!o.endpoint.empty() && o.endpoint.back() == '/') o.endpoint.pop_back();
  if (o.cacheDir.empty()) o.cacheDir = Cache::defaultRoot().string();
  std::string off = envOr("WGK_OFFLINE");
  std::transform(off.begin(), off.end(), off.begin(), [](char c) { return char(std::tolower(c)); });
  if (off == "1" || off == "true" || off == "yes") o.offline = true;
  if (!o.token) o.token = envOr("WGK_TOKEN");
  o.http.token = *o.token;
  applyDeadlineEnvironment(o.http);
  // Validated even offline, so a typo is reported at once rather than on the first download.
  o.http.tokenOrigin = urlOrigin(o.endpoint);
  if (!o.refsTtlSec) o.refsTtlSec = refsTtlFromEnv();
  if (*o.refsTtlSec < 0)
    throw Error(ErrorCode::InvalidArgument,
                "the refs TTL must be 0 or more seconds, not " + std::to_string(*o.refsTtlSec));
  if (!o.notice) o.notice = stderrNotice;
  return o;
}

}  // namespace wgk::hub

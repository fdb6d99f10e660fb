#include "hub/hub_config.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <set>

#include "core/environment.h"
#include "hub/cache.h"
#include "hub/fs_util.h"

#include "wgk/error.h"

namespace wgk::hub {

namespace {

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
  const Environment env = readEnvironment();
  if (o.endpoint.empty()) o.endpoint = env.endpoint.empty() ? kDefaultEndpoint : env.endpoint;
  while (!o.endpoint.empty() && o.endpoint.back() == '/') o.endpoint.pop_back();
  if (o.cacheDir.empty()) o.cacheDir = Cache::defaultRoot().string();
  if (env.offline) o.offline = true;
  if (env.noVerify) o.verifyFolders = false;
  if (!o.token) o.token = env.token;
  o.http.token = *o.token;
  if (auto s = env.hubFileTimeoutSec()) o.http.fileDeadlineSec = *s;
  if (auto s = env.hubDownloadTimeoutSec()) o.http.downloadDeadlineSec = *s;
  // Validated even offline, so a typo is reported at once rather than on the first download.
  o.http.tokenOrigin = urlOrigin(o.endpoint);
  if (!o.refsTtlSec) o.refsTtlSec = env.refsTtlSec().value_or(kDefaultRefsTtlSec);
  if (*o.refsTtlSec < 0)
    throw Error(ErrorCode::InvalidArgument,
                "the refs TTL must be 0 or more seconds, not " + std::to_string(*o.refsTtlSec));
  if (!o.notice) o.notice = stderrNotice;
  return o;
}

}  // namespace wgk::hub

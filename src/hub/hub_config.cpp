#include "hub/hub_config.h"

#include <algorithm>

#include "core/log.h"
#include "hub/cache.h"
#include "hub/fs_util.h"

#include "wgk/error.h"

namespace wgk::hub {

namespace {

// Announcements are warnings of wgk's log, so WGK_LOG=error and `wgk --quiet` hide them; the
// resolver already limits them to one per endpoint per process.
void logNotice(const std::string& line) {
  log::warn("hub", line);
}

std::string withoutTrailingSlash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

HubOptions effectiveOptions(const HubOptions& options) {
  HubOptions o = options;
  if (o.endpoint.empty()) o.endpoint = kDefaultEndpoint;
  o.endpoint = withoutTrailingSlash(o.endpoint);
  if (o.trustedEndpoint.empty()) o.trustedEndpoint = kDefaultEndpoint;
  o.trustedEndpoint = withoutTrailingSlash(o.trustedEndpoint);
  withContext("in the trusted endpoint (--trusted-endpoint / WGK_TRUSTED_ENDPOINT)",
              [&] { urlOrigin(o.trustedEndpoint); });
  if (o.cacheDir.empty()) o.cacheDir = Cache::defaultRoot().string();
  checkHeaderValue(o.token, "the token (RuntimeOptions::token / WGK_TOKEN)");
  o.http.token = o.token;
  // Validated even offline, so a typo is reported at once rather than on the first download.
  o.http.tokenOrigin = urlOrigin(o.endpoint);
  if (!o.refsTtlSec) o.refsTtlSec = kDefaultRefsTtlSec;
  if (*o.refsTtlSec < 0)
    throw Error(ErrorCode::InvalidArgument,
                "the refs TTL must be 0 or more seconds, not " + std::to_string(*o.refsTtlSec));
  if (!o.notice) o.notice = logNotice;
  return o;
}

bool isTrustedEndpoint(const HubOptions& options, const std::string& endpoint) {
  return withoutTrailingSlash(endpoint) == options.trustedEndpoint;
}

}  // namespace wgk::hub

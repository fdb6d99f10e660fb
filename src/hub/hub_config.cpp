#include "hub/hub_config.h"

#include <algorithm>

#include "hub/cache.h"
#include "hub/fs_util.h"

namespace wgk::hub {

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
  return o;
}

}  // namespace wgk::hub

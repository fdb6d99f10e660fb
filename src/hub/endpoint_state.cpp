#include "hub/endpoint_state.h"

#include <map>
#include <mutex>
#include <set>

namespace wgk::hub {

namespace {
struct States {
  std::mutex mutex;
  std::map<std::string, EndpointDownState> down;
  std::set<std::string> announced;
};
States& states() {
  static States s;
  return s;
}
}  // namespace

std::optional<EndpointDownState> endpointDownRecently(const std::string& endpoint, long ttlSec, int64_t now) {
  States& s = states();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.down.find(endpoint);
  if (it == s.down.end() || ttlSec <= 0 || it->second.at > now || now - it->second.at >= ttlSec)
    return std::nullopt;
  return it->second;
}

void markEndpointDown(const std::string& endpoint, int64_t now, const std::string& why, bool connected) {
  States& s = states();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.down[endpoint] = {now, why, connected};
}

bool firstAnnouncementFor(const std::string& endpoint) {
  States& s = states();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.announced.insert(endpoint).second;
}

void forgetEndpointStates() {
  States& s = states();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.down.clear();
  s.announced.clear();
}

}  // namespace wgk::hub

// What this process knows about endpoints that could not answer (docs/hub.md "When the endpoint
// cannot be reached"). An endpoint that is down is said once per process, and the negative answer
// is kept like a positive one (for the refresh interval), so no later load of any package waits on
// the same endpoint again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace wgk::hub {

struct EndpointDownState {
  int64_t at = 0;          // unix seconds when it last failed
  std::string why;         // the first line of the error
  bool connected = false;  // it answered badly (5xx, too slow) rather than not at all
};

// The endpoint's failure if it happened less than ttlSec ago (ttlSec 0: never remembered).
std::optional<EndpointDownState> endpointDownRecently(const std::string& endpoint, long ttlSec, int64_t now);
void markEndpointDown(const std::string& endpoint, int64_t now, const std::string& why, bool connected);

// True the first time it is asked for `endpoint` in this process: the one announcement.
bool firstAnnouncementFor(const std::string& endpoint);

// Forgets both (tests; a host that wants to hear about it again).
void forgetEndpointStates();

}  // namespace wgk::hub

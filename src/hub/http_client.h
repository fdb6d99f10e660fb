// HTTP GET with libcurl, hardened for downloading packages: connect and low-speed timeouts, a
// bounded number of retries with exponential backoff (5xx, 429, timeouts, dropped connections;
// never 4xx), a per-file size cap, redirects followed by hand so a bearer token goes ONLY to the
// endpoint's own origin (scheme, host and port), and progress on stderr for long downloads.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "wgk/error.h"

namespace wgk::hub {

struct HttpSettings {
  long connectTimeoutMs = 10000;
  long lowSpeedTimeSec = 30;   // abort when under 1 byte/s for this long (stalled server)
  long totalTimeoutSec = 600;  // whole request, per attempt
  // Overall deadlines: a server trickling bytes faster than the low-speed limit would otherwise
  // keep each attempt alive for totalTimeoutSec, times maxAttempts, per file.
  long fileDeadlineSec = 300;      // one file: every attempt, redirect and backoff (WGK_HUB_FILE_TIMEOUT_S)
  long downloadDeadlineSec = 900;  // one package (downloadPackage; WGK_HUB_DOWNLOAD_TIMEOUT_S)
  // Set by the downloader: the end of the whole download; {} means none.
  std::chrono::steady_clock::time_point downloadDeadline{};
  // A body that has begun and then receives nothing for this long fails at once, not retried: a
  // server that declared a Content-Length longer than what it sends would otherwise hold the
  // connection until the low-speed limit, once per attempt.
  long stallSec = 10;
  int maxAttempts = 3;                  // 1 = no retry
  long backoffMs = 500;                 // first retry delay; doubled each time
  uint64_t maxFileBytes = 64ull << 20;  // a larger body is refused
  int maxRedirects = 5;
  std::string token;        // bearer token (WGK_TOKEN); empty: none
  std::string tokenOrigin;  // "scheme://host:port" the token may be sent to (the endpoint's)
  bool progress = true;     // progress on stderr when it is a TTY or a body exceeds 1 MiB
};

struct HttpResponse {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names; the first hop that sent one wins
  std::string finalUrl;
};

// The endpoint could not be reached or could not answer: no connection, no such host, a timeout
// or deadline, or a 5xx/408/429 after the retries. An Error(Network) of its own type, so the resolver
// can tell an endpoint that is down (said once per process) from one that refused one file.
class EndpointDown : public Error {
 public:
  EndpointDown(ErrorCode code, std::string message, bool connected)
      : Error(code, std::move(message)), connected_(connected) {}
  // false: no connection was ever made (no such host, connection refused or timed out): the
  // endpoint was not reached at all, so it cannot have said anything about any package.
  bool connected() const { return connected_; }

 private:
  bool connected_;
};

// The headers of the responses of one GET as they arrive, one line at a time (what libcurl's
// header callback sees; a status line starts the next response: a redirect hop, a 100). Pure, so
// that the fuzz target fuzz_hub_response feeds it a server's bytes without sockets.
struct ResponseHeaders {
  std::map<std::string, std::string> headers;  // lower-case names; the first hop that sent one wins
  std::string contentLength;                   // of the response now arriving
  std::string refused;                         // non-empty: why the response was refused
  size_t lines = 0;                            // header lines so far, every hop included
  static constexpr size_t kMaxLines = 1024;    // more is refused: the map would grow without bound
  // Takes one header line (its CR LF included or not). false: refused (a header value holding a
  // control character, a malformed Content-Length, two different ones); `refused` says why.
  bool add(std::string_view line);
};

// Refuses a header value holding a control character (CR, LF, NUL, ...; HTAB is allowed):
// Error(InvalidArgument) naming `what` and the offset, never the value (it may be a secret).
void checkHeaderValue(const std::string& value, const std::string& what);

// The origin "scheme://host:port" of an absolute http(s) URL (default ports filled in);
// Error(InvalidArgument) for anything else.
std::string urlOrigin(const std::string& url);

// GETs `url` (label names the file in messages and progress). Returns only 2xx responses; 404 is
// Error(NotFound), other failures Error(Network) with the status or curl's reason (EndpointDown
// when the endpoint could not answer at all); running past fileDeadlineSec or downloadDeadline is
// EndpointDown saying which deadline. A response with two different Content-Length headers, a
// malformed one, or a header value holding a control character is refused (not retried), and so
// is a body that stops short of its Content-Length for stallSec.
HttpResponse httpGet(const std::string& url, const HttpSettings& settings, const std::string& label);

}  // namespace wgk::hub

// HTTP GET with libcurl, hardened for downloading packages: connect and low-speed timeouts, a
// bounded number of retries with exponential backoff (5xx, 429, timeouts, dropped connections;
// never 4xx), a per-file size cap, redirects followed by hand so a bearer token goes ONLY to the
// endpoint's own origin (scheme, host and port), and progress on stderr for long downloads.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

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

// The origin "scheme://host:port" of an absolute http(s) URL (default ports filled in);
// Error(InvalidArgument) for anything else.
std::string urlOrigin(const std::string& url);

// GETs `url` (label names the file in messages and progress). Returns only 2xx responses; 404 is
// Error(NotFound), other failures Error(Network) with the status or curl's reason; running past
// fileDeadlineSec or downloadDeadline is Error(Network) saying which deadline.
HttpResponse httpGet(const std::string& url, const HttpSettings& settings, const std::string& label);

}  // namespace wgk::hub

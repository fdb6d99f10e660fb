#include "hub/http_client.h"

#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include "wgk/error.h"

namespace wgk::hub {

namespace {

void globalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
  std::string body;
  ResponseHeaders head;  // the headers, and why the response was refused
  uint64_t cap = 0;
  bool capExceeded = false;
  bool progress = false;
  std::string label;
  std::chrono::steady_clock::time_point lastPrint{};
  bool printed = false;
  // Stall detection: the body's size when it last grew, and when.
  long stallSec = 0;
  curl_off_t lastNow = 0;
  std::chrono::steady_clock::time_point lastGrowth{};
  bool stalled = false;
  curl_off_t declared = 0;
  bool connected = false;  // some attempt reached the server
};

bool isControl(unsigned char c) {
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

size_t onBody(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t len = size * n;
  if (t->body.size() + len > t->cap) {
    t->capExceeded = true;
    return 0;  // aborts the transfer
  }
  t->body.append(data, len);
  return len;
}

// Returning anything but size * n aborts the transfer (CURLE_WRITE_ERROR); t->head.refused says why.
size_t onHeader(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  return t->head.add(std::string_view(data, size * n)) ? size * n : 0;
}

int onProgress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  auto clock = std::chrono::steady_clock::now();
  // A body that has begun but not grown for stallSec: curl calls this about once a second while
  // idle, so the check runs even when no byte comes.
  if (now != t->lastNow || t->lastGrowth == std::chrono::steady_clock::time_point{}) {
    t->lastNow = now;
    t->lastGrowth = clock;
  } else if (now > 0 && t->stallSec > 0 && clock - t->lastGrowth >= std::chrono::seconds(t->stallSec)) {
    t->stalled = true;
    t->declared = total;
    return 1;  // aborts the transfer (CURLE_ABORTED_BY_CALLBACK)
  }
  if (!t->progress) return 0;
  static const bool tty = ::isatty(2);
  if (!tty && total < (1 << 20) && now < (1 << 20)) return 0;
  if (t->printed && clock - t->lastPrint < std::chrono::milliseconds(250)) return 0;
  t->lastPrint = clock;
  t->printed = true;
  if (total > 0)
    std::fprintf(stderr, "\r  downloading %s: %.1f / %.1f KiB", t->label.c_str(), now / 1024.0,
                 total / 1024.0);
  else
    std::fprintf(stderr, "\r  downloading %s: %.1f KiB", t->label.c_str(), now / 1024.0);
  return 0;
}

struct CurlUrl {
  CURLU* h = curl_url();
  ~CurlUrl() { curl_url_cleanup(h); }
  std::string get(CURLUPart part, unsigned flags = 0) {
    char* out = nullptr;
    if (curl_url_get(h, part, &out, flags) != CURLUE_OK || !out) return "";
    std::string s(out);
    curl_free(out);
    return s;
  }
};

bool retriableStatus(long status) {
  return status >= 500 || status == 429 || status == 408;
}

bool retriableCurl(CURLcode rc) {
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_COULDNT_CONNECT:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

// Transport failures that mean the endpoint did not answer at all (not a refusal of one file).
bool unreachableCurl(CURLcode rc) {
  switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool ResponseHeaders::add(std::string_view line) {
  if (++lines > kMaxLines) {
    refused = "the response sent more than " + std::to_string(kMaxLines) + " header lines";
    return false;
  }
  if (line.rfind("HTTP/", 0) == 0) {  // a status line: a new response (a redirect hop, a 100)
    contentLength.clear();
    return true;
  }
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return true;
  std::string name(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(), [](char c) { return char(std::tolower(c)); });
  std::string_view value = line.substr(colon + 1);
  auto b = value.find_first_not_of(" \t"), e = value.find_last_not_of(" \t\r\n");
  value = b == std::string_view::npos ? std::string_view() : value.substr(b, e - b + 1);
  if (std::any_of(value.begin(), value.end(),
                  [](char c) { return isControl(static_cast<unsigned char>(c)); })) {
    refused = "the response header " + name + " holds a control character";
    return false;
  }
  if (name == "content-length") {
    // Two lengths (RFC 9110 8.6: a recipient must reject differing values) or a malformed one
    // would have the body end where the server likes: refuse the response.
    if (value.empty() || value.size() > 18 ||
        !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      refused = "the response has a malformed Content-Length \"" + std::string(value.substr(0, 40)) + "\"";
      return false;
    }
    if (!contentLength.empty() && contentLength != value) {
      refused = "the response has conflicting Content-Length headers (" + contentLength + " and " +
                std::string(value) + ")";
      return false;
    }
    contentLength = std::string(value);
  }
  headers.emplace(std::move(name), std::string(value));  // keeps the first
  return true;
}

void checkHeaderValue(const std::string& value, const std::string& what) {
  for (size_t i = 0; i < value.size(); ++i)
    if (isControl(static_cast<unsigned char>(value[i]))) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", unsigned(static_cast<unsigned char>(value[i])));
      throw Error(ErrorCode::InvalidArgument,
                  what + " holds a control character (" + code + " at offset " + std::to_string(i) +
                      "); a header value must not contain CR, LF or other control characters");
    }
}

std::string urlOrigin(const std::string& url) {
  globalInit();
  CurlUrl u;
  if (curl_url_set(u.h, CURLUPART_URL, url.c_str(), 0) != CURLUE_OK)
    throw Error(ErrorCode::InvalidArgument, "\"" + url + "\" is not a valid URL");
  std::string scheme = u.get(CURLUPART_SCHEME);
  if (scheme != "http" && scheme != "https")
    throw Error(ErrorCode::InvalidArgument, "\"" + url + "\" is not an http(s) URL");
  std::string host = u.get(CURLUPART_HOST);
  std::transform(host.begin(), host.end(), host.begin(), [](char c) { return char(std::tolower(c)); });
  return scheme + "://" + host + ":" + u.get(CURLUPART_PORT, CURLU_DEFAULT_PORT);
}

namespace {
using Clock = std::chrono::steady_clock;

// The earlier of the file's own deadline and the download's.
struct Deadline {
  Clock::time_point at;
  bool isDownloads = false;  // the download's deadline comes first
  long remainingMs() const {
    return std::max<long>(0,
                          std::chrono::duration_cast<std::chrono::milliseconds>(at - Clock::now()).count());
  }
};

Deadline deadlineFor(const HttpSettings& s) {
  Deadline d{Clock::now() + std::chrono::seconds(std::max(1L, s.fileDeadlineSec)), false};
  if (s.downloadDeadline != Clock::time_point{} && s.downloadDeadline < d.at) d = {s.downloadDeadline, true};
  return d;
}

[[noreturn]] void deadlinePassed(const std::string& url, const HttpSettings& s, const Deadline& d,
                                 bool connected) {
  throw EndpointDown(ErrorCode::Network,
                     "GET " + url + " ran past the " +
                         (d.isDownloads ? std::to_string(s.downloadDeadlineSec) +
                                              " s deadline of the whole download (WGK_HUB_DOWNLOAD_TIMEOUT_S)"
                                        : std::to_string(s.fileDeadlineSec) +
                                              " s deadline per file (WGK_HUB_FILE_TIMEOUT_S)") +
                         ": the server is too slow or stalled",
                     connected);
}
}  // namespace

// One attempt: follows redirects by hand. Returns the curl code; fills resp / transfer.
static CURLcode attempt(const std::string& url, const HttpSettings& s, const Deadline& deadline,
                        HttpResponse& resp, Transfer& tr, std::string& why) {
  std::string current = url;
  for (int hop = 0; hop <= s.maxRedirects; ++hop) {
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> h(curl_easy_init(), curl_easy_cleanup);
    if (!h) throw Error(ErrorCode::Internal, "curl_easy_init failed");
    CURL* c = h.get();
    tr.body.clear();
    tr.capExceeded = false;
    tr.lastNow = 0;
    tr.lastGrowth = {};
    curl_easy_setopt(c, CURLOPT_URL, current.c_str());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, s.connectTimeoutMs);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, s.lowSpeedTimeSec);
    // The attempt's own limit, cut to what is left of the overall deadline (0 would mean none).
    const long leftMs = deadline.remainingMs();
    if (leftMs <= 0) return CURLE_OPERATION_TIMEDOUT;
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, std::min(s.totalTimeoutSec * 1000, leftMs));
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(s.maxFileBytes));
    curl_easy_setopt(c, CURLOPT_USERAGENT, "wgk/" WGK_HUB_VERSION);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &tr);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &tr);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, onProgress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &tr);
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> hdrs(nullptr, curl_slist_free_all);
    // The token goes only to the endpoint's own origin: never to a host a redirect points at.
    if (!s.token.empty() && !s.tokenOrigin.empty() && urlOrigin(current) == s.tokenOrigin) {
      checkHeaderValue(s.token, "the bearer token");  // also when HttpSettings were filled by hand
      std::string auth = "Authorization: Bearer " + s.token;
      hdrs.reset(curl_slist_append(nullptr, auth.c_str()));
      curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs.get());
    }
    CURLcode rc = curl_easy_perform(c);
    curl_off_t connectUs = 0;
    if (curl_easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connectUs) == CURLE_OK && connectUs > 0)
      tr.connected = true;
    if (tr.printed) {
      std::fprintf(stderr, "\n");
      tr.printed = false;
    }
    if (rc != CURLE_OK) {
      if (!tr.head.refused.empty() || tr.stalled) return rc;  // httpGet reports these itself
      why = tr.capExceeded || rc == CURLE_FILESIZE_EXCEEDED
                ? "larger than the size cap of " + std::to_string(s.maxFileBytes) + " bytes"
                : curl_easy_strerror(rc);
      if (rc == CURLE_WRITE_ERROR && tr.capExceeded) rc = CURLE_FILESIZE_EXCEEDED;
      return rc;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp.status);
    if (resp.status >= 300 && resp.status < 400) {
      char* next = nullptr;
      curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &next);
      if (!next) {
        why = "HTTP " + std::to_string(resp.status) + " without a Location";
        return CURLE_OK;
      }
      current = next;
      urlOrigin(current);  // refuses non-http(s) targets
      continue;
    }
    resp.finalUrl = current;
    return CURLE_OK;
  }
  why = "more than " + std::to_string(s.maxRedirects) + " redirects";
  resp.status = 310;
  return CURLE_TOO_MANY_REDIRECTS;
}

HttpResponse httpGet(const std::string& url, const HttpSettings& s, const std::string& label) {
  globalInit();
  urlOrigin(url);
  long delay = s.backoffMs;
  std::string lastWhy;
  const Deadline deadline = deadlineFor(s);
  bool connected = false;  // any attempt reached the server
  for (int n = 1; n <= std::max(1, s.maxAttempts); ++n) {
    if (deadline.remainingMs() <= 0) deadlinePassed(url, s, deadline, connected);
    HttpResponse resp;
    Transfer tr;
    tr.cap = s.maxFileBytes;
    tr.progress = s.progress;
    tr.label = label;
    tr.stallSec = s.stallSec;
    std::string why;
    CURLcode rc = attempt(url, s, deadline, resp, tr, why);
    connected = connected || tr.connected || rc == CURLE_OK;
    // A malformed response or a body that stopped short: the same server would do it again.
    if (!tr.head.refused.empty()) throw Error(ErrorCode::Network, "GET " + url + ": " + tr.head.refused);
    if (tr.stalled)
      throw Error(
          ErrorCode::Network,
          "GET " + url + ": the body stopped at " + std::to_string(tr.lastNow) + " bytes" +
              (tr.declared > 0 ? " of the " + std::to_string(tr.declared) + " its Content-Length declares"
                               : "") +
              " and nothing came for " + std::to_string(s.stallSec) +
              " s (a wrong Content-Length or a stalled server)");
    bool retry = false;
    bool down = false;
    if (rc == CURLE_OPERATION_TIMEDOUT && deadline.remainingMs() <= 0)
      deadlinePassed(url, s, deadline, connected);
    if (rc != CURLE_OK) {
      lastWhy = why;
      retry = retriableCurl(rc);
      down = unreachableCurl(rc);
    } else if (resp.status >= 200 && resp.status < 300) {
      resp.body = std::move(tr.body);
      resp.headers = std::move(tr.head.headers);
      return resp;
    } else if (resp.status == 404) {
      throw Error(ErrorCode::NotFound, "GET " + url + ": HTTP 404 (not found)");
    } else {
      lastWhy = why.empty() ? "HTTP " + std::to_string(resp.status) : why;
      retry = retriableStatus(resp.status);
      down = retry;
    }
    if (!retry || n == s.maxAttempts) {
      std::string text =
          "GET " + url + " failed: " + lastWhy + (n > 1 ? " (after " + std::to_string(n) + " attempts)" : "");
      if (down) throw EndpointDown(ErrorCode::Network, text, connected);
      throw Error(ErrorCode::Network, text);
    }
    if (delay >= deadline.remainingMs())
      deadlinePassed(url, s, deadline, connected);  // no time for another attempt
    std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    delay *= 2;
  }
  throw Error(ErrorCode::Internal, "unreachable retry loop end");
}

}  // namespace wgk::hub

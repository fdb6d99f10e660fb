// Options of every hub operation, and wgk's defaults for what a caller left unset. The hub reads
// no environment variable: the edges fill these through RuntimeOptions::fromEnvironment and
// runtime::hubOptionsFor (runtime/options.h holds the one precedence rule).
//   endpoint   <- https://huggingface.co/kernels
//   cacheDir   <- ~/.cache/wgk of the account's home folder (Cache::defaultRoot)
//   trustedEndpoint <- kDefaultEndpoint
//   token      <- none (sent only to the endpoint's origin; no control characters)
//   refsTtlSec <- 300: how long a branch's answered commit is trusted
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "hub/http_client.h"

namespace wgk::hub {

inline constexpr const char* kDefaultEndpoint = "https://huggingface.co/kernels";
inline constexpr long kDefaultRefsTtlSec = 300;

struct HubOptions {
  std::string endpoint;      // empty: kDefaultEndpoint
  std::string cacheDir;      // empty: Cache::defaultRoot()
  std::string embeddedRoot;  // <repo root>/packages: holds <org>/<name>/build/webgpu; empty: none
  std::string lockFile;      // resolve only as this lock file says; empty: none
  bool offline = false;
  bool trustRemoteCode = false;
  // The one endpoint whose webgpu-kernels packages are trusted without trustRemoteCode (docs/hub.md
  // "Trust"): a download from any other endpoint, and a cached copy one left, need trustRemoteCode.
  // Empty: kDefaultEndpoint.
  std::string trustedEndpoint;
  bool withTests = false;            // also fetch test.json and bench.json
  bool verifyFolders = true;         // package folders named by path: check metadata.json's digests
  std::string token;                 // empty: none
  HttpSettings http;                 // timeouts, retries, size cap (token fields are filled in)
  // Seconds a branch's commit, as the endpoint last named it, is used without asking again (also
  // how long an unreachable endpoint is not asked again). 0: ask on every resolve. Unset:
  // kDefaultRefsTtlSec.
  std::optional<long> refsTtlSec;
  // The endpoint's answer is required (`wgk download`): no fallback to a cached or embedded copy
  // when it cannot be reached or has no such branch, and the branch is asked on every call.
  bool requireEndpoint = false;
  // Where fallback announcements go (a cached or embedded copy used because the endpoint could not
  // answer); the resolver makes one per endpoint per process. Unset: wgk's log at warn level
  // (hidden by WGK_LOG=error or `wgk --quiet`).
  std::function<void(const std::string&)> notice;
};

// A copy with every unset field filled with its default; the endpoints lose any
// trailing '/', and http.token / http.tokenOrigin are set. Error(InvalidArgument) for a bad endpoint
// or a token holding a control character (CR/LF would inject a header).
HubOptions effectiveOptions(const HubOptions& options);

// Whether packages downloaded from `endpoint` count as the trusted organisation's (options must be
// effectiveOptions()): it is the trusted endpoint.
bool isTrustedEndpoint(const HubOptions& options, const std::string& endpoint);

}  // namespace wgk::hub

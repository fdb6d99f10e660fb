// Options of every hub operation, and how the environment fills what a caller left unset:
//   endpoint  <- WGK_ENDPOINT, else https://huggingface.co/kernels
//   cacheDir  <- WGK_CACHE, else $XDG_CACHE_HOME/wgk, else ~/.cache/wgk
//   offline   <- true if set, or WGK_OFFLINE is 1/true/yes
//   token     <- WGK_TOKEN (sent only to the endpoint's origin)
#pragma once

#include <optional>
#include <string>

#include "hub/http_client.h"

namespace wgk::hub {

inline constexpr const char* kDefaultEndpoint = "https://huggingface.co/kernels";

struct HubOptions {
  std::string endpoint;      // empty: environment / default
  std::string cacheDir;      // empty: environment / default
  std::string embeddedRoot;  // <repo root>/packages: holds <org>/<name>/build/webgpu; empty: none
  std::string lockFile;      // resolve only as this lock file says; empty: none
  bool offline = false;
  bool trustRemoteCode = false;
  bool withTests = false;            // also fetch test.json and bench.json
  bool verifyFolders = true;         // package folders named by path: check metadata.json's digests
  std::optional<std::string> token;  // unset: WGK_TOKEN
  HttpSettings http;                 // timeouts, retries, size cap (token fields are filled in)
};

// A copy with every unset field filled from the environment and defaults; the endpoint loses any
// trailing '/', and http.token / http.tokenOrigin are set. Error(InvalidArgument) for a bad endpoint.
HubOptions effectiveOptions(const HubOptions& options);

}  // namespace wgk::hub

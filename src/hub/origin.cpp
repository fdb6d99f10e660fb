#include "hub/origin.h"

#include <nlohmann/json.hpp>

#include "hub/fs_util.h"
#include "wgk/error.h"

namespace wgk::hub {

void writeOrigin(const fs::path& packageDir, const std::string& endpoint) {
  writeFileAtomic(packageDir / "origin.json", nlohmann::json{{"endpoint", endpoint}}.dump(2) + "\n");
}

std::optional<std::string> readOrigin(const fs::path& packageDir) {
  std::error_code ec;
  if (!fs::is_regular_file(packageDir / "origin.json", ec)) return std::nullopt;
  try {
    nlohmann::json j = nlohmann::json::parse(readFileBytes(packageDir / "origin.json"));
    if (j.is_object() && j.contains("endpoint") && j["endpoint"].is_string())
      return j["endpoint"].get<std::string>();
  } catch (const std::exception&) {
    // An unreadable record is no record: the copy is then not trusted (below).
  }
  return std::nullopt;
}

namespace {
std::string howToTrust(const std::string& endpoint) {
  return "its shaders are code you would run: pass --trust-remote-code (HubOptions::trustRemoteCode), "
         "or mark that endpoint trusted with --trusted-endpoint " +
         endpoint + " (WGK_TRUSTED_ENDPOINT)";
}
}  // namespace

void checkDownloadTrusted(const RepoId& repo, const HubOptions& o) {
  if (o.trustRemoteCode || isTrustedEndpoint(o, o.endpoint)) return;
  throw Error(ErrorCode::Trust, "package " + repo.str() + " would be downloaded from " + o.endpoint +
                                    ", which is not the trusted endpoint " + o.trustedEndpoint + "; " +
                                    howToTrust(o.endpoint));
}

void checkCachedTrusted(const RepoId& repo, const std::string& commit,
                        const std::optional<std::string>& endpoint, const HubOptions& o) {
  if (o.trustRemoteCode || (endpoint && isTrustedEndpoint(o, *endpoint))) return;
  if (!endpoint)
    throw Error(ErrorCode::Trust, "the cached copy of " + repo.str() + " at " + commit +
                                      " does not record which endpoint it came from (cached by an older "
                                      "wgk); remove it with `wgk cache clean " +
                                      repo.str() + "` and load it again, or pass --trust-remote-code");
  throw Error(ErrorCode::Trust, "the cached copy of " + repo.str() + " at " + commit + " came from " +
                                    *endpoint + ", not the trusted endpoint " + o.trustedEndpoint + "; " +
                                    howToTrust(*endpoint));
}

}  // namespace wgk::hub

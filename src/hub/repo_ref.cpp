#include "hub/repo_ref.h"

#include <algorithm>
#include <cctype>

#include "wgk/error.h"

namespace wgk::hub {

static bool validPart(const std::string& s) {
  if (s.empty() || s.size() > 96 || s.front() == '.' || s.front() == '-') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

RepoId parseRepoId(const std::string& text) {
  auto slash = text.find('/');
  if (slash == std::string::npos || text.find('/', slash + 1) != std::string::npos)
    throw Error(ErrorCode::InvalidArgument,
                "repo id \"" + text +
                    "\" must be \"<org>/<domain>.<Op>\", e.g. webgpu-kernels/com.microsoft.FastGelu");
  RepoId id{text.substr(0, slash), text.substr(slash + 1)};
  if (!validPart(id.org) || !validPart(id.name))
    throw Error(ErrorCode::InvalidArgument,
                "repo id \"" + text +
                    "\" has an invalid organisation or name (letters, digits, '.', "
                    "'_' and '-' only, not starting with '.' or '-')");
  return id;
}

void checkOrganisation(const std::string& org, const std::string& what) {
  if (!validPart(org))
    throw Error(ErrorCode::InvalidArgument,
                what + " '" + org.substr(0, 80) +
                    "' is not an organisation name (letters, digits, '.', '_' and '-' "
                    "only, at most 96, not starting with '.' or '-')");
}

bool isRevision(const std::string& text) {
  return text.size() == 40 && std::all_of(text.begin(), text.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

PackageRequest PackageRequest::make(std::optional<int> version, std::optional<std::string> revision) {
  if (version && revision)
    throw Error(ErrorCode::InvalidArgument, "give either a version or a revision, not both");
  PackageRequest r;
  if (revision) {
    if (!isRevision(*revision))
      throw Error(ErrorCode::InvalidArgument,
                  "revision \"" + *revision + "\" is not a commit: it must be exactly 40 hex digits");
    std::string lower = *revision;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) { return char(std::tolower(c)); });
    r.revision = lower;
    return r;
  }
  int v = version.value_or(1);
  if (v < 1)
    throw Error(ErrorCode::InvalidArgument,
                "version " + std::to_string(v) + " is invalid: versions start at 1");
  r.version = v;
  return r;
}

std::string PackageRequest::gitRev() const {
  return revision ? *revision : "v" + std::to_string(version.value_or(1));
}

void checkTrusted(const RepoId& repo, bool trustRemoteCode) {
  if (repo.org == kTrustedOrg || trustRemoteCode) return;
  throw Error(ErrorCode::Trust, "package " + repo.str() + " is outside the trusted organisation \"" +
                                    std::string(kTrustedOrg) +
                                    "\"; its shaders are code you would run: pass --trust-remote-code (or "
                                    "HubOptions::trustRemoteCode) to allow it");
}

}  // namespace wgk::hub

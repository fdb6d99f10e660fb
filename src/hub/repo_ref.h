// What a user asks for: a repo id "<org>/<domain>.<Op>" and either a contract version (branch
// v<N>) or a pinned 40-hex revision. Parsing is strict: anything else is Error(InvalidArgument).
#pragma once

#include <optional>
#include <string>

namespace wgk::hub {

// The organisation trusted by default (the Hub loader's own).
inline constexpr const char* kTrustedOrg = "webgpu-kernels";

struct RepoId {
  std::string org;   // "webgpu-kernels"
  std::string name;  // "com.microsoft.FastGelu" (the op id domain.name)
  std::string str() const { return org + "/" + name; }
  bool operator==(const RepoId&) const = default;
};

// "<org>/<name>": both parts non-empty, [A-Za-z0-9._-] only, not "." or "..", no leading '.'.
RepoId parseRepoId(const std::string& text);

// Error(InvalidArgument) "<what> '<org>' is not an organisation name (...)" unless `org` is one
// part of a repo id as parseRepoId accepts it (so '../../evil', 'a/b', '' and '-x' are refused).
void checkOrganisation(const std::string& org, const std::string& what);

// True for exactly 40 hex digits (either case is accepted; stored lower-case).
bool isRevision(const std::string& text);

struct PackageRequest {
  std::optional<int> version;           // branch v<N>; N >= 1
  std::optional<std::string> revision;  // 40 hex, lower-case after normalisation

  // Neither given means version 1. Both given, a version < 1 or a malformed revision is
  // Error(InvalidArgument).
  static PackageRequest make(std::optional<int> version, std::optional<std::string> revision);
  // "v<N>" or the revision: the <rev> path segment of a resolve URL.
  std::string gitRev() const;
  bool pinned() const { return revision.has_value(); }
};

// Error(Trust) unless org is kTrustedOrg or trustRemoteCode is set.
void checkTrusted(const RepoId& repo, bool trustRemoteCode);

}  // namespace wgk::hub

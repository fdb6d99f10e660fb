// Resolving a repo id to a verified local package folder, offline-first (docs/hub.md):
//   1. a lock file entry, when options.lockFile is set (its revision; any drift is refused);
//   2. a pinned revision: the cache, the embedded copy when it is those bytes, else a download;
//   3. a branch (version N), online: the commit the endpoint named less than refsTtlSec ago, else
//      ask it (one GET of metadata.json, X-Repo-Commit), then that commit from the cache, the
//      embedded copy (when its content revision is that commit) or a download. When the endpoint
//      cannot answer (unreachable, 5xx, 404): the commit refs.json last named, else the embedded
//      copy, announced through options.notice once per endpoint per process; else the error (an
//      id neither embedded nor cached, with the endpoint unreachable: Error(NotFound) "unknown
//      package ..." naming the nearest known ids). An unreachable endpoint is not asked again by
//      this process for refsTtlSec, for any package;
//   4. a branch, offline: refs.json's commit in the cache, else the embedded copy (version 1).
// Every folder returned has been checked against its metadata.json digests on this call, and one
// of the trusted organisation that is not embedded must have come from options.trustedEndpoint
// unless trustRemoteCode (Error(Trust) otherwise, offline too).
#pragma once

#include <filesystem>
#include <string>

#include "hub/hub_config.h"
#include "hub/metadata.h"
#include "hub/repo_ref.h"

namespace wgk::hub {

// Where a resolved package's bytes were found (a package folder named by path is the runtime's
// "path", never resolved here).
enum class PackageOrigin { Cache, Embedded, Network };
const char* originName(PackageOrigin origin);  // "cache", "embedded", "network"

struct ResolvedPackage {
  RepoId repo;
  PackageRequest requested;
  std::string revision;  // 40 hex: the commit; for embedded packages their content revision
  PackageOrigin origin = PackageOrigin::Cache;  // where the bytes were found
  bool locked = false;                          // the lock file chose the revision (not where the bytes are)
  std::filesystem::path folder;  // holds build/webgpu/
  std::string endpoint;          // where a cached or downloaded copy came from; empty: embedded or unrecorded
  PackageMetadata metadata;
  std::string notice;  // non-empty: a fallback was used because the endpoint could not answer (why)
  // "embedded:<revision>" for embedded packages, else the revision (what `wgk info` shows).
  std::string displayRevision() const;
  // What PackageSource::origin and the CLI show: "lock" when the lock file chose the revision,
  // else originName(origin).
  std::string originLabel() const;
};

// Resolves `repo` ("<org>/<domain>.<Op>"). Errors: InvalidArgument (bad id/version/revision), Trust
// (untrusted org), NotFound (missing offline, 404, not in lock), Network, Integrity (digest, name
// or lock drift).
ResolvedPackage resolvePackage(const std::string& repo, const PackageRequest& request,
                               const HubOptions& options);

// Forgets what this process learnt about unreachable endpoints and which it announced (tests).
void forgetEndpointStates();

// Resolves every entry of a lock file (what `wgk download --lock` does).
std::vector<ResolvedPackage> resolveLocked(const HubOptions& options);

}  // namespace wgk::hub

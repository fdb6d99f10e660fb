// The local package cache (docs/hub.md):
//   <root>/<org>/<name>/<commit>/build/webgpu/...   content per resolved commit
//   <root>/<org>/<name>/refs.json                   {"v1": "<commit>", ...} branch -> commit
//   <root>/<org>/<name>/refs-checked.json           {"v1": {"at": <unix s>, "reachable": true}}
//   <root>/<org>/<name>/.lock                        flock(2) taken while installing / updating refs
//   <root>/.tmp/                                     staging folders of downloads in progress
// A download is staged under <root>/.tmp (same file system), verified, then renamed into place
// under the repo's lock, only if absent: an interrupted download leaves the cache as it was, and
// two processes filling it at once both succeed with one copy.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hub/endpoint_state.h"
#include "hub/metadata.h"
#include "hub/repo_ref.h"

namespace wgk::hub {

// Holds an exclusive flock(2) on a file for its lifetime (blocks until granted).
class FileLock {
 public:
  explicit FileLock(const fs::path& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

struct CacheEntry {
  RepoId repo;
  std::string commit;
  std::vector<std::string> refs;  // branches pointing at this commit
  fs::path folder;                // the package folder (holds build/webgpu)
  uint64_t bytes = 0;
};

// When the endpoint was last asked which commit a branch names, and whether it answered.
struct RefCheck {
  int64_t at = 0;         // unix seconds
  bool reachable = true;  // false: the endpoint could not be reached or had no such branch
  std::string detail;     // why not, for the fallback announcement
};

// Files a usable package must hold: manifest.json, every template its variants use, and with
// `withTests` test.json / bench.json when metadata records them. metadata.json is implied.
std::set<std::string> requiredFiles(const PackageMetadata& meta, bool withTests);

// Checks a package folder against its own metadata.json: every present file matches its digest,
// nothing unrecorded is present, every required file is there. Error(Integrity) naming the files.
PackageMetadata verifyPackageFolder(const fs::path& packageDir, bool withTests);
// The same check of a folder that holds metadata.json itself (build/webgpu/, or a bare package).
PackageMetadata verifyWebgpuFolder(const fs::path& dir, bool withTests);

class Cache {
 public:
  explicit Cache(fs::path root);
  // <home>/.cache/wgk, the home folder from the password database (the environment is the
  // edges': RuntimeOptions::fromEnvironment). Error(Setup) when the account has none.
  static fs::path defaultRoot();

  const fs::path& root() const { return root_; }
  fs::path repoDir(const RepoId& repo) const;
  fs::path packageDir(const RepoId& repo, const std::string& commit) const;
  bool has(const RepoId& repo, const std::string& commit) const;

  std::optional<std::string> readRef(const RepoId& repo, const std::string& branch) const;
  void writeRef(const RepoId& repo, const std::string& branch, const std::string& commit);

  std::optional<RefCheck> readRefCheck(const RepoId& repo, const std::string& branch) const;
  void writeRefCheck(const RepoId& repo, const std::string& branch, const RefCheck& check);

  // When an endpoint as a whole last failed (no connection, a timeout, a 5xx after the retries):
  // <root>/endpoints-down.json, so that a later process asks it again, for any package, only once
  // the refresh interval has passed (docs/hub.md "When the endpoint cannot be reached").
  std::optional<EndpointDownState> readEndpointDown(const std::string& endpoint) const;
  void writeEndpointDown(const std::string& endpoint, const EndpointDownState& state);

  // Where downloads are staged (<root>/.tmp). Error(Io) when it, or anything between it and the
  // root, is a symbolic link: staged files must land inside the cache.
  fs::path stagingParent() const;

  // Moves the verified package folder `staged` (holding build/webgpu) to packageDir(repo, commit)
  // if that is absent; otherwise moves in only the files the cached copy lacks. Under the repo's
  // lock. Returns packageDir(repo, commit).
  fs::path install(const RepoId& repo, const std::string& commit, const fs::path& staged);

  std::vector<CacheEntry> list() const;
  // Deletes never go through a symbolic link inside the cache (the root itself may be one): a
  // linked repo, organisation or staging folder is refused with Error(Io), a link inside a tree
  // being removed is removed as a link.
  // Removes one repo's entries (or everything when repo is empty), and staging leftovers.
  void clean(const std::optional<RepoId>& repo);
  // Removes staging folders left by interrupted downloads; returns how many.
  int cleanStaging();
  // Removes every cached commit that no branch in its repo's refs.json names and that is not in
  // `keep` ("<org>/<name>@<commit>", e.g. from lock files), plus staging leftovers. Returns the
  // removed entries.
  std::vector<CacheEntry> prune(const std::set<std::string>& keep);

 private:
  fs::path root_;
};

}  // namespace wgk::hub

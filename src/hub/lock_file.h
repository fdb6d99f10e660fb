// wgk.lock: what `wgk lock` records and `--lock` enforces (docs/hub.md):
//   {"lockVersion": 1, "packages": [{"repo": "webgpu-kernels/com.microsoft.FastGelu",
//     "version": 1 | null, "revision": "<40 hex>", "files": {"metadata.json": "<b64>", ...}}]}
// `files` holds metadata.json's own digest plus every digest metadata.json records, so any change
// of any byte is drift.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hub/metadata.h"
#include "hub/repo_ref.h"

namespace wgk::hub {

struct LockEntry {
  RepoId repo;
  std::optional<int> version;  // the branch it was locked from, if any
  std::string revision;        // 40 hex
  std::map<std::string, std::string> files;
};

struct LockFile {
  std::vector<LockEntry> packages;  // sorted by repo id; one entry per repo

  static LockFile load(const fs::path& path);
  static LockFile parse(const std::string& text);
  std::string serialize() const;  // deterministic, trailing newline
  const LockEntry* find(const RepoId& repo) const;
  void put(LockEntry entry);  // replaces any entry for the same repo
};

// The lock entry for a package folder: metadata.json's digest plus every recorded digest.
LockEntry lockEntryFor(const RepoId& repo, std::optional<int> version, const std::string& revision,
                       const fs::path& packageDir);

// Error(Integrity) naming every difference between a package folder and a lock entry (a changed,
// missing or unlocked file).
void checkAgainstLock(const LockEntry& entry, const fs::path& packageDir);

}  // namespace wgk::hub

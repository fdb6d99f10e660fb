// Small file-system helpers for the hub: whole-file reads, atomic writes, package-relative paths
// that cannot escape their folder, and temporary folders that clean up after themselves.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace wgk::hub {

namespace fs = std::filesystem;

// The bytes of a file; Error(NotFound) if absent, Error(Io) if unreadable.
std::string readFileBytes(const fs::path& path);

// Writes via a sibling temp file + rename, so readers never see a half-written file.
void writeFileAtomic(const fs::path& path, const std::string& bytes);

// Every regular file under `root`, as '/'-separated relative paths, sorted.
std::vector<std::string> listFilesRecursive(const fs::path& root);

// Throws Error(Integrity) unless `rel` is a plain relative path inside its package folder: no
// absolute paths, no "..", no empty or "." segments, no backslashes. `what` names the source.
void checkSafeRelativePath(const std::string& rel, const std::string& what);

// A fresh folder `parent/<prefix><random>` (created); removed on destruction unless released.
class TempDir {
 public:
  TempDir(const fs::path& parent, const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  void release() { released_ = true; }

 private:
  fs::path path_;
  bool released_ = false;
};

// Removes a tree, ignoring errors (used for clean-up on failure paths).
void removeQuietly(const fs::path& path);

// Error(Io) "refusing to <action> <path>: <component> is a symbolic link (to <target>)" when an
// existing component of `path` below `base` is a symbolic link, `path` itself included. `base`
// (a folder the user named: --out, the cache root) may be reached through links; what wgk
// deletes, creates or replaces inside it must not be redirected elsewhere by a link planted there.
// `path` must be `base` or lie lexically under it.
void refuseLinksBelow(const fs::path& base, const fs::path& path, const std::string& action);

// refuseLinksBelow, then removes the tree `path` (remove_all never follows a link inside the
// tree: it removes the link itself). Error(Io) when it cannot be removed; absent is fine.
void removeTreeBelow(const fs::path& base, const fs::path& path);

// True when `inner` is `outer` or lies inside it, comparing resolved paths (links followed, so a
// link into the folder counts as inside). Paths that do not exist yet resolve through their
// nearest existing parent.
bool isSameOrInside(const fs::path& inner, const fs::path& outer);

}  // namespace wgk::hub

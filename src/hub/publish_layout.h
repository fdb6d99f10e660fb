// `wgk publish-layout`: writes a package in the Hub's URL layout, for a static server or a test
// endpoint (docs/hub.md):
//   <out>/<org>/<name>/resolve/<commit>/{README.md, build/webgpu/...}
//   <out>/<org>/<name>/resolve/v<N>/...        the same files under the branch name
//   <out>/<org>/<name>/refs/v<N>               the commit, one line (a server can send it as
//                                               X-Repo-Commit, as the Hub does)
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "hub/repo_ref.h"

namespace wgk::hub {

struct PublishResult {
  std::string repo;    // "<org>/<name>"
  std::string commit;  // 40 hex
  std::string branch;  // "v<N>"
  std::filesystem::path commitDir;
  std::filesystem::path branchDir;
};

// Refuses (Error(Integrity)) a package whose files do not match its metadata.json, an output
// folder whose layout would lie inside the package or replace it (Error(InvalidArgument)), and a
// symbolic link below outDir on the way to anything it replaces (Error(Io)). The commit
// defaults to the content revision (contentRevision of metadata.json); org defaults to the
// package folder's parent folder name, name to its basename (a cache folder is named by its commit,
// so a caller publishing one passes the repo's name).
// Error(InvalidArgument) when the layout of `repo` under outDir would lie inside packageDir or
// replace it (publishLayout checks it; a caller that converts first checks the original package).
void refuseLayoutOverlap(const std::filesystem::path& packageDir, const std::filesystem::path& outDir,
                         const RepoId& repo);

PublishResult publishLayout(const std::filesystem::path& packageDir, const std::filesystem::path& outDir,
                            std::optional<std::string> revision, int version = 1,
                            std::optional<std::string> org = std::nullopt,
                            std::optional<std::string> name = std::nullopt);

}  // namespace wgk::hub

// The repo ids this machine has without a network (embedded packages and the cache), and the ones
// nearest a mistyped id, for "unknown package" errors.
#pragma once

#include <string>
#include <vector>

#include "hub/hub_config.h"
#include "hub/repo_ref.h"

namespace wgk::hub {

// Embedded (options.embeddedRoot/<org>/<name>/build/webgpu/metadata.json) and cached
// (options.cacheDir/<org>/<name>/) repo ids, sorted, without duplicates.
std::vector<std::string> knownRepoIds(const HubOptions& options);

// Whether `repo` is embedded or has anything in the cache.
bool knownLocally(const RepoId& repo, const HubOptions& options);

// Levenshtein distance (insertions, deletions, substitutions), case-insensitive.
size_t editDistance(const std::string& a, const std::string& b);

// Up to `count` ids of `known` nearest `id`, nearest first (ties by name), each within a third of
// the id's length (at least 3 edits) so an unrelated id is not offered.
std::vector<std::string> nearestIds(const std::string& id, const std::vector<std::string>& known,
                                    size_t count = 3);

// "unknown package <id> (not embedded or cached; <why>)" plus "; nearest known: a, b" when any.
std::string unknownPackageMessage(const RepoId& repo, const HubOptions& options, const std::string& why);

}  // namespace wgk::hub

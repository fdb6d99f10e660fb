// Where a cached package came from, and whether that makes it trusted (docs/hub.md "Trust").
// The trusted organisation (webgpu-kernels) is trusted only as published by the trusted endpoint
// (HubOptions::trustedEndpoint): a download records its endpoint in <commit>/origin.json, beside
// build/webgpu, and a cached copy from any other endpoint, or one without a record (an older wgk),
// loads only with trustRemoteCode, offline too.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "hub/hub_config.h"
#include "hub/repo_ref.h"

namespace wgk::hub {

// Writes <packageDir>/origin.json {"endpoint": ...} (a staging folder, before it is installed).
void writeOrigin(const std::filesystem::path& packageDir, const std::string& endpoint);
// The endpoint origin.json records; nullopt when absent or unreadable.
std::optional<std::string> readOrigin(const std::filesystem::path& packageDir);

// Error(Trust) unless a download of `repo` from options.endpoint may run: trustRemoteCode, or the
// endpoint is the trusted one. Called before any file of the package is fetched.
void checkDownloadTrusted(const RepoId& repo, const HubOptions& options);
// Error(Trust) unless the copy of `repo` at `commit`, downloaded from `endpoint` (nullopt: not
// recorded), may run.
void checkCachedTrusted(const RepoId& repo, const std::string& commit,
                        const std::optional<std::string>& endpoint, const HubOptions& options);

}  // namespace wgk::hub

// Fetches one package from a Hub endpoint into a staging folder, verifying every file against
// metadata.json before it is written (docs/hub.md, "Download"):
//   1. GET <endpoint>/<org>/<name>/resolve/<rev>/build/webgpu/metadata.json. The commit is the
//      response's X-Repo-Commit header (as the Hub sends); without one, a pinned revision is its
//      own commit and a branch resolves to the content revision (sha256 of metadata.json, 40 hex).
//   2. manifest.json, then only the templates metadata.json's variants name (test.json and
//      bench.json with withTests), from resolve/<commit>/ when the server reported the commit, so a
//      branch that moves mid-download cannot mix two commits.
// Nothing unverified is ever written; on any failure the staging folder is removed.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "hub/http_client.h"
#include "hub/hub_config.h"
#include "hub/metadata.h"
#include "hub/repo_ref.h"

namespace wgk::hub {

struct StagedPackage {
  std::string commit;                // 40 hex, lower-case
  std::filesystem::path packageDir;  // staging folder holding build/webgpu (caller installs or removes)
};

// What the endpoint says a request names: step 1 above on its own (one GET of metadata.json; the
// Hub sends X-Repo-Commit on it). Its response can be handed to downloadPackage, so asking and then
// downloading costs no extra request. Errors as httpGet (NotFound for 404, Network otherwise).
struct CommitAnswer {
  std::string commit;  // 40 hex, lower-case
  bool fromHeader = false;
  HttpResponse metadata;
};
CommitAnswer askCommit(const RepoId& repo, const PackageRequest& request, const HubOptions& options);

// The pure steps of a download, exposed so that fuzz_hub_response can feed them a server's bytes
// without sockets. The commit a metadata.json response names (step 1):
void commitFromResponse(CommitAnswer& answer, const PackageRequest& request);
// metadata.json as the server sent it for `repo`: parsed, naming the repo's package, recording a
// digest for manifest.json, every file name a safe relative path. Errors: Manifest, Integrity.
PackageMetadata metadataFromResponse(const RepoId& repo, const HttpResponse& metadata);
// manifest.json's bytes against that metadata: its op is the package, and every template a
// variant uses is one metadata.json lists for it (Integrity otherwise).
void checkManifestAgainstMetadata(const RepoId& repo, const PackageMetadata& meta,
                                  const std::string& manifestBytes);
// The same for a manifest already read with meta.manifestSpec (Package::open reads it so): the
// bytes are not parsed a second time.
void checkManifestAgainstMetadata(const RepoId& repo, const PackageMetadata& meta,
                                  const package::Manifest& manifest);

// `options` with the per-download deadline (HttpSettings::downloadDeadlineSec from now) unless it
// already has one: asking for the commit and downloading it then share one deadline.
HubOptions withDownloadDeadline(const HubOptions& options);

// `have`: files (relative to build/webgpu) that need not be fetched because a verified copy of
// this commit already holds them. Options must be effectiveOptions().
StagedPackage downloadPackage(const RepoId& repo, const PackageRequest& request, const HubOptions& options,
                              const std::filesystem::path& stagingDir, const std::set<std::string>& have = {},
                              const CommitAnswer* asked = nullptr);

}  // namespace wgk::hub

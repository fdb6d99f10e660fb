#include "hub/downloader.h"

#include <algorithm>
#include <chrono>

#include "core/foreign_errors.h"
#include "hub/cache.h"
#include "hub/digest.h"
#include "hub/fs_util.h"
#include "hub/http_client.h"
#include "hub/metadata.h"
#include "wgk/error.h"

namespace wgk::hub {

static std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](char c) { return char(std::tolower(c)); });
  return s;
}

static StagedPackage downloadPackageBefore(const RepoId& repo, const PackageRequest& request,
                                           const HubOptions& options, const fs::path& stagingDir,
                                           const std::set<std::string>& have, const CommitAnswer* asked);

static void writeVerified(const fs::path& dir, const std::string& rel, const std::string& bytes) {
  fs::path p = dir / rel;
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  writeFileAtomic(p, bytes);
}

static std::string resolveBase(const RepoId& repo, const HubOptions& options) {
  return options.endpoint + "/" + repo.org + "/" + repo.name + "/resolve/";
}

HubOptions withDownloadDeadline(const HubOptions& options) {
  HubOptions timed = options;
  if (timed.http.downloadDeadline == std::chrono::steady_clock::time_point{})
    timed.http.downloadDeadline = std::chrono::steady_clock::now() +
                                  std::chrono::seconds(std::max(1L, options.http.downloadDeadlineSec));
  return timed;
}

CommitAnswer askCommit(const RepoId& repo, const PackageRequest& request, const HubOptions& untimed) {
  if (untimed.offline) throw Error(ErrorCode::Internal, "askCommit called in offline mode");
  const HubOptions options = withDownloadDeadline(untimed);
  CommitAnswer a;
  a.metadata = httpGet(resolveBase(repo, options) + request.gitRev() + "/build/webgpu/metadata.json",
                       options.http, "metadata.json");
  commitFromResponse(a, request);
  return a;
}

void commitFromResponse(CommitAnswer& a, const PackageRequest& request) {
  auto header = a.metadata.headers.find("x-repo-commit");
  if (header != a.metadata.headers.end() && isRevision(header->second)) {
    a.commit = lower(header->second);
    a.fromHeader = true;
    if (request.revision && a.commit != *request.revision)
      throw Error(ErrorCode::Integrity, "asked for revision " + *request.revision +
                                            " but the server answered with commit " + a.commit);
  } else if (request.revision) {
    a.commit = *request.revision;
  } else {
    a.commit = contentRevision(a.metadata.body);
  }
}

PackageMetadata metadataFromResponse(const RepoId& repo, const HttpResponse& metaResp) {
  PackageMetadata meta = withContext("in metadata.json from " + metaResp.finalUrl,
                                     [&] { return PackageMetadata::parse(metaResp.body); });
  if (meta.name != repo.name)
    throw Error(ErrorCode::Integrity, "metadata.json of " + repo.str() + " names the package \"" + meta.name +
                                          "\"; it must match the repo basename \"" + repo.name + "\"");
  if (!meta.files.count("manifest.json"))
    throw Error(ErrorCode::Integrity,
                "metadata.json of " + repo.str() + " records no digest for manifest.json");
  for (const auto& [rel, digest] : meta.files) checkSafeRelativePath(rel, "metadata.json");
  return meta;
}

void checkManifestAgainstMetadata(const RepoId& repo, const PackageMetadata& meta,
                                  const std::string& manifestBytes) {
  checkManifestAgainstMetadata(repo, meta,
                               package::readManifest(manifestBytes, "manifest.json", meta.manifestSpec));
}

void checkManifestAgainstMetadata(const RepoId& repo, const PackageMetadata& meta,
                                  const package::Manifest& manifest) {
  const ManifestFacts facts = manifestFacts(manifest);
  if (facts.opId() != meta.name)
    throw Error(ErrorCode::Integrity, "manifest.json of " + repo.str() + " declares op \"" + facts.opId() +
                                          "\" but metadata.json names \"" + meta.name + "\"");
  // The manifest must not name a template that metadata.json would not have us download.
  for (const auto& [vid, shaders] : facts.variantShaders) {
    auto it = meta.variants.find(vid);
    for (const auto& s : shaders)
      if (it == meta.variants.end() || std::find(it->second.begin(), it->second.end(), s) == it->second.end())
        throw Error(ErrorCode::Integrity,
                    "manifest.json variant \"" + vid + "\" uses " + s +
                        ", which metadata.json does not list for it (regenerate with `wgk digest --write`)");
  }
}

StagedPackage downloadPackage(const RepoId& repo, const PackageRequest& request, const HubOptions& options,
                              const fs::path& stagingDir, const std::set<std::string>& have,
                              const CommitAnswer* asked) {
  if (options.offline) throw Error(ErrorCode::Internal, "downloadPackage called in offline mode");
  // One deadline for every file of this package (httpGet also keeps its own per file). What the
  // server sends is checked against the budgets before it is built; should the host still run
  // out of memory, that is the server's answer's fault (exit 5), not an abort.
  return hostMemoryErrorsAs(
      ErrorCode::Network, "while reading what " + options.endpoint + " sent for " + repo.str(), [&] {
        return downloadPackageBefore(repo, request, withDownloadDeadline(options), stagingDir, have, asked);
      });
}

StagedPackage downloadPackageBefore(const RepoId& repo, const PackageRequest& request,
                                    const HubOptions& options, const fs::path& stagingDir,
                                    const std::set<std::string>& have, const CommitAnswer* asked) {
  std::string base = resolveBase(repo, options);
  auto url = [&](const std::string& rev, const std::string& file) {
    return base + rev + "/build/webgpu/" + file;
  };
  CommitAnswer answer = asked ? *asked : askCommit(repo, request, options);
  const HttpResponse& metaResp = answer.metadata;
  const std::string commit = answer.commit;
  // Files after metadata.json come from the commit, so a branch moving mid-download cannot mix two.
  const std::string fetchRev = answer.fromHeader ? commit : request.gitRev();

  PackageMetadata meta = metadataFromResponse(repo, metaResp);

  fs::path dir = webgpuDir(stagingDir);
  auto fetchVerified = [&](const std::string& rel) {
    checkSafeRelativePath(rel, "metadata.json");
    HttpResponse r = httpGet(url(fetchRev, rel), options.http, rel);
    std::string got = sha256Base64(r.body);
    if (got != meta.files.at(rel))
      throw Error(ErrorCode::Integrity, "file " + rel + " of " + repo.str() + " (" + url(fetchRev, rel) +
                                            ", " + std::to_string(r.body.size()) + " bytes) has sha256 " +
                                            got + " but metadata.json records " + meta.files.at(rel) +
                                            "; nothing from this download was kept");
    writeVerified(dir, rel, r.body);
    return r.body;
  };

  if (!have.count("manifest.json")) checkManifestAgainstMetadata(repo, meta, fetchVerified("manifest.json"));
  for (const auto& rel : requiredFiles(meta, options.withTests))
    if (rel != "manifest.json" && !have.count(rel)) fetchVerified(rel);
  // metadata.json last: a staged folder holding it is complete.
  writeVerified(dir, "metadata.json", metaResp.body);
  return {commit, stagingDir};
}

}  // namespace wgk::hub

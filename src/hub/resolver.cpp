#include "hub/resolver.h"

#include <ctime>

#include "core/foreign_errors.h"
#include "core/log.h"
#include "hub/cache.h"
#include "hub/downloader.h"
#include "hub/endpoint_state.h"
#include "hub/fs_util.h"
#include "hub/known_packages.h"
#include "hub/lock_file.h"
#include "hub/origin.h"
#include "wgk/error.h"

namespace wgk::hub {

const char* originName(PackageOrigin origin) {
  switch (origin) {
    case PackageOrigin::Cache:
      return "cache";
    case PackageOrigin::Embedded:
      return "embedded";
    case PackageOrigin::Network:
      return "network";
  }
  return "?";
}

std::string ResolvedPackage::originLabel() const {
  return locked ? "lock" : originName(origin);
}

std::string ResolvedPackage::displayRevision() const {
  return origin == PackageOrigin::Embedded ? "embedded:" + revision : revision;
}

namespace {

struct Found {
  fs::path folder;
  std::string revision;
  PackageOrigin origin;
  PackageMetadata meta;
  std::optional<std::string> endpoint;  // where a cached or downloaded copy came from (origin.json)
};

// A cached copy of `commit`, verified; fetches the test files it lacks when asked and allowed.
std::optional<Found> fromCache(Cache& cache, const RepoId& repo, const std::string& commit,
                               const HubOptions& o) {
  if (!cache.has(repo, commit)) return std::nullopt;
  fs::path folder = cache.packageDir(repo, commit);
  PackageMetadata meta = verifyPackageFolder(folder, false);
  std::set<std::string> have;
  for (const auto& rel : listFilesRecursive(webgpuDir(folder))) have.insert(rel);
  bool lacking = false;
  for (const auto& rel : requiredFiles(meta, o.withTests)) lacking |= !have.count(rel);
  if (lacking) {
    if (o.offline)
      throw Error(ErrorCode::NotFound, "the cached copy of " + repo.str() + " at " + commit +
                                           " has no test.json/bench.json and offline mode is on");
    TempDir staging(cache.stagingParent(), "dl-");
    downloadPackage(repo, PackageRequest::make(std::nullopt, commit), o, staging.path(), have);
    cache.install(repo, commit, staging.path());
    meta = verifyPackageFolder(folder, o.withTests);
  }
  return Found{folder, commit, PackageOrigin::Cache, meta, readOrigin(folder)};
}

// The embedded package, when it can serve the request; verified.
std::optional<Found> fromEmbedded(const RepoId& repo, const PackageRequest& req, const HubOptions& o) {
  if (o.embeddedRoot.empty()) return std::nullopt;
  fs::path folder = fs::path(o.embeddedRoot) / repo.org / repo.name;
  std::error_code ec;
  if (!fs::is_regular_file(webgpuDir(folder) / "metadata.json", ec)) return std::nullopt;
  std::string rev = contentRevision(readFileBytes(webgpuDir(folder) / "metadata.json"));
  bool serves = req.revision ? *req.revision == rev : req.version.value_or(1) == 1;
  if (!serves) return std::nullopt;
  PackageMetadata meta = withContext("in embedded package " + folder.string(),
                                     [&] { return verifyPackageFolder(folder, o.withTests); });
  return Found{folder, rev, PackageOrigin::Embedded, meta, std::nullopt};
}

Found fromNetwork(Cache& cache, const RepoId& repo, const PackageRequest& req, const HubOptions& o,
                  const CommitAnswer* asked = nullptr) {
  checkDownloadTrusted(repo, o);  // before any file of code is fetched
  TempDir staging(cache.stagingParent(), "dl-");
  StagedPackage staged =
      withContext("while downloading " + repo.str() + " (" + req.gitRev() + ") from " + o.endpoint,
                  [&] { return downloadPackage(repo, req, o, staging.path(), {}, asked); });
  writeOrigin(staging.path(), o.endpoint);
  fs::path folder = cache.install(repo, staged.commit, staging.path());
  if (!req.pinned()) cache.writeRef(repo, req.gitRev(), staged.commit);
  PackageMetadata meta = verifyPackageFolder(folder, o.withTests);
  // Another process may have installed this commit first, from its own endpoint: its record counts.
  return Found{folder, staged.commit, PackageOrigin::Network, meta, readOrigin(folder)};
}

std::string missingOffline(const RepoId& repo, const PackageRequest& req, const HubOptions& o) {
  if (!knownLocally(repo, o))
    return unknownPackageMessage(repo, o, "offline mode (--offline / WGK_OFFLINE=1) forbids asking the Hub");
  return "package " + repo.str() + " (" + req.gitRev() + ") is not in the cache (" + o.cacheDir + ")" +
         (o.embeddedRoot.empty() ? std::string() : " nor embedded (" + o.embeddedRoot + ")") +
         ", and offline mode (--offline / WGK_OFFLINE=1) forbids downloading it";
}

ResolvedPackage finish(const RepoId& repo, const PackageRequest& req, Found f, std::string notice = {}) {
  ResolvedPackage r;
  r.repo = repo;
  r.requested = req;
  r.revision = f.revision;
  r.origin = f.origin;
  r.folder = f.folder;
  r.metadata = std::move(f.meta);
  r.endpoint = f.endpoint.value_or("");
  r.notice = std::move(notice);
  return r;
}

PackageRequest pinnedTo(const std::string& commit) {
  return PackageRequest::make(std::nullopt, commit);
}

const char* downWording(bool connected) {
  return connected ? "could not answer" : "could not be reached";
}

// One announcement per endpoint per process (docs/hub.md "When the endpoint cannot be reached"):
// the first fallback says why through options.notice; every load's own line (which copy it used) is
// in ResolvedPackage::notice and wgk's log at info level (--verbose).
// `down`: "could not be reached" / "could not answer" when the endpoint failed as a whole
// (EndpointDown), null when it only lacked this package (404 and other 4xx).
void announce(const HubOptions& o, const char* down, const std::string& why, const std::string& loadLine) {
  if (!firstAnnouncementFor(o.endpoint)) {
    log::info("hub", loadLine);
    return;
  }
  if (down)
    o.notice(
        o.endpoint + " " + down + " (" + why + "); packages load from the cache or their embedded copies" +
        (*o.refsTtlSec > 0 ? ", and it is not asked again for " + std::to_string(*o.refsTtlSec) + " s" : "") +
        " (--offline or WGK_OFFLINE=1 skips asking; --verbose names each copy)");
  else
    o.notice(loadLine + " (later fallbacks from this endpoint are logged at info level: --verbose)");
  if (down) log::info("hub", loadLine);
}

// What serves a branch whose endpoint could not answer (`why`; `down` as for announce): the commit
// refs.json last recorded for it, else the embedded copy; announced, never silent. nullopt when
// neither exists.
std::optional<ResolvedPackage> fallback(Cache& cache, const RepoId& repo, const PackageRequest& req,
                                        const HubOptions& o, const std::string& why, const char* down) {
  std::string head = o.endpoint + " could not say which commit " + req.gitRev() + " of " + repo.str() +
                     " names (" + why + "); ";
  std::optional<ResolvedPackage> r;
  if (auto ref = cache.readRef(repo, req.gitRev()))
    if (auto f = fromCache(cache, repo, *ref, o))
      r = finish(repo, req, std::move(*f), head + "using the cached commit " + *ref + " it named before");
  if (!r)
    if (auto f = fromEmbedded(repo, req, o))
      r = finish(repo, req, std::move(*f), head + "using the embedded copy (embedded:" + f->revision + ")");
  if (r) announce(o, down, why, r->notice);
  return r;
}

// Nothing local serves `repo` and the endpoint could not be reached at all (`connected` false): an
// id no source knows is an unknown package (exit 4, with the nearest known ids), not a network
// failure. `wgk download` (requireEndpoint) asked for the network, so it hears the network error.
[[noreturn]] void unreachableAndMissing(const RepoId& repo, const HubOptions& o, Error& e,
                                        const std::string& why, bool connected) {
  if (!connected && !o.requireEndpoint && !knownLocally(repo, o))
    throw Error(ErrorCode::NotFound, unknownPackageMessage(repo, o, "the Hub could not be reached: " + why));
  throw e;
}

// An endpoint that failed as a whole is remembered in this process and in the cache, so that no
// later load, of any package and in any process, waits on it inside the refresh interval.
void rememberEndpointDown(Cache& cache, const HubOptions& o, int64_t now, const std::string& why,
                          bool connected) {
  markEndpointDown(o.endpoint, now, why, connected);
  if (*o.refsTtlSec <= 0) return;
  try {
    cache.writeEndpointDown(o.endpoint, {now, why, connected});
  } catch (const Error& e) {
    // A read-only cache only costs later processes a question each.
    log::info("hub", "could not record that " + o.endpoint + " is down: " + e.message());
  }
}

// Another process found the endpoint down inside the refresh interval: this one does not ask it
// either, and announces it as that process did (once, as "could not be reached").
void recallEndpointDown(const Cache& cache, const HubOptions& o, int64_t now) {
  if (*o.refsTtlSec <= 0 || endpointDownRecently(o.endpoint, *o.refsTtlSec, now)) return;
  if (auto d = cache.readEndpointDown(o.endpoint))
    if (d->at <= now && now - d->at < *o.refsTtlSec)
      markEndpointDown(o.endpoint, d->at, d->why, d->connected);
}

// The first line of an error (its message without the context chain), for an announcement.
std::string firstLine(const Error& e) {
  return e.message().substr(0, e.message().find('\n'));
}

// A branch request, online (docs/hub.md "Resolution"): the commit the endpoint named less than
// refsTtlSec ago, else ask (one GET of metadata.json), then serve that commit from the cache, the
// embedded copy (when it is those bytes) or a download that reuses the answer's metadata.json.
ResolvedPackage resolveBranch(Cache& cache, const RepoId& repo, const PackageRequest& req,
                              const HubOptions& o) {
  const std::string branch = req.gitRev();
  const int64_t now = std::time(nullptr);
  std::optional<RefCheck> check = cache.readRefCheck(repo, branch);
  const bool fresh =
      !o.requireEndpoint && *o.refsTtlSec > 0 && check && check->at <= now && now - check->at < *o.refsTtlSec;
  if (fresh && check->reachable)
    if (auto ref = cache.readRef(repo, branch)) {
      if (auto f = fromCache(cache, repo, *ref, o)) return finish(repo, req, std::move(*f));
      if (auto f = fromEmbedded(repo, pinnedTo(*ref), o)) return finish(repo, req, std::move(*f));
    }
  // An endpoint that could not answer a moment ago is not asked again until the TTL passes: for any
  // package when it failed as a whole (in this process, or in another: endpoints-down.json), and
  // for this branch when it only lacked it (refs-checked.json).
  if (!o.requireEndpoint) recallEndpointDown(cache, o, now);
  if (!o.requireEndpoint)
    if (auto down = endpointDownRecently(o.endpoint, *o.refsTtlSec, now)) {
      const std::string why = down->why + ", " + std::to_string(now - down->at) + " s ago";
      if (auto r = fallback(cache, repo, req, o, why, downWording(down->connected))) return *r;
      Error e(ErrorCode::Network, o.endpoint + " could not answer (" + why + ") and nothing local serves " +
                                      branch + " of " + repo.str());
      unreachableAndMissing(repo, o, e, why, down->connected);
    }
  if (fresh && !check->reachable)
    if (auto r = fallback(cache, repo, req, o,
                          check->detail + ", asked " + std::to_string(now - check->at) + " s ago", nullptr))
      return *r;
  CommitAnswer answer;
  const HubOptions timed = withDownloadDeadline(o);  // the question and the download: one deadline
  try {
    answer = askCommit(repo, req, timed);
  } catch (Error& e) {
    if (e.code() != ErrorCode::NotFound && e.code() != ErrorCode::Network) throw;
    const auto* downError = dynamic_cast<const EndpointDown*>(&e);
    const bool down = downError != nullptr, connected = down && downError->connected();
    if (down) rememberEndpointDown(cache, o, now, firstLine(e), connected);
    e.with("while asking " + o.endpoint + " which commit " + branch + " of " + repo.str() + " names");
    if (!o.requireEndpoint) {
      cache.writeRefCheck(repo, branch, {now, false, firstLine(e)});
      if (auto r = fallback(cache, repo, req, o, firstLine(e), down ? downWording(connected) : nullptr))
        return *r;
    }
    if (down) unreachableAndMissing(repo, o, e, firstLine(e), connected);
    throw;
  }
  cache.writeRefCheck(repo, branch, {now, true, ""});
  if (auto f = fromCache(cache, repo, answer.commit, o)) {
    cache.writeRef(repo, branch, answer.commit);
    return finish(repo, req, std::move(*f));
  }
  if (auto f = fromEmbedded(repo, pinnedTo(answer.commit), o)) {
    cache.writeRef(repo, branch, answer.commit);
    return finish(repo, req, std::move(*f));
  }
  return finish(repo, req, fromNetwork(cache, repo, req, timed, &answer));
}

// A pinned revision nothing local holds: a download, unless this process already found the
// endpoint unreachable (then at once, without waiting on it again).
Found pinnedFromNetwork(Cache& cache, const RepoId& repo, const PackageRequest& req, const HubOptions& o) {
  const int64_t now = std::time(nullptr);
  if (!o.requireEndpoint) recallEndpointDown(cache, o, now);
  if (!o.requireEndpoint)
    if (auto down = endpointDownRecently(o.endpoint, *o.refsTtlSec, now)) {
      const std::string why = down->why + ", " + std::to_string(now - down->at) + " s ago";
      Error e(ErrorCode::Network, o.endpoint + " could not answer (" + why + ") and revision " +
                                      *req.revision + " of " + repo.str() + " is not cached");
      unreachableAndMissing(repo, o, e, why, down->connected);
    }
  try {
    return fromNetwork(cache, repo, req, o);
  } catch (Error& e) {
    const auto* down = dynamic_cast<const EndpointDown*>(&e);
    if (!down) throw;
    rememberEndpointDown(cache, o, now, firstLine(e), down->connected());
    unreachableAndMissing(repo, o, e, firstLine(e), down->connected());
  }
}

// The trusted organisation's code runs as the trusted endpoint published it (docs/hub.md "Trust"):
// a copy another endpoint left in the cache needs trustRemoteCode, offline too.
ResolvedPackage checkedOrigin(ResolvedPackage r, const HubOptions& o) {
  if (r.origin != PackageOrigin::Embedded)
    checkCachedTrusted(r.repo, r.revision, r.endpoint.empty() ? std::nullopt : std::optional(r.endpoint), o);
  return r;
}

ResolvedPackage resolveWithLock(const RepoId& repo, const PackageRequest& req, const LockEntry& entry,
                                const HubOptions& o) {
  if (req.revision && *req.revision != entry.revision)
    throw Error(ErrorCode::Integrity, "revision " + *req.revision + " was requested but the lock file pins " +
                                          repo.str() + " at " + entry.revision);
  if (req.version && entry.version && *req.version != *entry.version)
    throw Error(ErrorCode::Integrity, "version " + std::to_string(*req.version) +
                                          " was requested but the lock file pins " + repo.str() +
                                          " at version " + std::to_string(*entry.version));
  PackageRequest pinned = PackageRequest::make(std::nullopt, entry.revision);
  Cache cache(o.cacheDir);
  std::optional<Found> f = fromCache(cache, repo, entry.revision, o);
  if (!f) f = fromEmbedded(repo, pinned, o);
  if (!f) {
    if (o.offline) throw Error(ErrorCode::NotFound, missingOffline(repo, pinned, o));
    f = pinnedFromNetwork(cache, repo, pinned, o);
  }
  checkAgainstLock(entry, f->folder);
  ResolvedPackage r = finish(repo, req, std::move(*f));
  r.locked = true;
  return r;
}

ResolvedPackage resolveUnchecked(const RepoId& repo, const PackageRequest& req, const HubOptions& o) {
  if (!o.lockFile.empty()) {
    LockFile lock = LockFile::load(o.lockFile);
    const LockEntry* entry = lock.find(repo);
    if (!entry)
      throw Error(ErrorCode::NotFound,
                  repo.str() + " is not in the lock file " + o.lockFile + "; add it with `wgk lock`");
    return resolveWithLock(repo, req, *entry, o);
  }
  Cache cache(o.cacheDir);
  if (req.pinned()) {
    // A pin names exact bytes: once they are here, the network has nothing to add.
    if (auto f = fromCache(cache, repo, *req.revision, o)) return finish(repo, req, std::move(*f));
    if (auto f = fromEmbedded(repo, req, o)) return finish(repo, req, std::move(*f));
    if (o.offline) throw Error(ErrorCode::NotFound, missingOffline(repo, req, o));
    return finish(repo, req, pinnedFromNetwork(cache, repo, req, o));
  }
  if (!o.offline) return resolveBranch(cache, repo, req, o);
  // Offline: the commit the branch last named, else the embedded copy.
  if (auto ref = cache.readRef(repo, req.gitRev()))
    if (auto f = fromCache(cache, repo, *ref, o)) return finish(repo, req, std::move(*f));
  if (auto f = fromEmbedded(repo, req, o)) return finish(repo, req, std::move(*f));
  throw Error(ErrorCode::NotFound, missingOffline(repo, req, o));
}
}  // namespace

ResolvedPackage resolvePackage(const std::string& repoText, const PackageRequest& req,
                               const HubOptions& options) {
  RepoId repo = parseRepoId(repoText);
  return withContext("in package " + repo.str() + " (" + req.gitRev() + ")", [&] {
    return asWgkErrors([&] {
      checkTrusted(repo, options.trustRemoteCode);
      HubOptions o = effectiveOptions(options);
      return checkedOrigin(resolveUnchecked(repo, req, o), o);
    });
  });
}

std::vector<ResolvedPackage> resolveLocked(const HubOptions& options) {
  HubOptions o = effectiveOptions(options);
  if (o.lockFile.empty()) throw Error(ErrorCode::InvalidArgument, "no lock file given");
  LockFile lock = LockFile::load(o.lockFile);
  std::vector<ResolvedPackage> out;
  for (const auto& e : lock.packages) {
    PackageRequest req = e.version ? PackageRequest::make(e.version, std::nullopt)
                                   : PackageRequest::make(std::nullopt, e.revision);
    out.push_back(resolvePackage(e.repo.str(), req, options));
  }
  return out;
}

}  // namespace wgk::hub

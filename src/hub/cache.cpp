#include "hub/cache.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/json_read.h"
#include "hub/fs_util.h"
#include "wgk/error.h"

namespace wgk::hub {

using nlohmann::json;

FileLock::FileLock(const fs::path& path) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  // The folder's own error (e.g. a read-only cache) says more than the open's "No such file".
  if (ec)
    throw Error(ErrorCode::Io,
                "cannot create the cache folder " + path.parent_path().string() + ": " + ec.message());
  // O_NOFOLLOW: a lock file planted as a link must not make wgk create or open a file elsewhere.
  fd_ = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0)
    throw Error(ErrorCode::Io, "cannot open lock file " + path.string() + ": " + std::strerror(errno));
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    ::close(fd_);
    throw Error(ErrorCode::Io, "cannot lock " + path.string() + ": " + std::strerror(err));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

std::set<std::string> requiredFiles(const PackageMetadata& meta, bool withTests) {
  std::set<std::string> req = meta.allTemplates();
  req.insert("manifest.json");
  if (withTests)
    for (const char* f : {"test.json", "bench.json"})
      if (meta.files.count(f)) req.insert(f);
  return req;
}

PackageMetadata verifyPackageFolder(const fs::path& packageDir, bool withTests) {
  return withContext("in package folder " + packageDir.string(),
                     [&] { return verifyWebgpuFolder(webgpuDir(packageDir), withTests); });
}

PackageMetadata verifyWebgpuFolder(const fs::path& dir, bool withTests) {
  const fs::path packageDir = dir;
  PackageMetadata meta = PackageMetadata::parse(readFileBytes(dir / "metadata.json"));
  std::set<std::string> optional;
  auto req = requiredFiles(meta, withTests);
  for (const auto& [path, d] : meta.files)
    if (!req.count(path)) optional.insert(path);
  DigestReport r = compareDigests(dir, meta.files, optional);
  if (!r.ok())
    throw Error(ErrorCode::Integrity, "package folder " + packageDir.string() +
                                          " does not match its metadata.json:\n" + r.describe());
  return meta;
}

Cache::Cache(fs::path root) : root_(std::move(root)) {}

fs::path Cache::defaultRoot() {
  // The account's home folder from the password database, not $HOME: the library reads no
  // environment (RuntimeOptions::fromEnvironment applies WGK_CACHE, XDG_CACHE_HOME and HOME).
  std::vector<char> buf(16384);
  struct passwd pw {};
  struct passwd* found = nullptr;
  if (::getpwuid_r(::getuid(), &pw, buf.data(), buf.size(), &found) != 0 || !found || !found->pw_dir ||
      !*found->pw_dir)
    throw Error(ErrorCode::Setup,
                "no cache folder: the account has no home folder; set RuntimeOptions::cacheDir "
                "(--cache-dir, WGK_CACHE)");
  return fs::path(found->pw_dir) / ".cache" / "wgk";
}

fs::path Cache::repoDir(const RepoId& repo) const {
  return root_ / repo.org / repo.name;
}

fs::path Cache::packageDir(const RepoId& repo, const std::string& commit) const {
  return repoDir(repo) / commit;
}

bool Cache::has(const RepoId& repo, const std::string& commit) const {
  std::error_code ec;
  return fs::is_regular_file(webgpuDir(packageDir(repo, commit)) / "metadata.json", ec);
}

// refs-checked.json: a damaged file is read as no answer (it is rewritten on the next one).
static json readStateFile(const fs::path& file) {
  try {
    return parseJsonOrDiscarded(readFileBytes(file), file.string());
  } catch (const Error&) {
    return json();
  }
}

static json readRefs(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return json::object();
  try {
    json j = parseJson(readFileBytes(file), file.string());
    if (j.is_object()) return j;
  } catch (const Error&) {
  }
  throw Error(ErrorCode::Io, "cache refs file " + file.string() + " is corrupt; run `wgk cache clean`");
}

std::optional<std::string> Cache::readRef(const RepoId& repo, const std::string& branch) const {
  json refs = readRefs(repoDir(repo) / "refs.json");
  if (!refs.contains(branch) || !refs[branch].is_string() || !isRevision(refs[branch].get<std::string>()))
    return std::nullopt;
  return refs[branch].get<std::string>();
}

void Cache::writeRef(const RepoId& repo, const std::string& branch, const std::string& commit) {
  FileLock lock(repoDir(repo) / ".lock");
  json refs = readRefs(repoDir(repo) / "refs.json");
  refs[branch] = commit;
  writeFileAtomic(repoDir(repo) / "refs.json", refs.dump(2) + "\n");
}

std::optional<RefCheck> Cache::readRefCheck(const RepoId& repo, const std::string& branch) const {
  fs::path file = repoDir(repo) / "refs-checked.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  // A damaged state file only costs a request: it is rewritten on the next answer.
  json j = readStateFile(file);
  if (!j.is_object() || !j.contains(branch) || !j[branch].is_object()) return std::nullopt;
  const json& e = j[branch];
  if (!e.contains("at") || !e["at"].is_number_integer()) return std::nullopt;
  return RefCheck{e["at"].get<int64_t>(), e.value("reachable", true), e.value("detail", std::string())};
}

void Cache::writeRefCheck(const RepoId& repo, const std::string& branch, const RefCheck& check) {
  FileLock lock(repoDir(repo) / ".lock");
  fs::path file = repoDir(repo) / "refs-checked.json";
  std::error_code ec;
  json j = fs::exists(file, ec) ? readStateFile(file) : json::object();
  if (!j.is_object()) j = json::object();
  json e = {{"at", check.at}, {"reachable", check.reachable}};
  if (!check.detail.empty()) e["detail"] = check.detail;
  j[branch] = e;
  writeFileAtomic(file, j.dump(2) + "\n");
}

std::optional<EndpointDownState> Cache::readEndpointDown(const std::string& endpoint) const {
  fs::path file = root_ / "endpoints-down.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  json j = readStateFile(file);
  if (!j.is_object() || !j.contains(endpoint) || !j[endpoint].is_object()) return std::nullopt;
  const json& e = j[endpoint];
  if (!e.contains("at") || !e["at"].is_number_integer()) return std::nullopt;
  const json why = e.value("why", json()), connected = e.value("connected", json());
  return EndpointDownState{e["at"].get<int64_t>(), why.is_string() ? why.get<std::string>() : std::string(),
                           connected.is_boolean() && connected.get<bool>()};
}

void Cache::writeEndpointDown(const std::string& endpoint, const EndpointDownState& state) {
  FileLock lock(root_ / ".endpoints.lock");
  fs::path file = root_ / "endpoints-down.json";
  std::error_code ec;
  json j = fs::exists(file, ec) ? readStateFile(file) : json::object();
  if (!j.is_object()) j = json::object();
  j[endpoint] = {{"at", state.at}, {"why", state.why}, {"connected", state.connected}};
  writeFileAtomic(file, j.dump(2) + "\n");
}

fs::path Cache::stagingParent() const {
  const fs::path dir = root_ / ".tmp";
  refuseLinksBelow(root_, dir, "stage downloads in");
  return dir;
}

fs::path Cache::install(const RepoId& repo, const std::string& commit, const fs::path& staged) {
  fs::path target = packageDir(repo, commit);
  refuseLinksBelow(root_, target, "install into");
  FileLock lock(repoDir(repo) / ".lock");
  std::error_code ec;
  if (!fs::exists(target, ec)) {
    fs::rename(staged, target, ec);
    if (ec)
      throw Error(ErrorCode::Io,
                  "cannot move a download into the cache at " + target.string() + ": " + ec.message());
    return target;
  }
  // Already cached (another process won the race, or an earlier download lacked test files):
  // add only what is missing; each staged file was verified already.
  for (const auto& rel : listFilesRecursive(staged)) {
    fs::path dst = target / rel;
    if (fs::exists(dst, ec)) continue;
    fs::create_directories(dst.parent_path(), ec);
    fs::rename(staged / rel, dst, ec);
    if (ec)
      throw Error(ErrorCode::Io,
                  "cannot move " + rel + " into the cache at " + target.string() + ": " + ec.message());
  }
  return target;
}

std::vector<CacheEntry> Cache::list() const {
  std::vector<CacheEntry> out;
  std::error_code ec;
  if (!fs::is_directory(root_, ec)) return out;
  for (const auto& orgDir : fs::directory_iterator(root_, ec)) {
    if (!orgDir.is_directory() || orgDir.path().filename().string().front() == '.') continue;
    for (const auto& repoDir : fs::directory_iterator(orgDir.path(), ec)) {
      if (!repoDir.is_directory()) continue;
      RepoId repo{orgDir.path().filename().string(), repoDir.path().filename().string()};
      json refs = readRefs(repoDir.path() / "refs.json");
      for (const auto& commitDir : fs::directory_iterator(repoDir.path(), ec)) {
        std::string commit = commitDir.path().filename().string();
        if (!commitDir.is_directory() || !isRevision(commit)) continue;
        CacheEntry e{repo, commit, {}, commitDir.path(), 0};
        for (const auto& [branch, c] : refs.items())
          if (c.is_string() && c.get<std::string>() == commit) e.refs.push_back(branch);
        for (const auto& f : fs::recursive_directory_iterator(commitDir.path(), ec))
          if (f.is_regular_file()) e.bytes += f.file_size();
        out.push_back(std::move(e));
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const CacheEntry& a, const CacheEntry& b) {
    return std::tie(a.repo.org, a.repo.name, a.commit) < std::tie(b.repo.org, b.repo.name, b.commit);
  });
  return out;
}

int Cache::cleanStaging() {
  int n = 0;
  std::error_code ec;
  const fs::path staging = stagingParent();  // refuses a linked .tmp: its target is not ours
  if (!fs::is_directory(staging, ec)) return 0;
  for (const auto& d : fs::directory_iterator(staging, ec)) {
    removeQuietly(d.path());  // remove_all removes a link entry itself, never its target
    ++n;
  }
  return n;
}

std::vector<CacheEntry> Cache::prune(const std::set<std::string>& keep) {
  std::vector<CacheEntry> removed;
  stagingParent();  // a linked staging folder is refused before anything is removed
  for (auto& e : list()) {
    if (!e.refs.empty() || keep.count(e.repo.str() + "@" + e.commit)) continue;
    refuseLinksBelow(root_, e.folder, "prune");
    FileLock lock(repoDir(e.repo) / ".lock");
    removeTreeBelow(root_, e.folder);
    removed.push_back(std::move(e));
  }
  cleanStaging();
  return removed;
}

void Cache::clean(const std::optional<RepoId>& repo) {
  std::error_code ec;
  // A linked repo or organisation folder is refused before the existence check follows it.
  if (repo) refuseLinksBelow(root_, repoDir(*repo), "clean");
  if (!fs::is_directory(repo ? repoDir(*repo) : root_, ec)) return;  // nothing cached: nothing to do
  if (repo) {
    // Hold the repo's lock while removing so no install interleaves; the lock file goes last.
    {
      FileLock lock(repoDir(*repo) / ".lock");
      for (const auto& d : fs::directory_iterator(repoDir(*repo), ec))
        if (d.path().filename() != ".lock") fs::remove_all(d.path(), ec);
    }
    fs::remove_all(repoDir(*repo), ec);
  } else {
    for (const auto& d : fs::directory_iterator(root_, ec)) fs::remove_all(d.path(), ec);
  }
  if (ec) throw Error(ErrorCode::Io, "cannot clean the cache at " + root_.string() + ": " + ec.message());
  cleanStaging();
}

}  // namespace wgk::hub

// wgk cache list | verify | clean [REPO] [--staging-only] | prune [--lock FILE]...
//   (all take --cache-dir and --json; with --json one JSON object goes to stdout)
// list: size per commit and per repo; prune: removes commits no branch (refs.json) and no lock
// file names (--lock, repeatable; default ./wgk.lock when present); clean on a missing cache is a
// no-op.
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/command.h"
#include "hub/cache.h"
#include "hub/hub_config.h"
#include "hub/lock_file.h"
#include "wgk/error.h"
#include "wgk/runtime.h"

namespace {

using nlohmann::json;

// --cache-dir, else the runtime's: WGK_CACHE, $XDG_CACHE_HOME/wgk, ~/.cache/wgk.
wgk::hub::Cache openCache(const std::string& dir) {
  wgk::RuntimeOptions o;
  o.cacheDir = dir;
  o = wgk::RuntimeOptions::fromEnvironment(o);
  return wgk::hub::Cache(o.cacheDir.empty() ? wgk::hub::Cache::defaultRoot()
                                            : std::filesystem::path(o.cacheDir));
}

json entryJson(const wgk::hub::CacheEntry& e) {
  return {{"repo", e.repo.str()},
          {"commit", e.commit},
          {"refs", e.refs},
          {"bytes", e.bytes},
          {"folder", e.folder.string()}};
}

std::string refsText(const std::vector<std::string>& refs) {
  std::string s;
  for (const auto& r : refs) s += (s.empty() ? "" : ",") + r;
  return s.empty() ? "-" : s;
}

struct State {
  std::string cacheDir, repo;
  std::vector<std::string> locks;
  bool stagingOnly = false, json = false;
};

void listCache(const State& s) {
  auto cache = openCache(s.cacheDir);
  auto entries = cache.list();
  std::map<std::string, std::pair<uint64_t, int>> perRepo;  // bytes, commits
  uint64_t total = 0;
  for (const auto& e : entries) {
    perRepo[e.repo.str()].first += e.bytes;
    perRepo[e.repo.str()].second += 1;
    total += e.bytes;
  }
  if (s.json) {
    json j = {{"cache", cache.root().string()}, {"bytes", total}};
    j["entries"] = json::array();
    for (const auto& e : entries) j["entries"].push_back(entryJson(e));
    j["repos"] = json::object();
    for (const auto& [repo, v] : perRepo) j["repos"][repo] = {{"bytes", v.first}, {"commits", v.second}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  for (const auto& e : entries)
    std::cout << e.repo.str() << "  " << e.commit << "  " << refsText(e.refs) << "  " << e.bytes
              << " bytes\n";
  for (const auto& [repo, v] : perRepo)
    std::cout << "repo " << repo << ": " << v.second << " commit(s), " << v.first << " bytes\n";
  std::cout << "total: " << entries.size() << " commit(s), " << total << " bytes in " << cache.root().string()
            << "\n";
}

void verifyCache(const State& s) {
  auto cache = openCache(s.cacheDir);
  int bad = 0, good = 0;
  json results = json::array();
  for (const auto& e : cache.list()) {
    json r = entryJson(e);
    try {
      wgk::hub::verifyPackageFolder(e.folder, false);
      ++good;
      r["ok"] = true;
      if (!s.json) std::cout << "ok    " << e.repo.str() << " " << e.commit << "\n";
    } catch (const wgk::Error& err) {
      ++bad;
      r["ok"] = false;
      r["error"] = err.what();
      if (!s.json) std::cout << "FAIL  " << e.repo.str() << " " << e.commit << ": " << err.what() << "\n";
    }
    results.push_back(r);
  }
  if (s.json)
    std::cout
        << json{{"cache", cache.root().string()}, {"ok", good}, {"failed", bad}, {"entries", results}}.dump(2)
        << "\n";
  else
    std::cout << good << " ok, " << bad << " failed\n";
  if (bad) wgk::cli::exitCode().value = 1;
}

void cleanCache(const State& s) {
  auto cache = openCache(s.cacheDir);
  std::error_code ec;
  const bool exists = std::filesystem::is_directory(cache.root(), ec);
  json j = {{"cache", cache.root().string()}, {"existed", exists}};
  if (s.stagingOnly) {
    int n = cache.cleanStaging();
    j["stagingRemoved"] = n;
    if (s.json)
      std::cout << j.dump(2) << "\n";
    else
      std::cout << "removed " << n << " interrupted download(s)\n";
    return;
  }
  std::optional<wgk::hub::RepoId> repo;
  if (!s.repo.empty()) repo = wgk::hub::parseRepoId(s.repo);
  uint64_t bytes = 0;
  int commits = 0;
  for (const auto& e : cache.list())
    if (!repo || e.repo == *repo) bytes += e.bytes, ++commits;
  cache.clean(repo);
  j["repo"] = repo ? json(repo->str()) : json(nullptr);
  j["commitsRemoved"] = commits;
  j["bytesRemoved"] = bytes;
  if (s.json)
    std::cout << j.dump(2) << "\n";
  else if (!exists)
    std::cout << "nothing to clean: no cache at " << cache.root().string() << "\n";
  else
    std::cout << "cleaned " << (repo ? repo->str() : "the whole cache") << " in " << cache.root().string()
              << " (" << commits << " commit(s), " << bytes << " bytes)\n";
}

void pruneCache(const State& s) {
  auto cache = openCache(s.cacheDir);
  std::vector<std::string> locks = s.locks;
  std::error_code ec;
  if (locks.empty() && std::filesystem::is_regular_file("wgk.lock", ec)) locks.push_back("wgk.lock");
  std::set<std::string> keep;
  for (const auto& file : locks)
    for (const auto& e : wgk::hub::LockFile::load(file).packages)
      keep.insert(e.repo.str() + "@" + e.revision);
  auto removed = cache.prune(keep);
  uint64_t bytes = 0;
  for (const auto& e : removed) bytes += e.bytes;
  if (s.json) {
    json j = {{"cache", cache.root().string()}, {"locks", locks}, {"bytesRemoved", bytes}};
    j["removed"] = json::array();
    for (const auto& e : removed) j["removed"].push_back(entryJson(e));
    std::cout << j.dump(2) << "\n";
    return;
  }
  for (const auto& e : removed)
    std::cout << "removed " << e.repo.str() << " " << e.commit << " (" << e.bytes << " bytes)\n";
  std::cout << "pruned " << removed.size() << " commit(s), " << bytes << " bytes; kept what refs.json"
            << (locks.empty() ? "" : " and the lock file(s)") << " name\n";
}

void addCacheCommand(CLI::App& app) {
  auto state = std::make_shared<State>();
  auto* cmd = app.add_subcommand("cache", "Inspect, verify, prune or clean the package cache");
  cmd->require_subcommand(1);
  auto* list =
      cmd->add_subcommand("list", "One line per cached commit (repo, commit, branches, size), then per repo");
  auto* verify = cmd->add_subcommand(
      "verify", "Check every cached file against its metadata.json (exit 1 on a mismatch)");
  auto* clean =
      cmd->add_subcommand("clean", "Remove cached packages (all, or one repo) and interrupted downloads");
  auto* prune =
      cmd->add_subcommand("prune", "Remove cached commits that no branch (refs.json) and no lock file names");
  for (auto* sub : {list, verify, clean, prune}) {
    sub->add_option("--cache-dir", state->cacheDir, "package cache (default: WGK_CACHE, then ~/.cache/wgk)");
    sub->add_flag("--json", state->json, "print one JSON object on stdout");
  }
  clean->add_option("repo", state->repo, "only this <org>/<domain>.<Op>");
  clean->add_flag("--staging-only", state->stagingOnly, "only remove folders left by interrupted downloads");
  prune->add_option("--lock", state->locks,
                    "keep what this lock file names (repeatable; default ./wgk.lock if present)");
  list->callback([state] { listCache(*state); });
  verify->callback([state] { verifyCache(*state); });
  clean->callback([state] { cleanCache(*state); });
  prune->callback([state] { pruneCache(*state); });
}

}  // namespace

WGK_REGISTER_COMMAND(addCacheCommand);

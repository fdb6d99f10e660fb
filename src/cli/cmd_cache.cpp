// wgk cache list | verify | clean [REPO] [--staging-only]   (all take --cache-dir)
#include <iostream>

#include "cli/command.h"
#include "hub/cache.h"
#include "hub/hub_config.h"
#include "wgk/error.h"

namespace {

wgk::hub::Cache openCache(const std::string& dir) {
  return wgk::hub::Cache(dir.empty() ? wgk::hub::Cache::defaultRoot() : std::filesystem::path(dir));
}

void addCacheCommand(CLI::App& app) {
  struct State {
    std::string cacheDir;
    std::string repo;
    bool stagingOnly = false;
  };
  auto state = std::make_shared<State>();
  auto* cmd = app.add_subcommand("cache", "Inspect, verify or clean the package cache");
  cmd->require_subcommand(1);
  auto* list = cmd->add_subcommand("list", "One line per cached commit: repo, commit, branches, size");
  auto* verify = cmd->add_subcommand(
      "verify", "Check every cached file against its metadata.json (exit 1 on a mismatch)");
  auto* clean =
      cmd->add_subcommand("clean", "Remove cached packages (all, or one repo) and interrupted downloads");
  for (auto* sub : {list, verify, clean})
    sub->add_option("--cache-dir", state->cacheDir, "package cache (default: WGK_CACHE, then ~/.cache/wgk)");
  clean->add_option("repo", state->repo, "only this <org>/<domain>.<Op>");
  clean->add_flag("--staging-only", state->stagingOnly, "only remove folders left by interrupted downloads");

  list->callback([state] {
    auto cache = openCache(state->cacheDir);
    for (const auto& e : cache.list()) {
      std::string refs;
      for (const auto& r : e.refs) refs += (refs.empty() ? "" : ",") + r;
      std::cout << e.repo.str() << "  " << e.commit << "  " << (refs.empty() ? "-" : refs) << "  " << e.bytes
                << " bytes\n";
    }
  });
  verify->callback([state] {
    auto cache = openCache(state->cacheDir);
    int bad = 0, good = 0;
    for (const auto& e : cache.list()) {
      try {
        wgk::hub::verifyPackageFolder(e.folder, false);
        ++good;
        std::cout << "ok    " << e.repo.str() << " " << e.commit << "\n";
      } catch (const wgk::Error& err) {
        ++bad;
        std::cout << "FAIL  " << e.repo.str() << " " << e.commit << ": " << err.what() << "\n";
      }
    }
    std::cout << good << " ok, " << bad << " failed\n";
    if (bad) wgk::cli::exitCode().value = 1;
  });
  clean->callback([state] {
    auto cache = openCache(state->cacheDir);
    if (state->stagingOnly) {
      std::cout << "removed " << cache.cleanStaging() << " interrupted download(s)\n";
      return;
    }
    std::optional<wgk::hub::RepoId> repo;
    if (!state->repo.empty()) repo = wgk::hub::parseRepoId(state->repo);
    cache.clean(repo);
    std::cout << "cleaned " << (repo ? repo->str() : "the whole cache") << " in " << cache.root().string()
              << "\n";
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addCacheCommand);

// wgk lock REPO... [--version N | --revision SHA] [hub options] > wgk.lock
// Resolves each repo (cache, embedded, network) and prints a lock file recording the repo, the
// version it followed, the resolved revision and every file digest.
#include <iostream>

#include "cli/command.h"
#include "cli/support_hub_options.h"
#include "hub/lock_file.h"
#include "hub/resolver.h"

namespace {

void addLockCommand(CLI::App& app) {
  struct State {
    std::vector<std::string> repos;
    wgk::cli::HubCliOptions hub;
  };
  auto state = std::make_shared<State>();
  auto* cmd =
      app.add_subcommand("lock", "Print a lock file (JSON) pinning packages to revisions and digests");
  cmd->add_option("repos", state->repos, "<org>/<domain>.<Op> ...")->required();
  wgk::cli::addHubOptions(cmd, state->hub, /*withLock=*/false);
  cmd->callback([state] {
    wgk::hub::HubOptions o = state->hub.toHubOptions();
    wgk::hub::PackageRequest req = state->hub.request();
    wgk::hub::LockFile lock;
    for (const auto& repo : state->repos) {
      auto p = wgk::hub::resolvePackage(repo, req, o);
      lock.put(wgk::hub::lockEntryFor(p.repo, req.version, p.revision, p.folder));
    }
    std::cout << lock.serialize();
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addLockCommand);

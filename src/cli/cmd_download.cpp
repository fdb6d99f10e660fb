// wgk download REPO [--version N | --revision SHA] [hub options] [--with-tests]
// wgk download --lock wgk.lock: fetches exactly what the lock file records.
// Unless offline, a branch is always asked of the endpoint (whatever --refs-ttl says) and its
// answer is required: no fallback to a cached or embedded copy when it cannot answer.
#include <iostream>

#include "cli/command.h"
#include "cli/support_hub_options.h"
#include "hub/resolver.h"
#include "wgk/error.h"

namespace {

void printResolved(const wgk::hub::ResolvedPackage& p) {
  std::cout << p.repo.str() << " " << p.requested.gitRev() << " -> " << p.displayRevision() << " ["
            << (p.locked ? "lock, " : "") << wgk::hub::originName(p.origin) << "] " << p.folder.string()
            << "\n";
}

void addDownloadCommand(CLI::App& app) {
  struct State {
    std::string repo;
    bool withTests = false;
    wgk::cli::HubCliOptions hub;
  };
  auto state = std::make_shared<State>();
  auto* cmd = app.add_subcommand("download", "Resolve, download, verify and cache a kernel package");
  cmd->add_option("repo", state->repo, "<org>/<domain>.<Op>, e.g. webgpu-kernels/com.microsoft.FastGelu");
  cmd->add_flag("--with-tests", state->withTests, "also fetch test.json and bench.json");
  wgk::cli::addHubOptions(cmd, state->hub);
  cmd->callback([state] {
    wgk::hub::HubOptions o = state->hub.toHubOptions();
    o.withTests = state->withTests;
    o.requireEndpoint = true;
    if (state->repo.empty()) {
      if (o.lockFile.empty())
        throw wgk::Error(wgk::ErrorCode::InvalidArgument,
                         "give a repo id, or --lock FILE to fetch a lock file's packages");
      for (const auto& p : wgk::hub::resolveLocked(o)) printResolved(p);
      return;
    }
    printResolved(wgk::hub::resolvePackage(state->repo, state->hub.request(), o));
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addDownloadCommand);

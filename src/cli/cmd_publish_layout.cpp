// wgk publish-layout PACKAGE --out DIR [--revision SHA] [--version N] [--org ORG]
// Writes DIR/<org>/<repo>/resolve/{<commit>,v<N>}/build/webgpu/... (+ refs/v<N>) for a test or
// static server; the commit defaults to the package's content revision.
#include <iostream>

#include "cli/command.h"
#include "hub/publish_layout.h"

namespace {

void addPublishLayoutCommand(CLI::App& app) {
  struct State {
    std::string package, out;
    std::optional<std::string> revision, org;
    int version = 1;
  };
  auto state = std::make_shared<State>();
  auto* cmd = app.add_subcommand("publish-layout",
                                 "Write a package in the Hub's URL layout (for a test or static server)");
  cmd->add_option("package", state->package, "package folder (holds build/webgpu/)")->required();
  cmd->add_option("--out", state->out, "output folder (the server's root)")->required();
  cmd->add_option("--revision", state->revision, "40-hex commit (default: the content revision)");
  cmd->add_option("--version", state->version, "publish under branch v<N> (default 1)");
  cmd->add_option("--org", state->org, "organisation (default: the package folder's parent folder)");
  cmd->callback([state] {
    auto r = wgk::hub::publishLayout(state->package, state->out, state->revision, state->version, state->org);
    std::cout << r.repo << " " << r.branch << " -> " << r.commit << "\n"
              << "  " << r.commitDir.string() << "\n  " << r.branchDir.string() << "\n";
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addPublishLayoutCommand);

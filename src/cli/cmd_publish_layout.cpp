// wgk publish-layout PACKAGE --out DIR [--revision SHA] [--version N] [--org ORG] [--spec 2.1]
//   [hub options]
// Writes DIR/<org>/<repo>/resolve/{<commit>,v<N>}/build/webgpu/... (+ refs/v<N>) for a test or
// static server; the commit defaults to the package's content revision. PACKAGE is a folder or a
// repo id (resolved at --version/--revision). With --spec 2.1 a seeds-dialect package is converted
// first (the layout the Hub's JavaScript loader reads: hub-spec-2.1/README.md).
#include <iostream>

#include "cli/command.h"
#include "cli/support_convert.h"
#include "cli/support_package.h"
#include "hub/fs_util.h"
#include "hub/metadata.h"
#include "hub/publish_layout.h"
#include "hub/repo_ref.h"
#include "package/package.h"
#include "wgk/error.h"

namespace {

void addPublishLayoutCommand(CLI::App& app) {
  struct State {
    std::string package, out, spec;
    std::optional<std::string> revision, org;
    std::optional<int> version;
    wgk::cli::HubCliOptions hub;
  };
  auto state = std::make_shared<State>();
  auto* cmd = app.add_subcommand("publish-layout",
                                 "Write a package in the Hub's URL layout (for a test or static server)");
  cmd->add_option("package", state->package, "repo id or package folder (holds build/webgpu/)")->required();
  cmd->add_option("--out", state->out, "output folder (the server's root)")->required();
  cmd->add_option("--revision", state->revision, "40-hex commit (default: the content revision)");
  cmd->add_option("--version", state->version, "publish under branch v<N> (default 1)");
  cmd->add_option("--org", state->org,
                  "organisation (default: the repo id's, or the package folder's parent)");
  cmd->add_option("--spec", state->spec, "manifest spec to publish: 2.1 converts a seeds-dialect package");
  wgk::cli::addHubOptions(cmd, state->hub, true, /*withRequest=*/false);
  cmd->callback([state] {
    // A repo id resolves at the pinned revision when one is given, else at the branch.
    auto request = state->revision ? wgk::hub::PackageRequest::make(std::nullopt, state->revision)
                                   : wgk::hub::PackageRequest::make(state->version, std::nullopt);
    wgk::cli::PackageArg pkg = wgk::cli::resolvePackageArg(state->package, state->hub, request, true);
    std::string org = state->org.value_or(pkg.org);
    if (state->org) wgk::hub::checkOrganisation(org, "--org");
    wgk::hub::refuseLayoutOverlap(pkg.folder, state->out, wgk::hub::parseRepoId(org + "/" + pkg.name));
    std::filesystem::path folder = pkg.folder;
    std::optional<wgk::hub::TempDir> converted;
    if (!state->spec.empty()) {
      const auto to = wgk::cli::parseDialect(state->spec);
      if (to != wgk::package::Dialect::Spec21)
        throw wgk::Error(wgk::ErrorCode::InvalidArgument, "--spec takes 2.1 (the Hub's manifest spec)");
      if (wgk::package::Package::open(folder.string())->manifest().dialect != to) {
        converted.emplace(std::filesystem::temp_directory_path(), "wgk-publish-");
        // --no-verify / WGK_NO_VERIFY convert a folder that does not match its metadata.json.
        folder = wgk::cli::convertPackageFolder(pkg.folder, to, converted->path(), org,
                                                state->hub.toHubOptions().verifyFolders)
                     .folder;
      }
    }
    auto r = wgk::hub::publishLayout(folder, state->out, state->revision, state->version.value_or(1), org,
                                     pkg.name);
    std::cout << r.repo << " " << r.branch << " -> " << r.commit << "\n"
              << "  " << r.commitDir.string() << "\n  " << r.branchDir.string() << "\n";
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addPublishLayoutCommand);

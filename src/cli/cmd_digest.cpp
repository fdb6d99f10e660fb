// wgk digest PACKAGE [--write] [--org ORG] [--json] [hub options]
// PACKAGE is a folder or a repo id (resolved as every command resolves one: cli/support_package.h).
// Without --write: checks metadata.json against the files and the manifest; exit 1 listing each
// mismatched, missing, extra or stale entry. With --write: regenerates metadata.json entirely (a
// folder or the embedded copy only: cached content is verified, not ours to rewrite).
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command.h"
#include "cli/support_package.h"
#include "hub/cache.h"
#include "hub/fs_util.h"
#include "hub/metadata.h"
#include "wgk/error.h"

namespace {

void addDigestCommand(CLI::App& app) {
  struct State {
    std::string package;
    std::optional<std::string> org;
    bool write = false, json = false;
    wgk::cli::HubCliOptions hub;
  };
  auto state = std::make_shared<State>();
  auto* cmd = app.add_subcommand("digest", "Check (or --write) a package's metadata.json and digests");
  cmd->add_option("package", state->package, "repo id or package folder (holds build/webgpu/)")->required();
  cmd->add_flag("--write", state->write, "regenerate metadata.json from the manifest and the files");
  cmd->add_option("--org", state->org,
                  "organisation for the id (default: the repo id's, or the package folder's parent folder)");
  cmd->add_flag("--json", state->json, "print one JSON object (metadata, ok, written, problems)");
  wgk::cli::addHubOptions(cmd, state->hub);
  cmd->callback([state] {
    wgk::cli::PackageArg pkg = wgk::cli::resolvePackageArg(state->package, state->hub);
    std::string org = state->org ? *state->org : pkg.org;
    auto file = wgk::hub::webgpuDir(pkg.folder) / "metadata.json";
    nlohmann::json j = {{"package", state->package}, {"metadata", file.string()}, {"written", false}};
    if (state->write) {
      if (!pkg.ownFolder())
        throw wgk::Error(wgk::ErrorCode::InvalidArgument,
                         "--write rewrites metadata.json; " + state->package + " comes from the " +
                             pkg.origin + " (" + pkg.folder.string() +
                             "), whose verified content is not to be changed");
      auto meta = wgk::hub::generateMetadata(pkg.folder, org, pkg.name);
      wgk::hub::writeFileAtomic(file, meta.serialize());
      j.update({{"written", true},
                {"ok", true},
                {"files", meta.files.size()},
                {"variants", meta.variants.size()}});
      if (state->json)
        std::cout << j.dump(2) << "\n";
      else
        std::cout << "wrote " << file.string() << " (" << meta.files.size() << " files, "
                  << meta.variants.size() << " variants)\n";
      return;
    }
    if (!pkg.ownFolder()) {
      // A cached copy holds only what was downloaded: check what it holds, and that it is complete.
      try {
        wgk::hub::verifyPackageFolder(pkg.folder, false);
      } catch (const wgk::Error& e) {
        if (e.code() != wgk::ErrorCode::Integrity) throw;
        wgk::cli::exitCode().value = 1;
        if (state->json) {
          j.update({{"ok", false}, {"problems", nlohmann::json::array({std::string(e.what())})}});
          std::cout << j.dump(2) << "\n";
        } else {
          std::cout << e.what() << "\n";
        }
        return;
      }
      if (state->json) {
        j.update({{"ok", true}, {"problems", nlohmann::json::array()}});
        std::cout << j.dump(2) << "\n";
        return;
      }
      std::cout << "ok: " << file.string() << " matches the files of the " << pkg.origin << " copy\n";
      return;
    }
    auto report = wgk::hub::checkPackageMetadata(pkg.folder, org, pkg.name);
    if (!report.ok()) wgk::cli::exitCode().value = 1;
    if (state->json) {
      j["ok"] = report.ok();
      j["problems"] = nlohmann::json::array();
      std::istringstream lines(report.ok() ? "" : report.describe());
      for (std::string line; std::getline(lines, line);)
        if (!line.empty()) j["problems"].push_back(line);
      std::cout << j.dump(2) << "\n";
      return;
    }
    if (report.ok()) {
      std::cout << "ok: " << file.string() << " matches the files and the manifest\n";
      return;
    }
    std::cout << report.describe() << "run `wgk digest " << state->package << " --write` to regenerate\n";
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addDigestCommand);

// wgk digest PACKAGE [--write] [--org ORG] [--json]
// Without --write: checks metadata.json against the files and the manifest; exit 1 listing each
// mismatched, missing, extra or stale entry. With --write: regenerates metadata.json entirely.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command.h"
#include "hub/fs_util.h"
#include "hub/metadata.h"

namespace {

void addDigestCommand(CLI::App& app) {
  struct State {
    std::string package;
    std::optional<std::string> org;
    bool write = false, json = false;
  };
  auto state = std::make_shared<State>();
  auto* cmd = app.add_subcommand("digest", "Check (or --write) a package's metadata.json and digests");
  cmd->add_option("package", state->package, "package folder (holds build/webgpu/)")->required();
  cmd->add_flag("--write", state->write, "regenerate metadata.json from the manifest and the files");
  cmd->add_option("--org", state->org,
                  "organisation for the id (default: the package folder's parent folder)");
  cmd->add_flag("--json", state->json, "print one JSON object (metadata, ok, written, problems)");
  cmd->callback([state] {
    std::string org = state->org ? *state->org : wgk::hub::orgOfPackageDir(state->package);
    auto file = wgk::hub::webgpuDir(state->package) / "metadata.json";
    nlohmann::json j = {{"package", state->package}, {"metadata", file.string()}, {"written", false}};
    if (state->write) {
      auto meta = wgk::hub::generateMetadata(state->package, org);
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
    auto report = wgk::hub::checkPackageMetadata(state->package, org);
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

// wgk list [--json]: the embedded packages (repo id, op, variants). No GPU needed.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_hub_options.h"
#include "package/package.h"
#include "wgk/error.h"

namespace fs = std::filesystem;

namespace {

void addListCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("list", "List the embedded kernel packages");
  cmd->add_flag("--json", *json, "print one JSON object: {\"packages\": [{repo, op, folder, variants}]}");
  cmd->callback([json] {
    const fs::path root = wgk::cli::defaultPackagesDir();
    nlohmann::json out = nlohmann::json::array();
    std::error_code ec;
    if (!fs::is_directory(root, ec))
      throw wgk::Error(wgk::ErrorCode::NotFound, "the embedded packages folder '" + root.string() +
                                                     "' does not exist: set WGK_PACKAGES to a folder holding "
                                                     "<org>/<name>/build/webgpu");
    std::vector<fs::path> folders;
    for (const auto& org : fs::directory_iterator(root, ec))
      if (org.is_directory())
        for (const auto& pkg : fs::directory_iterator(org.path(), ec))
          if (wgk::package::findWebgpuDir(pkg.path())) folders.push_back(pkg.path());
    std::sort(folders.begin(), folders.end());
    for (const auto& f : folders) {
      auto p = wgk::package::Package::open(f.string());
      nlohmann::json variants = nlohmann::json::array();
      for (const auto& v : p->manifest().variants) variants.push_back(v.id);
      out.push_back({{"repo", f.parent_path().filename().string() + "/" + f.filename().string()},
                     {"op", p->manifest().id()},
                     {"folder", f.string()},
                     {"variants", variants}});
    }
    if (*json) {
      std::cout << nlohmann::json{{"packages", out}}.dump(2) << "\n";
      return;
    }
    std::cout << "embedded packages in " << root.string() << ":\n";
    for (const auto& e : out)
      std::cout << "  " << e["repo"].get<std::string>() << "  (" << e["variants"].size() << " variants)\n";
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addListCommand);

// wgk convert PACKAGE --to 2.1|seeds --out DIR [--org ORG] [hub options]
// PACKAGE (a repo id or a folder) re-expressed in the other manifest dialect, with a fresh
// metadata.json, written to DIR/<op id>/ (or DIR itself when it is named <op id>). A construct the
// target dialect cannot say is Error(Unsupported) naming it (docs/hub.md "Converting"). Refused:
// an --out that overlaps the package, a link below --out, an --org that is not an organisation
// name, and a folder that does not match its metadata.json (unless --no-verify).
#include <iostream>

#include "cli/command.h"
#include "cli/support_convert.h"
#include "cli/support_package.h"
#include "package/package.h"
#include "wgk/error.h"

namespace {

void addConvertCommand(CLI::App& app) {
  struct State {
    std::string package, to, out;
    std::optional<std::string> org;
    wgk::cli::HubCliOptions hub;
  };
  auto s = std::make_shared<State>();
  auto* cmd =
      app.add_subcommand("convert", "Re-express a package in the other manifest dialect (2.1 or seeds)");
  cmd->add_option("package", s->package, "repo id or package folder")->required();
  cmd->add_option("--to", s->to, "target dialect: 2.1 or seeds")->required();
  cmd->add_option("--out", s->out, "output folder (the package goes to DIR/<op id>/)")->required();
  cmd->add_option("--org", s->org, "organisation for metadata.json's id (default: the package's)");
  wgk::cli::addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    const wgk::package::Dialect to = wgk::cli::parseDialect(s->to);
    wgk::cli::PackageArg pkg = wgk::cli::resolvePackageArg(s->package, s->hub);
    // --no-verify / WGK_NO_VERIFY convert a folder that does not match its metadata.json.
    const bool verify = s->hub.toHubOptions().verifyFolders;
    const auto r = wgk::cli::convertPackageFolder(pkg.folder, to, s->out, s->org.value_or(pkg.org), verify);
    std::cout << "wrote " + r.folder.string() + " (" + r.folder.filename().string() + ", manifest " +
                     std::string(wgk::package::dialectName(to)) + ", " + std::to_string(r.files) +
                     " files)\n";
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addConvertCommand);

// wgk card PACKAGE [--out FILE | --write] [--check] [hub options]
// Generates the kernel card (README.md) from the manifest, test.json, the build/webgpu file list and
// card.json (src/harness/card.h). Prints it, writes it to FILE, or (--write) to <package>/README.md.
// --check compares instead of writing: exit 1 when the file differs from what would be generated,
// so a test can keep the committed cards from drifting.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "harness/card.h"
#include "runtime/package_loader.h"
#include "wgk/error.h"

namespace {

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw wgk::Error(wgk::ErrorCode::Io, "cannot read " + file.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeText(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw wgk::Error(wgk::ErrorCode::Io, "cannot write " + file.string());
}

// 1-based number of the first line where a and b differ, and both lines, for the --check message.
std::string firstDifference(const std::string& have, const std::string& want) {
  std::istringstream a(have), b(want);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool moreA = static_cast<bool>(std::getline(a, la)), moreB = static_cast<bool>(std::getline(b, lb));
    if (!moreA && !moreB) return "they differ only in line endings";
    if (!moreA || !moreB || la != lb)
      return "first difference at line " + std::to_string(line) +
             ":\n  file:      " + (moreA ? la : "<end of file>") +
             "\n  generated: " + (moreB ? lb : "<end of file>");
  }
}

void addCardCommand(CLI::App& app) {
  struct State {
    std::string package, out;
    bool write = false, check = false, json = false;
    wgk::cli::HubCliOptions hub;
  };
  auto s = std::make_shared<State>();
  auto* cmd =
      app.add_subcommand("card", "Generate a package's kernel card (README.md) from its manifest and tests");
  cmd->add_option("package", s->package, "repo id or package folder")->required();
  auto* out = cmd->add_option("--out", s->out, "write the card to this file instead of stdout");
  auto* write = cmd->add_flag("--write", s->write, "write <package>/README.md (embedded or folder packages)");
  write->excludes(out);
  cmd->add_flag("--check", s->check,
                "compare with <package>/README.md (or --out FILE); exit 1 when it differs")
      ->excludes(write);
  cmd->add_flag("--json", s->json,
                "print one JSON object (package, card text, and the check's or write's result)");
  wgk::cli::addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    auto loaded =
        wgk::runtime::loadPackage(s->package, wgk::cli::loadOptionsFor(s->hub), s->hub.toHubOptions());
    const std::string card = wgk::harness::generateCard(*loaded.package);
    const std::filesystem::path readme = loaded.package->rootDir() / "README.md";
    // --json: one object instead of the line, e.g. {"status": "differs", "file": ..., "detail": ...}.
    auto say = [&](const std::string& status, const std::string& file, const std::string& line,
                   const std::string& detail = "") {
      if (!s->json) {
        std::cout << line << "\n";
        return;
      }
      nlohmann::json j = {{"package", loaded.source.opId}, {"status", status}, {"file", file}};
      if (!detail.empty()) j["detail"] = detail;
      if (status == "printed") j["card"] = card;
      std::cout << j.dump(2) << "\n";
    };
    if (s->check) {
      const std::filesystem::path target = s->out.empty() ? readme : std::filesystem::path(s->out);
      std::error_code ec;
      if (!std::filesystem::exists(target, ec)) {
        say("missing", target.string(),
            "MISSING " + target.string() + " (run: wgk card " + s->package + " --write)");
        wgk::cli::exitCode().value = 1;
        return;
      }
      const std::string have = readText(target);
      if (have == card) {
        say("ok", target.string(), "OK " + target.string() + " is up to date");
        return;
      }
      say("differs", target.string(),
          "DIFFERS " + target.string() + " is not what `wgk card` generates (run: wgk card " + s->package +
              " --write); " + firstDifference(have, card),
          firstDifference(have, card));
      wgk::cli::exitCode().value = 1;
      return;
    }
    if (s->write) {
      // Only a folder we own: a cached download is digest-checked content, not ours to edit.
      if (loaded.source.origin != "embedded" && loaded.source.origin != "path")
        throw wgk::Error(wgk::ErrorCode::InvalidArgument,
                         "--write changes the package folder; " + s->package + " comes from the " +
                             loaded.source.origin + " (use --out FILE, or pass a package folder)");
      writeText(readme, card);
      say("written", readme.string(), "wrote " + readme.string());
    } else if (!s->out.empty()) {
      writeText(s->out, card);
      say("written", s->out, "wrote " + s->out);
    } else if (s->json) {
      say("printed", "", "");
    } else {
      std::cout << card;
    }
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addCardCommand);

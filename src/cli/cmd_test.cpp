// wgk test PACKAGE [--variant ID | --all-variants] [--case NAME] [--json] [hub options]
// Runs test.json on the local device: one line per case and variant (max abs and max ulp error
// against the expected data or the CPU reference, pass/fail), then "N passed, N failed".
// Exit 1 when any case failed.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "cli/support_terminal.h"
#include "core/device_profile.h"
#include "harness/test_runner.h"
#include "wgk/error.h"

namespace {

void addTestCommand(CLI::App& app) {
  struct State {
    std::string package;
    wgk::harness::TestSelection sel;
    bool json = false;
    wgk::cli::HubCliOptions hub;
  };
  auto s = std::make_shared<State>();
  auto* cmd = app.add_subcommand("test", "Run a package's test.json on the local device");
  cmd->add_option("package", s->package, "repo id or package folder")->required();
  auto* variant =
      cmd->add_option("--variant", s->sel.variant, "run every case on this variant (where eligible)");
  cmd->add_flag("--all-variants", s->sel.allVariants, "run every case on every variant eligible for it")
      ->excludes(variant);
  cmd->add_option("--case", s->sel.caseName, "run only this case");
  cmd->add_flag("--json", s->json, "print one JSON object instead of lines");
  wgk::cli::addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    auto rt = wgk::cli::openRuntime(s->hub);
    wgk::Kernel kernel = rt->load(s->package, wgk::cli::loadOptionsFor(s->hub));
    const std::string op = kernel.source().opId;
    // Rows are collected and printed once, with column widths from their content; on a terminal
    // a progress line (erased before the table) shows what runs meanwhile.
    wgk::cli::Table table({"result", "case", "variant", "max abs", "max ulp", "gpu us", "detail"},
                          {false, false, false, true, true, true, false});
    wgk::cli::Progress progress("test");
    size_t done = 0;
    auto line = [&](const wgk::harness::TestOutcome& o) {
      if (s->json) return;
      std::string status = o.status == "pass"   ? "PASS"
                           : o.status == "skip" ? "SKIP"
                           : o.status == "fail" ? "FAIL"
                                                : "ERROR";
      table.add({status, o.caseName, o.variant.empty() ? "-" : o.variant,
                 wgk::cli::format("%.3g", o.maxAbsError), wgk::cli::format("%.3g", o.maxUlpError),
                 wgk::cli::format("%.1f", o.gpuUs), o.detail});
      if (wgk::cli::Progress::isTerminal()) progress.show(o.caseName + " " + o.variant, ++done, 0);
    };
    if (!s->json)
      std::printf("%s (%s) on %s\n", op.c_str(), kernel.source().origin.c_str(),
                  rt->device().adapterInfoStrings.count("description")
                      ? rt->device().adapterInfoStrings.at("description").c_str()
                      : "?");
    wgk::harness::TestSummary sum = wgk::harness::runTests(kernel, s->sel, line);
    progress.clear();
    if (!s->json) table.print(stdout);
    if (s->json) {
      nlohmann::json j = {{"package", op},
                          {"device", wgk::toJson(rt->device())},
                          {"passed", sum.passed},
                          {"failed", sum.failed},
                          {"skipped", sum.skipped}};
      j["results"] = nlohmann::json::array();
      for (const auto& o : sum.outcomes) j["results"].push_back(o.toJson());
      std::cout << j.dump(2) << "\n";
    } else {
      std::printf("%d passed, %d failed", sum.passed, sum.failed);
      if (sum.skipped) std::printf(", %d skipped", sum.skipped);
      std::printf("\n");
    }
    if (sum.failed) wgk::cli::exitCode().value = 1;
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addTestCommand);

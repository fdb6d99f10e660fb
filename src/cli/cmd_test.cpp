// wgk test PACKAGE [--variant ID | --all-variants] [--case NAME] [--json] [hub options]
// Runs test.json on the local device: one line per case and variant (max abs and max ulp error
// against the expected data or the CPU reference, pass/fail), then "N passed, N failed".
// Exit 1 when any case failed.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "cli/support_terminal.h"
#include "core/device_profile.h"
#include "harness/bench_runner.h"
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
    // Rows are printed as each case and variant finishes, in columns as wide as the longest case
    // name in test.json and the longest variant id; on a terminal a progress line (case i of n,
    // time left) shows what runs meanwhile and is erased before each row.
    size_t caseW = 4, variantW = 7;
    for (const auto& n : wgk::harness::testCaseNames(kernel)) caseW = std::max(caseW, n.size());
    for (const auto& v : wgk::harness::variantIds(kernel)) variantW = std::max(variantW, v.size());
    wgk::cli::Progress progress("test");
    auto row = [&](const char* status, const std::string& name, const std::string& variant,
                   const std::string& abs, const std::string& ulp, const std::string& us,
                   const std::string& detail) {
      progress.clear();
      const std::string text =
          wgk::cli::format("%-6s %-*s %-*s %9s %9s %10s", status, static_cast<int>(caseW), name.c_str(),
                           static_cast<int>(variantW), variant.c_str(), abs.c_str(), ulp.c_str(), us.c_str());
      std::printf("%s%s%s\n", text.c_str(), detail.empty() ? "" : " ", detail.c_str());
      std::fflush(stdout);
    };
    auto line = [&](const wgk::harness::TestOutcome& o) {
      if (s->json) return;
      const char* status = o.status == "pass"   ? "PASS"
                           : o.status == "skip" ? "SKIP"
                           : o.status == "fail" ? "FAIL"
                                                : "ERROR";
      row(status, o.caseName, o.variant.empty() ? "-" : o.variant, wgk::cli::format("%.3g", o.maxAbsError),
          wgk::cli::format("%.3g", o.maxUlpError), wgk::cli::format("%.1f", o.gpuUs), o.detail);
    };
    auto onCase = [&](size_t i, size_t n, const std::string& name) {
      if (!s->json) progress.show(name, i, n);
    };
    if (!s->json) {
      std::printf("%s (%s) on %s\n", op.c_str(), kernel.source().origin.c_str(),
                  rt->device().adapterInfoStrings.count("description")
                      ? rt->device().adapterInfoStrings.at("description").c_str()
                      : "?");
      row("result", "case", "variant", "max abs", "max ulp", "gpu us", "detail");
    }
    wgk::harness::TestSummary sum = wgk::harness::runTests(kernel, s->sel, line, onCase);
    progress.clear();
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

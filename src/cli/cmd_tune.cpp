// wgk tune PACKAGE... [--out FILE] [--case NAME] [--tag TAG] [--repeat N] [--warmup N] [--no-tunables]
//   [--rounds N] [--budget N] [hub options]
// Times every eligible variant of each bench.json case on the local device, at the manifest's
// tunables and in a bounded coordinate search over every numeric or bool tunable
// (src/harness/tune.h), without any tuning table applied, and writes the fastest (variant,
// tunables) per case into a per-device tuning table (src/runtime/tuning.h). An existing FILE of the
// same device is updated in place. Use it with RuntimeOptions::tuningFile, WGK_TUNING, or
// `wgk bench --tuning FILE`; `wgk plan` then reports selectedBy "tuning".
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "cli/support_terminal.h"
#include "core/device_profile.h"
#include "harness/tune.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::cli {
namespace {

void addTuneCommand(CLI::App& app) {
  struct State {
    std::vector<std::string> packages;
    harness::BenchSelection sel;
    std::string out = "wgk-tuning.json";
    HubCliOptions hub;
    bool noTunables = false, json = false;
    int rounds = 2, budget = 64;
  };
  auto s = std::make_shared<State>();
  auto* cmd = app.add_subcommand(
      "tune", "Time every eligible variant (and workgroup size) per bench case and write a tuning table");
  cmd->add_option("packages", s->packages, "repo ids or package folders")->required();
  cmd->add_option("--out,-o", s->out, "tuning table to write (updated when it exists)")
      ->capture_default_str();
  cmd->add_option("--case", s->sel.caseName, "tune only this case");
  cmd->add_option("--tag", s->sel.tag, "tune only cases with this tag");
  cmd->add_option("--repeat", s->sel.repeat, "timed runs per variant (default: bench.json's)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--warmup", s->sel.warmup, "untimed runs first (default: bench.json's)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--no-tunables", s->noTunables,
                "time variants only, at the manifest's tunables (no tunable search)");
  cmd->add_option("--rounds", s->rounds, "coordinate-search rounds over the tunables (default 2)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--budget", s->budget, "timed tunable settings per case at most (default 64)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", s->json,
                "print the outcomes as one JSON object on stdout (the lines go to stderr)");
  addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    std::FILE* text = s->json ? stderr : stdout;
    nlohmann::json outcomes = nlohmann::json::array();
    // No tuning file here: every variant is forced while timing, and the choice must not depend
    // on an older table.
    auto rt = openRuntime(s->hub, "none");
    runtime::TuningTable table;
    if (std::filesystem::exists(s->out)) table = runtime::TuningTable::load(s->out);
    harness::CopyRoofline roofline(*rt);
    int tuned = 0, untuned = 0;
    for (const auto& name : s->packages) {
      Kernel kernel = rt->load(name, loadOptionsFor(s->hub));
      std::fprintf(text, "== %s\n", kernel.source().opId.c_str());
      harness::TuneOptions options;
      options.searchTunables = !s->noTunables;
      options.rounds = s->rounds;
      options.maxTimings = s->budget;
      // Each case's line as soon as it is tuned; on a terminal a progress line (the variants'
      // timings, then each case's tunables search, with the time left) meanwhile.
      Progress progress("tune");
      harness::BenchHooks hooks;
      hooks.progress = [&](const std::string& label, size_t done, size_t total) {
        progress.show(label, done, total);
      };
      options.onOutcome = [&](const harness::TuneOutcome& o) {
        progress.clear();
        outcomes.push_back({{"package", kernel.source().opId},
                            {"case", o.caseName},
                            {"variant", o.variant},
                            {"tunables", o.tunables},
                            {"gbps", o.gbps},
                            {"detail", o.detail}});
        if (o.variant.empty()) {
          ++untuned;
          std::fprintf(text, "%-34s -  %s\n", o.caseName.c_str(), o.detail.c_str());
        } else {
          ++tuned;
          // "vec4_bias (WORKGROUP_SIZE=128)": the winner, with the tunables it won with.
          std::string winner = o.variant;
          if (!o.tunables.empty()) {
            const std::string key = harness::candidateKey("", o.tunables);  // " NAME=VALUE ..."
            winner += " (" + key.substr(1) + ")";
          }
          std::fprintf(text, "%-34s %-40s %9.4g GB/s  (%s)\n", o.caseName.c_str(), winner.c_str(), o.gbps,
                       o.detail.c_str());
        }
        std::fflush(text);
      };
      harness::tunePackage(*rt, kernel, s->sel, roofline, table, hooks, options);
      progress.clear();
    }
    table.save(s->out);
    std::fprintf(text, "%d cases tuned, %d not; wrote %s\n", tuned, untuned, s->out.c_str());
    if (s->json)
      std::cout << nlohmann::json{{"device", toJson(rt->device())},
                                  {"out", s->out},
                                  {"tuned", tuned},
                                  {"untuned", untuned},
                                  {"outcomes", outcomes}}
                       .dump(2)
                << "\n";
    if (untuned) exitCode().value = 1;
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addTuneCommand);

}  // namespace wgk::cli

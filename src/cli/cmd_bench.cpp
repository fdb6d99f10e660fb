// wgk bench PACKAGE... [--case NAME] [--tag TAG] [--variant ID | --all-variants] [--repeat N]
//   [--warmup N] [--warmup-ms MS] [--spin-up-ms MS] [--overhead-calls N] [--no-cold] [--tuning FILE] [--json
//   FILE [--append]] [hub options]
// Runs bench.json cases on the local device (src/harness/bench_runner.h): GPU time (median, min),
// GB/s of the minimum bytes moved, the ratio to a copy kernel on the same bytes in the same run,
// host overhead per call and the cold first call. A table on stdout, progress on stderr, and with
// --json the evidence file (docs/benchmarks.md). Exit 1 when any case failed on any variant.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "harness/bench_runner.h"
#include "harness/report_model.h"
#include "runtime/runtime_impl.h"
#include "wgk/error.h"

namespace wgk::cli {
namespace {

void progressBar(const std::string& label, size_t done, size_t total) {
  static const bool tty = isatty(fileno(stderr));
  if (tty) {
    constexpr int kWidth = 30;
    const int filled = total ? static_cast<int>(kWidth * done / total) : kWidth;
    std::fprintf(stderr, "\r[%-*s] %zu/%zu %-48.48s", kWidth,
                 std::string(static_cast<size_t>(filled), '#').c_str(), done, total, label.c_str());
    if (label.empty()) std::fprintf(stderr, "\n");
  } else if (!label.empty()) {
    std::fprintf(stderr, "bench: [%zu/%zu] %s\n", done + 1, total, label.c_str());
  }
  std::fflush(stderr);
}

void printRow(const harness::BenchMeasurement& m) {
  if (!m.error.empty()) {
    std::printf("%-34s %-26s %s\n", m.caseName.c_str(), m.variant.empty() ? "-" : m.variant.c_str(),
                m.error.c_str());
  } else {
    std::printf("%-34s %-26s %9.2f %10.2f %10.2f %9.4g %9.4g %6.1f%% %8.1f %8.1f\n", m.caseName.c_str(),
                m.variant.c_str(), static_cast<double>(m.bytes) / (1 << 20), m.gpuUsMedian, m.gpuUsMin,
                m.gbps, m.copyGbps, m.rooflineRatio * 100, m.wallUsMedian, m.coldMs);
  }
  std::fflush(stdout);
}

// --append: the earlier file must be evidence from the same device; packages, roofline rows and
// measurements are concatenated.
nlohmann::json appendTo(const std::string& path, nlohmann::json fresh) {
  nlohmann::json old = harness::loadEvidence(path).doc;
  if (old.value("device", nlohmann::json()) != fresh["device"])
    throw Error(ErrorCode::InvalidArgument, "--append: '" + path + "' was measured on another device");
  for (const char* key : {"packages", "roofline", "measurements"})
    for (auto& v : fresh[key]) old[key].push_back(std::move(v));
  old["date"] = fresh["date"];
  return old;
}

void writeJson(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path);
  if (!out) throw Error(ErrorCode::Io, "cannot write evidence file '" + path + "'");
  out << j.dump(1) << "\n";
  if (!out) throw Error(ErrorCode::Io, "writing evidence file '" + path + "' failed");
}

void addBenchCommand(CLI::App& app) {
  struct State {
    std::vector<std::string> packages;
    harness::BenchSelection sel;
    std::string json, tuning;
    bool append = false, noCold = false;
    HubCliOptions hub;
  };
  auto s = std::make_shared<State>();
  auto* cmd = app.add_subcommand("bench", "Benchmark packages' bench.json cases on the local device");
  cmd->add_option("packages", s->packages, "repo ids or package folders")->required();
  cmd->add_option("--case", s->sel.caseName, "run only this case");
  cmd->add_option("--tag", s->sel.tag, "run only cases with this tag (smoke, decode, prefill, large)");
  auto* variant = cmd->add_option("--variant", s->sel.variant, "force this variant (where eligible)");
  cmd->add_flag("--all-variants", s->sel.allVariants, "every variant eligible for each case")
      ->excludes(variant);
  cmd->add_option("--repeat", s->sel.repeat, "timed runs per case and variant (default: bench.json's)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--warmup", s->sel.warmup, "untimed runs first (default: bench.json's)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--warmup-ms", s->sel.warmupMs,
                  "warm-up also lasts at least this many ms per case and variant (GPU clocks)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--spin-up-ms", s->sel.spinUpMs,
                  "GPU busy time before each case, to bring the clocks up after input generation")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--overhead-calls", s->sel.overheadCalls, "calls timed for host overhead (0: skip)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--no-cold", s->noCold, "skip the cold first-call measurement");
  cmd->add_option("--tuning", s->tuning, "tuning table from wgk tune (default: WGK_TUNING)");
  auto* json = cmd->add_option("--json", s->json, "write the evidence file");
  cmd->add_flag("--append", s->append, "add to an existing evidence file of the same device")->needs(json);
  addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    s->sel.cold = !s->noCold;
    auto rt = openRuntime(s->hub, s->tuning);
    harness::CopyRoofline roofline(rt->impl());
    harness::BenchRun run;
    bool failed = false;
    const auto& info = rt->device().adapterInfoStrings;
    std::printf("device: %s\n", info.count("description") ? info.at("description").c_str() : "?");
    std::printf("%-34s %-26s %9s %10s %10s %9s %9s %7s %8s %8s\n", "case", "variant", "MiB", "gpu us",
                "min us", "GB/s", "copy GB/s", "of copy", "host us", "cold ms");
    for (const auto& name : s->packages) {
      Kernel kernel = rt->load(name, loadOptionsFor(s->hub));
      std::printf("== %s (%s)\n", kernel.source().opId.c_str(), kernel.source().origin.c_str());
      harness::BenchHooks hooks;
      hooks.reload = [s, name](Runtime& fresh) { return fresh.load(name, loadOptionsFor(s->hub)); };
      hooks.progress = progressBar;
      hooks.onResult = [&](const harness::BenchMeasurement& m) {
        if (!m.error.empty() && m.error.rfind("skipped: ", 0) != 0) failed = true;
        printRow(m);
      };
      harness::runBench(*rt, kernel, s->sel, roofline, run, hooks);
    }
    if (!s->json.empty()) {
      nlohmann::json j = harness::evidenceJson(run, roofline, rt->device(), WGK_VERSION);
      if (s->append && std::filesystem::exists(s->json)) j = appendTo(s->json, std::move(j));
      writeJson(s->json, j);
      std::fprintf(stderr, "bench: wrote %s\n", s->json.c_str());
    }
    if (failed) exitCode().value = 1;
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addBenchCommand);

}  // namespace wgk::cli

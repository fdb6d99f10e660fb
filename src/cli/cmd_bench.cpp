// wgk bench PACKAGE... [--case NAME] [--tag TAG | --smoke] [--variant ID | --all-variants] [--repeat N]
//   [--warmup N] [--warmup-ms MS] [--spin-up-ms MS] [--overhead-calls N] [--no-cold] [--no-fma-roofline]
//   [--passes] [--tuning FILE] [--out FILE [--append]] [--json] [hub options]
// Runs bench.json cases on the local device (src/harness/bench_runner.h): GPU time (median, min),
// GB/s of the minimum bytes moved, the ratio to a copy kernel on the same bytes in the same run,
// host overhead per call and the cold first call; for compute-bound cases that declare flops, TFLOPS
// and the share of the FMA / matrix peak measured in the same run. A table on stdout (stderr with
// --json), progress on stderr; --out FILE writes the evidence file (docs/formats.md), --json prints
// it on stdout. Each measurement carries its per-pass GPU times; --passes prints them in the table.
// Every package, case and variant name is checked before anything is measured. A case the device
// cannot run (a binding limit) is reported as skipped with the reason. Exit 1 when any case failed.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "cli/support_terminal.h"
#include "core/device_profile.h"
#include "harness/bench_runner.h"
#include "harness/report_model.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::cli {
namespace {

// Column widths of the streamed table: the longest case and variant names of the selection.
struct Widths {
  size_t caseW = 4, variantW = 7;
};

void printHeader(std::FILE* out, const Widths& w) {
  std::fprintf(out, "%-*s  %-*s %9s %10s %10s %9s %9s %7s %8s %7s %9s %8s %8s\n", static_cast<int>(w.caseW),
               "case", static_cast<int>(w.variantW), "variant", "MiB", "gpu us", "min us", "GB/s",
               "copy GB/s", "of copy", "TFLOPS", "of FMA", "of matrix", "host us", "cold ms");
}

// "61.2%" or "-" (share not measured).
std::string share(double r) {
  if (r < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", r * 100);
  return buf;
}

// The TFLOPS columns: filled for compute-bound cases (flops per byte above the ridge), "-" otherwise.
std::string computeColumns(const harness::BenchMeasurement& m) {
  const harness::ComputeShare& c = m.compute;
  char buf[96];
  if (c.bound != "compute") {
    std::snprintf(buf, sizeof buf, "%8s %7s %9s", "-", "-", "-");
  } else {
    std::snprintf(buf, sizeof buf, "%8.4g %7s %9s", c.tflops, share(c.ofFmaPeak).c_str(),
                  share(c.ofMatrixPeak).c_str());
  }
  return buf;
}

std::string peakText(const char* name, const harness::PeakMeasurement& p) {
  char buf[160];
  if (p.tflops >= 0)
    std::snprintf(buf, sizeof buf, "%s %.4g TFLOPS (%s)", name, p.tflops, p.kernel.c_str());
  else
    std::snprintf(buf, sizeof buf, "%s not measured (%s)", name,
                  (p.absent.empty() ? p.error : p.absent).c_str());
  return buf;
}

void printRow(std::FILE* out, const Widths& w, const harness::BenchMeasurement& m) {
  const int cw = static_cast<int>(w.caseW), vw = static_cast<int>(w.variantW);
  const char* variant = m.variant.empty() ? "-" : m.variant.c_str();
  if (!m.skipped.empty()) {
    std::fprintf(out, "%-*s  %-*s skipped: %s\n", cw, m.caseName.c_str(), vw, variant, m.skipped.c_str());
  } else if (!m.error.empty()) {
    std::fprintf(out, "%-*s  %-*s FAILED: %s\n", cw, m.caseName.c_str(), vw, variant, m.error.c_str());
  } else {
    std::fprintf(out, "%-*s  %-*s %9.2f %10.2f %10.2f %9.4g %9.4g %6.1f%% %s %8.1f %8.1f\n", cw,
                 m.caseName.c_str(), vw, variant, static_cast<double>(m.bytes) / (1 << 20), m.gpuUsMedian,
                 m.gpuUsMin, m.gbps, m.copyGbps, m.rooflineRatio * 100, computeColumns(m).c_str(),
                 m.wallUsMedian, m.coldMs);
  }
  std::fflush(out);
}

// --passes: under a measured row, one line per pass of the call: its id, the median of its GPU us
// over the repeats and its share of the sum of the pass medians (a skipped pass: "skipped").
void printPasses(std::FILE* out, const harness::BenchMeasurement& m) {
  if (!m.skipped.empty() || !m.error.empty()) return;
  double sum = 0;
  size_t idW = 4;
  for (const auto& p : m.passes) sum += p.gpuUsMedian, idW = std::max(idW, p.id.size());
  for (const auto& p : m.passes) {
    if (p.skipped)
      std::fprintf(out, "    %-*s %10s\n", static_cast<int>(idW), p.id.c_str(), "skipped");
    else
      std::fprintf(out, "    %-*s %10.2f us %6.1f%%\n", static_cast<int>(idW), p.id.c_str(), p.gpuUsMedian,
                   sum > 0 ? 100 * p.gpuUsMedian / sum : 0.0);
  }
  std::fflush(out);
}

// --append: the earlier file must be evidence from the same device; packages, roofline rows and
// measurements are concatenated. The FMA rooflines of the earlier file stay (each measurement
// carries the peaks it was compared with); a file without them takes this run's.
nlohmann::json appendTo(const std::string& path, nlohmann::json fresh) {
  nlohmann::json old = harness::loadEvidence(path).doc;
  if (old.value("format", "") != fresh["format"])
    throw Error(ErrorCode::InvalidArgument, "--append: '" + path + "' is " + old.value("format", "") +
                                                " evidence; this wgk writes " +
                                                fresh["format"].get<std::string>());
  if (old.value("device", nlohmann::json()) != fresh["device"])
    throw Error(ErrorCode::InvalidArgument, "--append: '" + path + "' was measured on another device");
  for (const char* key : {"packages", "roofline", "measurements"})
    for (auto& v : fresh[key]) old[key].push_back(std::move(v));
  if (!old.contains("fmaRoofline") && fresh.contains("fmaRoofline"))
    old["fmaRoofline"] = fresh["fmaRoofline"];
  old["date"] = fresh["date"];
  return old;
}

void writeJson(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path);
  if (!out) throw Error(ErrorCode::Io, "cannot write evidence file '" + path + "'");
  out << j.dump(1) << "\n";
  if (!out) throw Error(ErrorCode::Io, "writing evidence file '" + path + "' failed");
}

// A file name is never an option: `--out --case` is a usage error, not a file called "--case".
std::string notAnOption(const std::string& value) {
  return !value.empty() && value[0] == '-' ? "expects a file name, not '" + value + "'" : std::string();
}

void addBenchCommand(CLI::App& app) {
  struct State {
    std::vector<std::string> packages;
    harness::BenchSelection sel;
    std::string out, tuning;
    bool append = false, noCold = false, smoke = false, json = false, noFma = false, passes = false;
    HubCliOptions hub;
  };
  auto s = std::make_shared<State>();
  auto* cmd = app.add_subcommand("bench", "Benchmark packages' bench.json cases on the local device");
  cmd->add_option("packages", s->packages, "repo ids or package folders")->required();
  cmd->add_option("--case", s->sel.caseName, "run only this case");
  auto* tag = cmd->add_option("--tag", s->sel.tag,
                              "run only cases with this tag (smoke, decode, prefill, large, compute)");
  cmd->add_flag("--smoke", s->smoke, "run only the smoke cases (same as --tag smoke)")->excludes(tag);
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
  cmd->add_flag("--no-fma-roofline", s->noFma,
                "skip the FMA / matrix rooflines (cases with flops get TFLOPS, no share of a peak)");
  cmd->add_flag(
      "--passes", s->passes,
      "under each row, one line per pass: median GPU us and share of the call (docs/benchmarks.md)");
  cmd->add_option("--tuning", s->tuning, "tuning table from wgk tune (default: WGK_TUNING)");
  auto* out =
      cmd->add_option("--out", s->out, "write the evidence file (docs/formats.md)")->check(notAnOption);
  cmd->add_flag("--append", s->append, "add to an existing evidence file of the same device")->needs(out);
  cmd->add_flag("--json", s->json, "print the evidence JSON on stdout (the table goes to stderr)");
  addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    s->sel.cold = !s->noCold;
    s->sel.fmaRoofline = !s->noFma;
    if (s->smoke) s->sel.tag = "smoke";
    auto rt = openRuntime(s->hub, s->tuning);
    // Every package loads and every name resolves before the first measurement: a typo fails now,
    // not after minutes of benchmarking.
    std::vector<Kernel> kernels;
    Widths w;
    for (const auto& name : s->packages) {
      kernels.push_back(rt->load(name, loadOptionsFor(s->hub)));
      for (const auto& c : harness::checkSelection(kernels.back(), s->sel))
        w.caseW = std::max(w.caseW, c.size());
      for (const auto& v : harness::variantIds(kernels.back())) w.variantW = std::max(w.variantW, v.size());
    }
    std::FILE* table = s->json ? stderr : stdout;
    harness::CopyRoofline roofline(*rt);
    harness::FmaRoofline fma(*rt);
    harness::BenchRun run;
    bool failed = false;
    std::fprintf(table, "device: %s\n", harness::productName(toJson(rt->device())).c_str());
    printHeader(table, w);
    Progress progress("bench");
    for (size_t i = 0; i < kernels.size(); ++i) {
      Kernel& kernel = kernels[i];
      const std::string name = s->packages[i];
      progress.clear();
      std::fprintf(table, "== %s (%s)\n", kernel.source().opId.c_str(), kernel.source().origin.c_str());
      harness::BenchHooks hooks;
      hooks.reload = [s, name](Runtime& fresh) { return fresh.load(name, loadOptionsFor(s->hub)); };
      hooks.progress = [&](const std::string& label, size_t done, size_t total) {
        progress.show(label, done, total);
      };
      hooks.onResult = [&](const harness::BenchMeasurement& m) {
        if (!m.error.empty()) failed = true;
        progress.clear();
        printRow(table, w, m);
        if (s->passes) printPasses(table, m);
      };
      hooks.onFmaRoofline = [&](const harness::FmaMeasurement& f) {
        progress.clear();
        std::fprintf(table, "fma roofline: %s; %s; %s\n", peakText("f32", f.f32).c_str(),
                     peakText("f16", f.f16).c_str(), peakText("matrix", f.matrix).c_str());
        std::fflush(table);
      };
      harness::runBench(*rt, kernel, s->sel, roofline, run, hooks, &fma);
    }
    progress.clear();
    nlohmann::json j = harness::evidenceJson(run, roofline, rt->device(), WGK_VERSION, &fma);
    if (!s->out.empty()) {
      if (s->append && std::filesystem::exists(s->out)) j = appendTo(s->out, std::move(j));
      writeJson(s->out, j);
      std::fprintf(stderr, "bench: wrote %s\n", s->out.c_str());
    }
    if (s->json) std::cout << j.dump(1) << "\n";
    if (failed) exitCode().value = 1;
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addBenchCommand);

}  // namespace wgk::cli

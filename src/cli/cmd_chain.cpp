// wgk chain [PACKAGE...] [--full] [--calls N] [--repeat R] [--batch B] [--tag TAG | --case NAME]
//   [--step | --no-step] [--step-hidden H] [--warm-calls N] [--no-defer] [--processes N]
//   [--process-start | --no-process-start] [--json] [--out FILE] [hub options]
// Per-op time of N back-to-back calls on GPU-resident tensors (issue 14), for each package's
// smoke cases (default: a quick look, under a minute on lavapipe) or decode cases (--full: 2000
// calls x 5 repetitions, the H200 measurement), and the decode step (FastGelu -> RMSNormalization ->
// GemmaRotaryEmbedding -> Add), unbatched, batched and replayed (src/harness/chain_runner.h), each
// also "natural" (runtime-allocated outputs, the caller keeping only the newest) with the buffers
// allocated per call, and the warm single-call host time. A table on stdout (or the JSON with --json),
// rows as each package finishes, progress on stderr on a terminal, the evidence file with --out. Exit 1 when
// a chain or a mode failed, or batched/replayed buffers differ from single calls. --processes N runs
// the measurement in N fresh child processes and reports the spread of each chain's figures across
// them; the process start (cold and warm `wgk run` of FastGelu's smallest bench case,
// cli/support_process_start.h) is measured with the decode step or with --process-start.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/command.h"
#include "cli/support_process_start.h"
#include "cli/support_processes.h"
#include "cli/support_runtime.h"
#include "cli/support_terminal.h"
#include "harness/chain_runner.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::cli {
namespace {

// The default run is small so that `wgk chain` alone answers quickly anywhere (the decode cases
// include 512 MiB GEMVs, hours on a CPU rasterizer); --full is the measurement of the decode set.
// An option given explicitly wins over both.
struct ChainSizes {
  const char* tag;
  int64_t calls;
  int repeat, warmCalls;
};
constexpr ChainSizes kQuick{"smoke", 100, 3, 20};
constexpr ChainSizes kFull{"decode", 2000, 5, 200};

struct ChainArgs {
  std::vector<std::string> packages;
  harness::ChainOptions options;
  bool full = false, step = false, noStep = false, json = false, noDefer = false;
  bool processStart = false, noProcessStart = false;
  int processes = 1;
  int64_t stepHidden = 2048;
  std::string out;
  HubCliOptions hub;
};

const char* const kStepRepos[] = {
    "webgpu-kernels/com.microsoft.FastGelu", "webgpu-kernels/ai.onnx.RMSNormalization",
    "webgpu-kernels/com.microsoft.GemmaRotaryEmbedding", "webgpu-kernels/ai.onnx.Add"};

std::string cell(const harness::ChainModeResult& m) {
  if (!m.ran) return "failed";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f (%.2f)", m.perOpUsMedian, m.submitUsPerOpMedian);
  return buf;
}

std::string sameBits(const harness::ChainResult& r) {
  auto one = [](const harness::ChainModeResult& m) {
    return m.bitIdentical < 0 ? "-" : m.bitIdentical ? "yes" : "NO";
  };
  return std::string(one(r.batched)) + "/" + one(r.replayed);
}

bool failed(const harness::ChainResult& r) {
  if (!r.error.empty()) return true;
  for (const auto* m :
       {&r.unbatched, &r.batched, &r.replayed, &r.naturalUnbatched, &r.naturalBatched, &r.naturalReplayed})
    if (!m->ran || m->bitIdentical == 0) return true;
  return false;
}

// The natural modes (runtime-allocated outputs, the caller keeping only the newest), with the
// buffers the runtime's pool handed out per call in every mode.
void printNatural(const std::vector<harness::ChainResult>& results) {
  std::printf(
      "\nNatural: each call's runtime-allocated outputs feed the next calls, only the newest held.\n"
      "allocs/call: buffers the runtime's pool handed out per call (unbatched/batched/replayed).\n\n");
  std::printf("%-58s %18s %18s %18s %17s %17s %9s\n", "chain", "natural unbatched", "natural batched",
              "natural replayed", "allocs/call", "natural allocs", "same bits");
  auto allocs = [](const harness::ChainModeResult& a, const harness::ChainModeResult& b,
                   const harness::ChainModeResult& c) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f/%.2f/%.2f", a.allocsPerCall, b.allocsPerCall, c.allocsPerCall);
    return std::string(buf);
  };
  auto bits = [](const harness::ChainResult& r) {
    std::string out;
    for (const auto* m : {&r.naturalUnbatched, &r.naturalBatched, &r.naturalReplayed})
      out += std::string(out.empty() ? "" : "/") + (m->bitIdentical < 0 ? "-"
                                                    : m->bitIdentical   ? "yes"
                                                                        : "NO");
    return out;
  };
  for (const auto& r : results) {
    if (!r.error.empty() && !r.unbatched.ran) continue;
    std::printf("%-58s %18s %18s %18s %17s %17s %9s\n", r.name.c_str(), cell(r.naturalUnbatched).c_str(),
                cell(r.naturalBatched).c_str(), cell(r.naturalReplayed).c_str(),
                allocs(r.unbatched, r.batched, r.replayed).c_str(),
                allocs(r.naturalUnbatched, r.naturalBatched, r.naturalReplayed).c_str(), bits(r).c_str());
    for (const auto* m : {&r.naturalUnbatched, &r.naturalBatched, &r.naturalReplayed})
      if (!m->error.empty()) std::printf("  %s\n", m->error.c_str());
  }
}

void printHeader(const ChainArgs& a, const std::string& device) {
  std::printf(
      "Chains on %s: us per op of back-to-back calls on GPU-resident tensors, median of %d repetitions\n"
      "(host submit part in parentheses); batched: %s; replayed: one graph of the chain per replay.\n"
      "warm call: host us of one Kernel::call; call+wait: one call and a wait for it.\n\n",
      device.c_str(), a.options.repeat,
      a.options.batchSize ? ("batches of " + std::to_string(a.options.batchSize) + " calls").c_str()
                          : "all calls of a repetition in one batch");
  std::printf("%-58s %6s %18s %18s %18s %9s %9s %9s\n", "chain", "calls", "unbatched", "batched", "replayed",
              "warm call", "call+wait", "same bits");
  std::fflush(stdout);
}

// One chain's row, printed as soon as its package's chains are measured.
void printRow(const harness::ChainResult& r) {
  if (!r.error.empty() && !r.unbatched.ran) {
    std::printf("%-58s %s\n", r.name.c_str(), r.error.c_str());
  } else {
    std::printf("%-58s %6lld %18s %18s %18s %9.2f %9.2f %9s\n", r.name.c_str(),
                static_cast<long long>(r.calls), cell(r.unbatched).c_str(), cell(r.batched).c_str(),
                cell(r.replayed).c_str(), r.warmCallUsMedian, r.callWaitUsMedian, sameBits(r).c_str());
    for (const auto* m : {&r.unbatched, &r.batched, &r.replayed})
      if (!m->error.empty()) std::printf("  %s\n", m->error.c_str());
  }
  std::fflush(stdout);
}

// After the rows: the natural modes' table and the targets.
void printFooter(const std::vector<harness::ChainResult>& results) {
  printNatural(results);
  using T = harness::ChainTargets;
  std::printf(
      "\ntargets (issue 25, H200): batched <= %g us/op, replayed <= %g us/op, unbatched (deferred) <= %g "
      "us/op, warm call <= %g us, call+wait <= %g us\n",
      T::batched, T::replayed, T::unbatched, T::warmCall, T::callWait);
}

// FastGelu's cold and warm process start: the wall time of a fresh `wgk run` (median of 3 each).
ProcessStart measureStart(Runtime& rt, const HubCliOptions& hub) {
  const std::string repo = kStepRepos[0];
  Kernel k = withContext("while loading " + repo, [&] { return rt.load(repo, loadOptionsFor(hub)); });
  const std::string file = (wgk::introspect::package(k).webgpuDir() / "bench.json").string();
  const package::BenchFile bench = package::loadBenchFile(file);
  return withContext("while timing the process start of `wgk run " + repo + "`",
                     [&] { return measureProcessStart(repo, smallestBenchCase(bench, file), 3); });
}

void printStart(const ProcessStart& s) {
  std::printf(
      "\nprocess start: `wgk run %s` of %s, spawn to exit, median of %zu: cold (empty pipeline cache) "
      "%.0f ms, warm (the folder the cold run left) %.0f ms\n",
      s.repo.c_str(), s.benchCase.c_str(), s.coldMs.size(), s.coldMsMedian, s.warmMsMedian);
}

// Per chain, the spread across the children of --processes of its host figures: the warm single
// call and the per-op time of each mode, each child's median.
nlohmann::json spreadsAcross(const std::vector<nlohmann::json>& children) {
  nlohmann::json across = nlohmann::json::array();
  const nlohmann::json& first = children.front().at("chains");
  for (size_t i = 0; i < first.size(); ++i) {
    nlohmann::json row = {{"name", first[i].at("name")}};
    auto add = [&](const std::string& key, auto get) {
      std::vector<double> v;
      for (const auto& c : children) {
        const nlohmann::json x = get(c.at("chains").at(i));
        if (x.is_number()) v.push_back(x.get<double>());
      }
      if (v.size() == children.size()) row[key] = spreadOf(v).toJson();
    };
    add("warmCallUs", [](const nlohmann::json& c) { return c.value("warmCallUsMedian", nlohmann::json()); });
    for (const char* mode : {"unbatched", "batched", "replayed"})
      add(std::string(mode) + "UsPerOp", [mode](const nlohmann::json& c) {
        return c.at("modes").at(mode).value("perOpUsMedian", nlohmann::json());
      });
    across.push_back(std::move(row));
  }
  return across;
}

void printSpreads(const nlohmann::json& across, int processes) {
  std::printf(
      "Across %d fresh processes: median of each process's median (min-max, spread = (max - min) / "
      "median)\n\n",
      processes);
  std::printf("%-58s %28s %28s %28s\n", "chain", "warm call us", "unbatched us/op", "batched us/op");
  auto cell = [](const nlohmann::json& row, const char* key) {
    if (!row.contains(key)) return std::string("-");
    const auto& s = row[key];
    char buf[80];
    std::snprintf(buf, sizeof buf, "%.2f (%.2f-%.2f, %.0f%%)", s["median"].get<double>(),
                  s["min"].get<double>(), s["max"].get<double>(), s["spreadPct"].get<double>());
    return std::string(buf);
  };
  for (const auto& row : across)
    std::printf("%-58s %28s %28s %28s\n", row["name"].get<std::string>().c_str(),
                cell(row, "warmCallUs").c_str(), cell(row, "unbatchedUsPerOp").c_str(),
                cell(row, "batchedUsPerOp").c_str());
}

void writeJson(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path);
  if (!out) throw Error(ErrorCode::Io, "cannot write evidence file '" + path + "'");
  out << j.dump(1) << "\n";
  if (!out) throw Error(ErrorCode::Io, "writing evidence file '" + path + "' failed");
}

// --processes N: the first child's evidence, with every child's chains and the spreads added.
// The process-start figure (when measured) into the evidence, then --out written: the same for one
// process and across --processes.
void finishEvidence(const ChainArgs& a, nlohmann::json& evidence, const std::optional<ProcessStart>& s) {
  if (s) evidence["processStart"] = s->toJson();
  if (!a.out.empty()) {
    writeJson(a.out, evidence);
    std::fprintf(stderr, "chain: wrote %s\n", a.out.c_str());
  }
}

void runChainsAcrossProcesses(const ChainArgs& a, bool start) {
  std::vector<std::string> args = childArguments();
  std::erase(args, std::string("--process-start"));
  if (std::find(args.begin(), args.end(), "--no-process-start") == args.end())
    args.push_back("--no-process-start");  // measured once, here
  const std::vector<nlohmann::json> children = runChildren(args, a.processes);
  nlohmann::json evidence = children.front();
  evidence["processes"] = a.processes;
  evidence["perProcess"] = nlohmann::json::array();
  for (const auto& c : children) evidence["perProcess"].push_back(c.at("chains"));
  evidence["acrossProcesses"] = spreadsAcross(children);
  std::optional<ProcessStart> s;
  if (start) {
    auto rt = openRuntime(a.hub);
    s = measureStart(*rt, a.hub);
  }
  finishEvidence(a, evidence, s);
  if (a.json) {
    std::cout << evidence.dump(2) << "\n";
  } else {
    std::printf("Chains on %s\n",
                evidence["device"]["adapterInfo"].value("description", std::string("?")).c_str());
    printSpreads(evidence["acrossProcesses"], a.processes);
    if (s) printStart(*s);
  }
}

void runChains(const ChainArgs& a) {
  const bool named = !a.packages.empty();
  const std::vector<std::string> packages = named ? a.packages : embeddedPackageRepos();
  const bool step = !a.noStep && (a.step || (!named && a.options.caseName.empty()));
  const bool start = !a.noProcessStart && (a.processStart || step);
  if (a.processes < 1) throw Error(ErrorCode::InvalidArgument, "--processes must be at least 1");
  if (a.processes > 1) return runChainsAcrossProcesses(a, start);
  auto rt = openRuntime(a.hub);
  std::vector<harness::ChainResult> results;
  // Rows as each package's chains finish; on a terminal a progress line (package i of n, the
  // decode step last, with the time left) meanwhile.
  Progress progress("chain");
  const size_t steps = packages.size() + (step ? 1 : 0);
  bool headerShown = false;
  auto add = [&](harness::ChainResult r) {
    progress.clear();
    if (!a.json && !headerShown) {
      const auto& info = rt->device().adapterInfoStrings;
      printHeader(a, info.count("description") ? info.at("description") : "?");
      headerShown = true;
    }
    if (!a.json) printRow(r);
    results.push_back(std::move(r));
  };
  for (size_t i = 0; i < packages.size(); ++i) {
    const std::string& p = packages[i];
    progress.show(p, i, steps);
    Kernel kernel = withContext("while loading " + p, [&] { return rt->load(p, loadOptionsFor(a.hub)); });
    for (auto& r : harness::runCaseChains(*rt, kernel, a.options)) add(std::move(r));
  }
  progress.clear();
  if (!a.options.caseName.empty() && results.empty())
    throw Error(ErrorCode::NotFound, "no package has a bench case named '" + a.options.caseName + "'");
  if (step) {
    progress.show("the decode step", packages.size(), steps);
    harness::DecodeStepKernels k;
    Kernel* slots[] = {&k.fastGelu, &k.rmsNorm, &k.rotary, &k.add};
    for (size_t i = 0; i < 4; ++i)
      *slots[i] = withContext(std::string("while loading the decode step's ") + kStepRepos[i],
                              [&] { return rt->load(kStepRepos[i], loadOptionsFor(a.hub)); });
    add(harness::runDecodeStepChain(*rt, k, a.stepHidden, a.options));
  }
  nlohmann::json evidence = harness::chainEvidenceJson(results, a.options, rt->device(), WGK_VERSION);
  std::optional<ProcessStart> s;
  if (start) s = measureStart(*rt, a.hub);
  finishEvidence(a, evidence, s);
  if (a.json) {
    std::cout << evidence.dump(2) << "\n";
  } else if (headerShown) {
    printFooter(results);
    if (s) printStart(*s);
  }
  for (const auto& r : results)
    if (failed(r)) exitCode().value = 1;
}

void addChainCommand(CLI::App& app) {
  auto a = std::make_shared<ChainArgs>();
  CLI::App* cmd = app.add_subcommand(
      "chain", "Per-op time of N back-to-back calls at decode sizes: unbatched, batched, replayed");
  cmd->add_option("packages", a->packages, "repo ids or package folders (default: every embedded package)");
  cmd->add_flag("--full", a->full,
                "the decode cases, 2000 calls, 5 repetitions, 200 warm calls (default: the smoke cases, 100 "
                "calls, 3 repetitions, 20 warm calls: under a minute on lavapipe)");
  auto* calls = cmd->add_option("--calls,-n", a->options.calls,
                                "calls per chain and repetition (default 100; --full 2000)")
                    ->check(CLI::PositiveNumber);
  auto* repeat =
      cmd->add_option("--repeat", a->options.repeat, "timed repetitions per mode (default 3; --full 5)")
          ->check(CLI::PositiveNumber);
  cmd->add_option("--batch", a->options.batchSize, "calls per Batch in batched mode (default 0: all in one)")
      ->check(CLI::NonNegativeNumber);
  auto* warm =
      cmd->add_option("--warm-calls", a->options.warmCalls,
                      "single calls timed one by one for the warm-call host time (default 20; --full 200; "
                      "20 more with a wait)")
          ->check(CLI::PositiveNumber);
  auto* kase = cmd->add_option("--case", a->options.caseName, "only this bench case");
  auto* tag =
      cmd->add_option("--tag", a->options.tag, "bench cases with this tag (default smoke; --full decode)")
          ->excludes(kase);
  auto* step = cmd->add_flag("--step", a->step, "also run the decode step when packages are named");
  cmd->add_flag("--no-step", a->noStep, "skip the decode step")->excludes(step);
  cmd->add_option("--step-hidden", a->stepHidden,
                  "the decode step's hidden size (multiple of 256; default 2048)");
  cmd->add_flag("--no-defer", a->noDefer,
                "submit every single call at once (RuntimeOptions::deferCalls = false; default: device-only "
                "calls are deferred and submitted together)");
  cmd->add_option("--processes", a->processes,
                  "measure in N fresh processes, one after another, and report the spread of each chain's "
                  "figures across them (default 1: this one)");
  auto* start =
      cmd->add_flag("--process-start", a->processStart,
                    "also time a cold and a warm `wgk run` of FastGelu's smallest bench case (default: "
                    "with the decode step)");
  cmd->add_flag("--no-process-start", a->noProcessStart, "skip the process start timing")->excludes(start);
  cmd->add_flag("--json", a->json, "print the evidence JSON on stdout instead of the table");
  cmd->add_option("--out", a->out, "write the evidence file (format wgk-chain/2)");
  addHubOptions(cmd, a->hub);
  cmd->callback([a, calls, repeat, warm, tag] {
    const ChainSizes& z = a->full ? kFull : kQuick;
    if (!*tag) a->options.tag = z.tag;
    if (!*calls) a->options.calls = z.calls;
    if (!*repeat) a->options.repeat = z.repeat;
    if (!*warm) a->options.warmCalls = z.warmCalls;
    a->options.callWaitCalls = std::min(a->options.callWaitCalls, a->options.warmCalls);
    if (a->noDefer) a->hub.runtime.deferCalls = false;
    runChains(*a);
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addChainCommand);

}  // namespace wgk::cli

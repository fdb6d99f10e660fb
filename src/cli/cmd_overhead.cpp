// wgk overhead [PACKAGE...] [--calls N] [--warmup N] [--processes N] [--json] [hub options]
// Host overhead of one Kernel::call: GPU-resident inputs, caller-given outputs, warm caches,
// timestamps off (the runtime submits without waiting), for each package's smallest bench case.
// Every call is timed on its own; the report gives the median (issue 4's figure) and spread.
// With no PACKAGE, every embedded package is measured. --processes N measures in N fresh child
// processes, one after another, and reports the spread of their medians (cli/support_processes.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_process_start.h"
#include "cli/support_processes.h"
#include "cli/support_runtime.h"
#include "core/device_profile.h"
#include "harness/bench_case.h"
#include "package/package.h"
#include "package/test_spec.h"
#include "runtime/attributes.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::cli {
namespace {
using Clock = std::chrono::steady_clock;

struct OverheadArgs {
  std::vector<std::string> packages;
  int64_t calls = 1000, warmup = 50;
  int processes = 1;
  bool json = false;
  HubCliOptions hub;
};

struct Measurement {
  std::string package, benchCase, variant;
  uint64_t inputBytes = 0;
  double medianUs = 0, p10Us = 0, p90Us = 0, minUs = 0, meanUs = 0;
  double drainUs = 0;  // waitIdle after the timed calls: GPU work still queued when the host was done
  CacheStats during;   // cache activity during the timed calls (all zero but hits when warm)
};

double percentile(const std::vector<double>& sorted, double p) {
  const size_t i = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

Measurement measure(Runtime& rt, const std::string& repoOrPath, const OverheadArgs& a) {
  Kernel kernel = rt.load(repoOrPath, loadOptionsFor(a.hub));
  const std::string file = (wgk::introspect::package(kernel).webgpuDir() / "bench.json").string();
  const package::BenchFile bench = package::loadBenchFile(file);
  const package::BenchCase& bc = smallestBenchCase(bench, file);

  Measurement m;
  m.package = kernel.source().opId;
  m.benchCase = bc.name;
  std::map<std::string, DeviceTensor> inputs;
  for (const auto& [name, t] : package::materializeInputs(bc)) {
    m.inputBytes += t.byteSize();
    inputs.emplace(name, rt.upload(t));
  }
  std::map<std::string, TensorRef> refs;
  for (const auto& [name, t] : inputs) refs.emplace(name, TensorRef(t));

  // The measured calls write into buffers allocated once, as a caller chaining kernels would, of
  // the plan's dtypes and shapes (a logical int64 stored as int32 still takes an int64 buffer; an
  // in/out port is written in place, into its input).
  CallOptions options;
  options.attrs = runtime::fromValues(bc.attrs);
  options.placement = OutputPlacement::Device;
  const package::Manifest& manifest = wgk::introspect::package(kernel).manifest();
  std::map<std::string, DeviceTensor> outputs;
  for (const plan::PlannedOutput& o :
       wgk::introspect::plan(kernel, harness::benchCaseRequest(bc), false).outputs) {
    const package::PortSpec* port = manifest.findPort(o.name);
    if (!port || !port->isInput()) outputs.emplace(o.name, rt.allocate(o.dtype, o.shape));
  }
  for (const auto& [name, t] : outputs) options.outputs[name] = t.view();
  m.variant = kernel.call(refs, options).variant;

  for (int64_t i = 0; i < a.warmup; ++i) kernel.call(refs, options);
  rt.waitIdle();

  const CacheStats before = rt.cacheStats();
  std::vector<double> us;
  us.reserve(static_cast<size_t>(a.calls));
  for (int64_t i = 0; i < a.calls; ++i) {
    const auto t0 = Clock::now();
    kernel.call(refs, options);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  const auto tDrain = Clock::now();
  rt.waitIdle();
  m.drainUs = std::chrono::duration<double, std::micro>(Clock::now() - tDrain).count();
  const CacheStats after = rt.cacheStats();
  m.during.shaderModulesCompiled = after.shaderModulesCompiled - before.shaderModulesCompiled;
  m.during.planMisses = after.planMisses - before.planMisses;
  m.during.planHits = after.planHits - before.planHits;
  m.during.bindGroupMisses = after.bindGroupMisses - before.bindGroupMisses;
  m.during.bindGroupHits = after.bindGroupHits - before.bindGroupHits;

  double sum = 0;
  for (double x : us) sum += x;
  m.meanUs = sum / static_cast<double>(us.size());
  std::sort(us.begin(), us.end());
  m.minUs = us.front();
  m.p10Us = percentile(us, 0.10);
  m.medianUs = percentile(us, 0.50);
  m.p90Us = percentile(us, 0.90);
  return m;
}

std::string deviceName(const DeviceProfile& p) {
  for (const char* key : {"description", "device", "architecture", "vendor"})
    if (auto it = p.adapterInfoStrings.find(key); it != p.adapterInfoStrings.end() && !it->second.empty())
      return it->second;
  return "unknown device";
}

// --processes N: the same measurement in N fresh processes; per package the median of their
// medians, min, max and (max - min) / median.
void runAcrossProcesses(const OverheadArgs& a) {
  const std::vector<nlohmann::json> children = runChildren(childArguments(), a.processes);
  nlohmann::json out = {{"device", children.front().at("device")},
                        {"calls", a.calls},
                        {"warmup", a.warmup},
                        {"processes", a.processes},
                        {"results", nlohmann::json::array()}};
  const nlohmann::json& first = children.front().at("results");
  for (size_t i = 0; i < first.size(); ++i) {
    std::vector<double> medians;
    nlohmann::json each = nlohmann::json::array();
    for (const auto& c : children) {
      medians.push_back(c.at("results").at(i).at("medianUs").get<double>());
      each.push_back(c.at("results").at(i));
    }
    const Spread s = spreadOf(medians);
    out["results"].push_back({{"package", first[i].at("package")},
                              {"case", first[i].at("case")},
                              {"variant", first[i].at("variant")},
                              {"medianUs", s.median},
                              {"acrossProcesses", s.toJson()},
                              {"perProcess", each}});
  }
  if (a.json) {
    std::cout << out.dump(2) << "\n";
    return;
  }
  const auto& info = out["device"]["adapterInfo"];
  std::printf(
      "Host overhead per Kernel::call on %s in %d fresh processes: each process's median of %lld calls\n"
      "(after %lld warm-up calls); median, min and max across processes, spread = (max - min) / median.\n\n",
      info.value("description", std::string("?")).c_str(), a.processes, static_cast<long long>(a.calls),
      static_cast<long long>(a.warmup));
  std::printf("%-36s %-26s %10s %8s %8s %9s  %s\n", "package", "bench case", "median us", "min us", "max us",
              "spread %", "per process");
  for (const auto& r : out["results"]) {
    const auto& s = r["acrossProcesses"];
    std::string each;
    for (const auto& v : s["perProcess"]) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%.2f", each.empty() ? "" : " ", v.get<double>());
      each += buf;
    }
    std::printf("%-36s %-26s %10.2f %8.2f %8.2f %9.1f  %s\n", r["package"].get<std::string>().c_str(),
                r["case"].get<std::string>().c_str(), s["median"].get<double>(), s["min"].get<double>(),
                s["max"].get<double>(), s["spreadPct"].get<double>(), each.c_str());
  }
}

void runOverhead(const OverheadArgs& a) {
  if (a.calls < 1) throw Error(ErrorCode::InvalidArgument, "--calls must be at least 1");
  if (a.warmup < 0) throw Error(ErrorCode::InvalidArgument, "--warmup must not be negative");
  if (a.processes < 1) throw Error(ErrorCode::InvalidArgument, "--processes must be at least 1");
  if (a.processes > 1) return runAcrossProcesses(a);
  const std::vector<std::string> packages = a.packages.empty() ? embeddedPackageRepos() : a.packages;
  auto rt = openRuntime(a.hub);
  std::vector<Measurement> results;
  for (const auto& p : packages)
    results.push_back(
        withContext("while measuring the call overhead of " + p, [&] { return measure(*rt, p, a); }));

  const std::string device = deviceName(rt->device());
  if (a.json) {
    nlohmann::json out = {{"device", toJson(rt->device())},
                          {"calls", a.calls},
                          {"warmup", a.warmup},
                          {"results", nlohmann::json::array()}};
    for (const auto& m : results)
      out["results"].push_back({{"package", m.package},
                                {"case", m.benchCase},
                                {"variant", m.variant},
                                {"inputBytes", m.inputBytes},
                                {"medianUs", m.medianUs},
                                {"p10Us", m.p10Us},
                                {"p90Us", m.p90Us},
                                {"minUs", m.minUs},
                                {"meanUs", m.meanUs},
                                {"drainUs", m.drainUs},
                                {"during",
                                 {{"shaderModulesCompiled", m.during.shaderModulesCompiled},
                                  {"planMisses", m.during.planMisses},
                                  {"planHits", m.during.planHits},
                                  {"bindGroupMisses", m.during.bindGroupMisses},
                                  {"bindGroupHits", m.during.bindGroupHits}}}});
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::printf(
      "Host overhead per Kernel::call on %s: GPU-resident inputs, caller-given outputs,\n"
      "warm caches, no timestamps (submit without waiting); %lld calls after %lld warm-up calls.\n\n",
      device.c_str(), static_cast<long long>(a.calls), static_cast<long long>(a.warmup));
  std::printf("%-36s %-26s %-20s %10s %8s %8s %8s %10s\n", "package", "bench case", "variant", "median us",
              "p10 us", "p90 us", "min us", "drain us");
  for (const auto& m : results)
    std::printf("%-36s %-26s %-20s %10.2f %8.2f %8.2f %8.2f %10.0f\n", m.package.c_str(), m.benchCase.c_str(),
                m.variant.c_str(), m.medianUs, m.p10Us, m.p90Us, m.minUs, m.drainUs);
  for (const auto& m : results)
    if (m.during.shaderModulesCompiled || m.during.planMisses || m.during.bindGroupMisses)
      std::printf(
          "note: %s was not fully warm (%llu compilations, %llu plan misses, %llu bind group misses)\n",
          m.package.c_str(), static_cast<unsigned long long>(m.during.shaderModulesCompiled),
          static_cast<unsigned long long>(m.during.planMisses),
          static_cast<unsigned long long>(m.during.bindGroupMisses));
}

void addOverheadCommand(CLI::App& app) {
  auto args = std::make_shared<OverheadArgs>();
  CLI::App* cmd = app.add_subcommand(
      "overhead", "Measure the host time of one kernel call with GPU-resident tensors (median over --calls)");
  cmd->add_option("packages", args->packages,
                  "repo ids or package folders (default: every embedded package)");
  cmd->add_option("--calls,-n", args->calls, "timed calls per package (default 1000)");
  cmd->add_option("--warmup", args->warmup, "untimed calls first (default 50)");
  cmd->add_option("--processes", args->processes,
                  "measure in N fresh processes and report the spread across them (default 1: this one)");
  cmd->add_flag("--json", args->json, "report as JSON on stdout");
  addHubOptions(cmd, args->hub);
  cmd->callback([args] { runOverhead(*args); });
}

}  // namespace

WGK_REGISTER_COMMAND(addOverheadCommand);

}  // namespace wgk::cli

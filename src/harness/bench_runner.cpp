#include "harness/bench_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <thread>

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "gpu/device.h"
#include "harness/bench_case.h"
#include "harness/test_runner.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {
using Clock = std::chrono::steady_clock;
constexpr int kFmaWarmup = 3;      // untimed dispatches per FMA kernel (after its calibration)
constexpr int kFmaMinRepeat = 10;  // timed ones, whatever the case's --repeat: peaks are noisy
double usSince(Clock::time_point t) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
}

}  // namespace

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// What ran the benchmark besides the GPU: host overhead and cold times depend on it.
nlohmann::json hostInfo() {
  nlohmann::json h = nlohmann::json::object();
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) h["hostname"] = name;
  struct utsname u {};
  if (uname(&u) == 0) h["os"] = std::string(u.sysname) + " " + u.release + " " + u.machine;
  std::ifstream cpu("/proc/cpuinfo");
  for (std::string line; std::getline(cpu, line);) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) h["cpu"] = line.substr(line.find_first_not_of(' ', colon + 1));
      break;
    }
  }
  h["cores"] = std::thread::hardware_concurrency();
  return h;
}

namespace {

nlohmann::json finiteOrNull(double v, bool measured = true) {
  return measured && std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}
}  // namespace

nlohmann::json BenchMeasurement::toJson() const {
  nlohmann::json j = {{"package", package},       {"case", caseName}, {"variant", variant},
                      {"selectedBy", selectedBy}, {"tags", tags},     {"bytes", bytes},
                      {"default", isDefault}};
  if (flops >= 0) j["flops"] = flops;
  if (!skipped.empty()) {
    j["skipped"] = skipped;
    return j;
  }
  if (!error.empty()) {
    j["error"] = error;
    return j;
  }
  j["gpuUsMedian"] = finiteOrNull(gpuUsMedian);
  j["gpuUsMin"] = finiteOrNull(gpuUsMin);
  if (!passes.empty()) {
    j["passes"] = nlohmann::json::array();
    for (const BenchPass& p : passes) {
      nlohmann::json e = {{"id", p.id}, {"gpuUsMedian", finiteOrNull(p.gpuUsMedian)}};
      if (p.skipped) e["skipped"] = true;
      j["passes"].push_back(std::move(e));
    }
  }
  j["gbps"] = finiteOrNull(gbps);
  j["rooflineRatio"] = finiteOrNull(rooflineRatio);
  j["copyGbps"] = finiteOrNull(copyGbps);
  j["coldMs"] = finiteOrNull(coldMs, coldMs >= 0);
  j["wallUsMedian"] = finiteOrNull(wallUsMedian, wallUsMedian >= 0);
  if (compute.tflops >= 0) {
    j["tflops"] = finiteOrNull(compute.tflops);
    if (compute.flopsPerByte >= 0) j["flopsPerByte"] = finiteOrNull(compute.flopsPerByte);
    if (compute.fmaPeak > 0) {
      j["fmaPeakTflops"] = finiteOrNull(compute.fmaPeak);
      j["ofFmaPeak"] = finiteOrNull(compute.ofFmaPeak);
    }
    if (compute.matrixPeak > 0) {
      j["matrixPeakTflops"] = finiteOrNull(compute.matrixPeak);
      j["ofMatrixPeak"] = finiteOrNull(compute.ofMatrixPeak);
    }
    if (!compute.bound.empty()) {
      j["ridgeFlopsPerByte"] = finiteOrNull(compute.ridge);
      j["bound"] = compute.bound;
    }
  }
  if (hostCpuUsMedian >= 0) {
    j["overheadCalls"] = overheadCalls;
    j["hostCpuUsMedian"] = finiteOrNull(hostCpuUsMedian);
    j["wallUsMedianFirst10"] = finiteOrNull(wallUsMedianEarly);
    j["wallUsMedianSecondHalf"] = finiteOrNull(wallUsMedianLate, wallUsMedianLate >= 0);
    j["hostContextSwitches"] = {{"voluntary", hostVoluntarySwitches},
                                {"involuntary", hostInvoluntarySwitches}};
  }
  return j;
}

int scaledOverheadCalls(int requested, double gpuUs) {
  constexpr double kBudgetUs = 2e6;
  if (requested <= 10 || !(gpuUs > 0)) return requested;
  const double fit = kBudgetUs / gpuUs;
  return fit >= requested ? requested : std::max(10, static_cast<int>(fit));
}

bool isDeviceLimit(const Error& e) {
  const std::string& m = e.message();
  return m.find("maxStorageBufferBindingSize") != std::string::npos ||
         m.find("maxBufferSize") != std::string::npos;
}

std::vector<std::string> checkSelection(Kernel& kernel, const BenchSelection& sel) {
  const auto& pkg = wgk::introspect::package(kernel);
  const std::string opId = pkg.manifest().id();
  package::BenchFile file = withContext("while reading bench.json of " + opId, [&] {
    return package::loadBenchFile((pkg.webgpuDir() / "bench.json").string());
  });
  if (!sel.variant.empty()) {
    const auto ids = variantIds(kernel);
    if (std::find(ids.begin(), ids.end(), sel.variant) == ids.end())
      throw Error(ErrorCode::NotFound, opId + " has no variant '" + sel.variant + "'");
  }
  std::vector<std::string> names;
  for (const auto* c : selectCases(file, sel, opId)) names.push_back(c->name);
  return names;
}

std::vector<std::string> variantIds(Kernel& kernel) {
  std::vector<std::string> ids;
  for (const auto& v : wgk::introspect::package(kernel).manifest().variants) ids.push_back(v.id);
  return ids;
}

std::vector<const package::BenchCase*> selectCases(const package::BenchFile& file, const BenchSelection& sel,
                                                   const std::string& opId) {
  if (!sel.caseName.empty() && !file.findCase(sel.caseName))
    throw Error(ErrorCode::NotFound, "bench.json of " + opId + " has no case '" + sel.caseName + "'");
  std::vector<const package::BenchCase*> out;
  for (const auto& c : file.cases) {
    if (!sel.caseName.empty() && c.name != sel.caseName) continue;
    if (!sel.tag.empty() && std::find(c.tags.begin(), c.tags.end(), sel.tag) == c.tags.end()) continue;
    out.push_back(&c);
  }
  return out;
}

std::vector<std::string> benchVariants(Kernel& kernel, const package::BenchCase& c, const BenchSelection& sel,
                                       std::string* skipReason) {
  if (!sel.allVariants && sel.variant.empty()) return {""};  // before converting attrs, as the call will
  return selectVariants(kernel, benchCaseRequest(c), sel.variant, sel.allVariants, skipReason);
}

namespace {

// CPU time of the calling thread, in microseconds.
double threadCpuUs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

struct ThreadUsage {
  long voluntary = 0, involuntary = 0;
};

// Context switches of the calling thread so far (Linux RUSAGE_THREAD).
ThreadUsage threadUsage() {
  rusage r{};
  getrusage(RUSAGE_THREAD, &r);
  return {r.ru_nvcsw, r.ru_nivcsw};
}

// One (case, variant): cold first call, timed repeats, host overhead.
void measureVariant(Runtime& rt, Kernel& kernel, const package::BenchCase& c, const CaseBuffers& buf,
                    const std::string& variant, const CaseTiming& timing, const BenchSelection& sel,
                    const BenchHooks& hooks, BenchMeasurement& m) {
  CallOptions o = caseCallOptions(c, buf, variant);
  const auto refs = buf.refs();

  if (sel.cold && hooks.reload) {
    // A fresh runtime on the same device has empty plan and pipeline caches: load + plan + render +
    // compile + the first run, waited for. (Dawn may still share a pipeline that a live runtime
    // compiled from identical WGSL; measuring cold before the warm runs keeps that rare.)
    // The runtime object itself is not part of a kernel's cold start: create it before the clock.
    auto fresh = Runtime::createForDevice(wgk::introspect::device(rt).handle(), wgk::introspect::options(rt));
    auto t0 = Clock::now();
    Kernel k = hooks.reload(*fresh);
    k.call(refs, o);
    fresh->waitIdle();
    m.coldMs = usSince(t0) / 1e3;
  }

  CallResult last;
  std::vector<std::vector<PassTiming>> passes;
  const std::vector<double> us = timeCalls(rt, kernel, buf, o, {}, timing, &last, &passes);
  m.variant = last.variant;
  m.selectedBy = last.selectedBy;
  m.gpuUsMedian = medianOf(us);
  m.gpuUsMin = minOf(us);
  m.passes = passMedians(passes);
  m.gbps = gbpsOf(m.bytes, m.gpuUsMedian);
  m.rooflineRatio = m.copyGbps > 0 ? m.gbps / m.copyGbps : 0;

  const int calls = scaledOverheadCalls(sel.overheadCalls, m.gpuUsMedian);
  if (calls > 0) {
    o.timestamps = false;
    m.overheadCalls = calls;
    std::vector<double> wall, cpu, early, late;
    wall.reserve(static_cast<size_t>(calls));
    cpu.reserve(static_cast<size_t>(calls));
    const ThreadUsage u0 = threadUsage();
    for (int i = 0; i < calls; ++i) {
      if (i && i % kDrainEvery == 0) rt.waitIdle();  // outside the timed call
      auto t0 = Clock::now();                        // the CPU-time reads sit inside the wall interval
      const double c0 = threadCpuUs();
      kernel.call(refs, o);
      cpu.push_back(threadCpuUs() - c0);
      wall.push_back(usSince(t0));
      // Position in the drain batch: calls right after a waitIdle against the second half of it
      // tell the host's own cost from back-pressure of work still queued on the device.
      const int pos = i % kDrainEvery;
      if (pos < 10) early.push_back(wall.back());
      if (pos >= kDrainEvery / 2) late.push_back(wall.back());
    }
    const ThreadUsage u1 = threadUsage();
    rt.waitIdle();
    m.wallUsMedian = medianOf(wall);
    m.hostCpuUsMedian = medianOf(cpu);
    m.wallUsMedianEarly = medianOf(early);
    m.wallUsMedianLate = late.empty() ? -1 : medianOf(late);
    m.hostVoluntarySwitches = u1.voluntary - u0.voluntary;  // includes the waitIdle drains
    m.hostInvoluntarySwitches = u1.involuntary - u0.involuntary;
  }
}

}  // namespace

void runBench(Runtime& rt, Kernel& kernel, const BenchSelection& sel, CopyRoofline& roofline, BenchRun& run,
              const BenchHooks& hooks, FmaRoofline* fma) {
  const auto& pkg = wgk::introspect::package(kernel);
  const std::string opId = pkg.manifest().id();
  const PackageSource& src = kernel.source();
  run.packages.push_back({opId, src.repo, src.revision, src.origin});
  package::BenchFile file = withContext("while reading bench.json of " + opId, [&] {
    return package::loadBenchFile((pkg.webgpuDir() / "bench.json").string());
  });
  const CaseTiming timing = caseTiming(sel, file);

  // Work list first, so progress knows the total.
  std::vector<std::pair<const package::BenchCase*, std::vector<std::string>>> work;
  size_t total = 0;
  for (const auto* c : selectCases(file, sel, opId)) {
    std::string skip;
    auto variants = benchVariants(kernel, *c, sel, &skip);
    if (variants.empty()) {
      BenchMeasurement m{opId, c->name, sel.variant, "", c->tags};
      m.skipped = skip;
      if (hooks.onResult) hooks.onResult(m);
      continue;  // a skip is not a measurement: it stays out of the evidence
    }
    total += variants.size();
    work.emplace_back(c, std::move(variants));
  }

  size_t done = 0;
  for (const auto& [c, variants] : work) {
    BenchMeasurement base{opId, c->name, "", "", c->tags};
    if (c->flops) base.flops = *c->flops;
    CaseBuffers buf;
    try {
      buf = prepareCase(rt, kernel, *c);
      base.bytes = buf.bytes;
      roofline.spinUp(sel.spinUpMs);
      if (c->flops && fma && sel.fmaRoofline && !fma->result()) {
        // Once per run, before the first compute case: the same clocks as its copy roofline.
        const FmaMeasurement& f =
            fma->measure(kFmaWarmup, std::clamp(timing.repeat, kFmaMinRepeat, 20), timing.warmupMs);
        if (hooks.onFmaRoofline) hooks.onFmaRoofline(f);
      }
      base.copyGbps = roofline.measure(base.bytes, timing.warmup, timing.repeat, timing.warmupMs).gbps;
    } catch (const Error& e) {
      for (const auto& v : variants) {
        BenchMeasurement m = base;
        m.variant = v;
        (isDeviceLimit(e) ? m.skipped : m.error) = isDeviceLimit(e) ? e.message() : e.what();
        if (hooks.progress) hooks.progress(c->name + (v.empty() ? "" : " " + v), done++, total);
        if (hooks.onResult) hooks.onResult(m);
        run.measurements.push_back(std::move(m));
      }
      continue;
    }
    for (const auto& v : variants) {
      if (hooks.progress) hooks.progress(c->name + (v.empty() ? "" : " " + v), done, total);
      BenchMeasurement m = base;
      m.variant = v;
      try {
        withContext("while benchmarking case '" + c->name + "' of " + opId,
                    [&] { measureVariant(rt, kernel, *c, buf, v, timing, sel, hooks, m); });
      } catch (const Error& e) {
        // A case larger than the device binds is skipped with the limit as the reason.
        if (isDeviceLimit(e))
          m.skipped = e.message();
        else
          m.error = e.what();
        rt.waitIdle();
      }
      if (m.flops >= 0 && m.error.empty() && m.skipped.empty()) {
        const ComputePeaks peaks = fma && fma->result() ? ComputePeaks::of(*fma->result()) : ComputePeaks{};
        m.compute = computeShare(m.flops, m.bytes, m.gpuUsMedian, m.copyGbps, computeDtype(*c), peaks);
      }
      m.isDefault = !m.variant.empty() && m.variant == buf.defaultVariant;
      ++done;
      if (hooks.onResult) hooks.onResult(m);
      run.measurements.push_back(std::move(m));
    }
    rt.waitIdle();  // the case's buffers go back to the pool only once the GPU is done with them
  }
  if (hooks.progress) hooks.progress("", done, total);
}

nlohmann::json evidenceJson(const BenchRun& run, const CopyRoofline& roofline, const DeviceProfile& device,
                            const std::string& wgkVersion, const FmaRoofline* fma) {
  nlohmann::json j;
  j["format"] = kEvidenceFormat;
  j["wgkVersion"] = wgkVersion;
  j["date"] = utcNow();
  j["host"] = hostInfo();
  j["device"] = toJson(device);
  j["packages"] = nlohmann::json::array();
  for (const auto& p : run.packages)
    j["packages"].push_back({{"op", p.op}, {"repo", p.repo}, {"revision", p.revision}, {"origin", p.origin}});
  j["roofline"] = nlohmann::json::array();
  for (const auto& [bytes, r] : roofline.all())
    j["roofline"].push_back({{"bytes", bytes},
                             {"gpuUsMedian", r.gpuUsMedian},
                             {"gpuUsMin", r.gpuUsMin},
                             {"chunks", r.chunks},
                             {"gbps", r.gbps},
                             {"kernel", r.kernel},
                             {"candidates", r.candidates}});
  if (fma && fma->result()) j["fmaRoofline"] = fma->result()->toJson();
  j["measurements"] = nlohmann::json::array();
  for (const auto& m : run.measurements) j["measurements"].push_back(m.toJson());
  return j;
}

}  // namespace wgk::harness

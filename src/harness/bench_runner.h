// Runs bench.json cases on the local device (`wgk bench`, `wgk tune`): inputs uploaded once as GPU
// tensors, outputs preallocated, GPU time from timestamp queries (median and min over the repeats
// after warm-up), bytes moved (package::bytesMoved), GB/s, and the ratio to the copy roofline
// measured in the same run on the same byte size (roofline.h). Also the cold time (load + plan +
// compile + first call in a fresh runtime on the same device) and host overhead (wall time per call
// with GPU-resident tensors and warm caches, timestamps off). Cases that declare `flops` also get
// TFLOPS and the shares of the FMA / matrix peaks measured in the same run (fma_roofline.h), and a
// label: compute-bound when their flops per byte exceed the device's ridge.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/fma_roofline.h"
#include "harness/roofline.h"
#include "package/test_spec.h"
#include "wgk/error.h"
#include "wgk/runtime.h"

namespace wgk::harness {

struct BenchSelection {
  std::string caseName;      // empty: every case
  std::string tag;           // empty: every tag
  std::string variant;       // force this variant (cases where it is not eligible are skipped)
  bool allVariants = false;  // every variant eligible for each case
  int repeat = -1;           // timed runs; -1: bench.json's report.iterations
  int warmup = -1;           // untimed runs first; -1: bench.json's report.warmup
  // Warm-up also lasts at least this long (wall time, calls queued back to back): GPUs drop their
  // clocks when idle and take tens of milliseconds to raise them again, so a count of warm-up
  // calls alone can leave the timed runs on idle clocks after a pause (measured on the H200: a
  // one-second gap while f16 inputs were generated on the host halved the next copy's GB/s).
  double warmupMs = 200;
  // Before each case (after its inputs are generated on the host, which can take seconds) the GPU
  // runs copies for this long: enough for the clocks to come back up (CopyRoofline::spinUp).
  double spinUpMs = 1000;
  // Calls timed for host overhead; 0 skips it. Scaled down for large cases (scaledOverheadCalls).
  int overheadCalls = 1000;
  bool cold = true;  // measure the cold first call
  // Measure the FMA rooflines (fma_roofline.h) before the first case that declares `flops`; off:
  // such cases still get TFLOPS, without shares of a peak or a label.
  bool fmaRoofline = true;
};

// One pass of a measured call (evidence "passes"): the median over the timed repeats of its GPU us
// (CallTimings::passes); a skipped pass (not dispatched) has 0.
struct BenchPass {
  std::string id;  // the plan's pass id ("block_stats", "group[3].pass")
  double gpuUsMedian = 0;
  bool skipped = false;
};

struct BenchMeasurement {
  std::string package, caseName, variant, selectedBy;
  std::vector<std::string> tags;
  bool isDefault = false;  // the variant the runtime picks for this case unforced (priority or tuning)
  uint64_t bytes = 0;
  double gpuUsMedian = 0, gpuUsMin = 0, gbps = 0;
  // Per pass in plan order; each is a median of its own, so their sum need not equal gpuUsMedian.
  std::vector<BenchPass> passes;
  double copyGbps = 0, rooflineRatio = 0;
  double coldMs = -1;        // -1: not measured
  double wallUsMedian = -1;  // -1: not measured
  // The same calls seen from the calling thread: its CPU time per call (median) and the context
  // switches over the loop. Wall time well above CPU time means the thread waited (voluntary
  // switches: it blocked, e.g. in the driver) or was descheduled (involuntary).
  double hostCpuUsMedian = -1;
  // Wall medians of the first 10 calls after each waitIdle drain and of each batch's second half.
  double wallUsMedianEarly = -1, wallUsMedianLate = -1;
  long hostVoluntarySwitches = -1, hostInvoluntarySwitches = -1;
  int overheadCalls = 0;  // calls the host overhead was timed over (after scaling)
  double flops = -1;      // bench.json's flops of one call; -1: the case declares none
  ComputeShare compute;   // TFLOPS, shares of the FMA / matrix peaks, ridge and label (flops only)
  std::string error;      // non-empty: the case failed on this variant (other fields unset)
  // Non-empty: the case cannot run here (a device limit, no eligible variant) and why; not a failure.
  std::string skipped;
  nlohmann::json toJson() const;
};

struct BenchPackage {
  std::string op, repo, revision, origin;
};

struct BenchRun {
  std::vector<BenchPackage> packages;
  std::vector<BenchMeasurement> measurements;
};

// Progress: called before each (case, variant) with its label, and the counts done / total.
using BenchProgress = std::function<void(const std::string& label, size_t done, size_t total)>;

// The bench.json cases the selection picks (Error(NotFound) for an unknown --case).
std::vector<const package::BenchCase*> selectCases(const package::BenchFile& file, const BenchSelection& sel,
                                                   const std::string& opId);
// Variant ids to run a case on: {""} (the planner's choice), the forced one, or every eligible
// one; empty with *skipReason set when none applies.
std::vector<std::string> benchVariants(Kernel& kernel, const package::BenchCase& c, const BenchSelection& sel,
                                       std::string* skipReason);

// Runs the selection of one loaded package and appends to `run`. Errors of one case/variant are
// recorded in its measurement (error) and the run goes on; setup errors (no timestamps) throw.
// `reload` loads the same package into a fresh runtime (for the cold time); null skips cold.
struct BenchHooks {
  std::function<Kernel(Runtime&)> reload;
  BenchProgress progress;
  std::function<void(const BenchMeasurement&)> onResult;
  std::function<void(const FmaMeasurement&)> onFmaRoofline;  // once, when the FMA rooflines are measured
};
// `fma`: where the FMA rooflines are measured (once per object, before the first case with flops);
// null: never (cases with flops get TFLOPS only).
void runBench(Runtime& rt, Kernel& kernel, const BenchSelection& sel, CopyRoofline& roofline, BenchRun& run,
              const BenchHooks& hooks = {}, FmaRoofline* fma = nullptr);

// The evidence files' "date" (UTC, ISO 8601) and "host" (hostname, os, cpu, cores).
std::string utcNow();
nlohmann::json hostInfo();

// The host-overhead loop's call count for a case whose call takes `gpuUs` on the GPU: `requested`,
// but no more than about two seconds of GPU time (at least 10 calls, or `requested` if fewer), so
// a large case on a slow device (lavapipe) does not spend minutes there.
int scaledOverheadCalls(int requested, double gpuUs);

// Whether an error says the case exceeds a device limit (binding or buffer size): such a case is
// skipped with the error's message as the reason, not failed.
bool isDeviceLimit(const Error& e);

// Checks the selection against a package before any measuring (unknown --case: Error(NotFound))
// and returns the names of the cases it picks.
std::vector<std::string> checkSelection(Kernel& kernel, const BenchSelection& sel);
// The package's variant ids (for table widths).
std::vector<std::string> variantIds(Kernel& kernel);

// The evidence document (docs/benchmarks.md, docs/formats.md). Version 2 spells every key in
// camelCase; version 1 (snake_case numbers) is still read by `wgk report`.
inline constexpr const char* kEvidenceFormat = "wgk-bench/2";
// "fmaRoofline" is written when `fma` has measured (a run with a case that declares flops).
nlohmann::json evidenceJson(const BenchRun& run, const CopyRoofline& roofline, const DeviceProfile& device,
                            const std::string& wgkVersion, const FmaRoofline* fma = nullptr);
}  // namespace wgk::harness

// Autotuning (`wgk tune`): times every eligible variant of a package on each bench case — at the
// manifest's tunables and in a bounded search over its tunables — and records the fastest (variant, tunables)
// pair in a per-device TuningTable (src/runtime/tuning.h). Only pairs the planner found eligible
// for the case's request are timed, so the table never names an ineligible one (and the planner
// ignores a preference that is not eligible anyway).
//
// The search, per bench case: every eligible variant at the manifest's tunables (runBench with all
// variants), then a coordinate search over every numeric or bool tunable of the manifest
// (thresholds that move a case to another variant included): in each round, each tunable in turn
// at its candidate values (a workgroup size: 32 ... 1024 up to
// min(maxComputeInvocationsPerWorkgroup, maxComputeWorkgroupSizeX); another integer n > 0: n/4,
// n/2, 2n, 4n; 0: 1, 4, 16; a float: half and double; a bool: the other value), combined with the
// best setting found so far, on every variant eligible with that setting. A setting whose plan
// (rendered WGSL, dispatch, uniforms, intermediates) is identical to one already timed for that
// variant runs the same kernel and is not timed again (most thresholds change nothing for a given
// shape). The budget: TuneOptions::rounds rounds (a round that improves nothing ends the search)
// and at most TuneOptions::maxTimings timed settings per case; the outcome's detail says how many
// were timed and whether the budget ran out. Same timing as bench: warm-up calls (a count and a
// minimum duration), then the median GPU time (timestamps) of the repeats.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <functional>

#include <nlohmann/json.hpp>

#include "harness/bench_runner.h"
#include "runtime/tuning.h"

namespace wgk::harness {

struct TuneOutcome {
  std::string caseName, variant;  // variant empty: the case could not be tuned (see detail)
  nlohmann::json tunables = nlohmann::json::object();  // the winner's tunables; empty: the manifest's
  double gbps = 0;
  std::string detail;  // candidates "a 3010, a WORKGROUP_SIZE=128 3105, b 2950" or why nothing was recorded
};

struct TuneOptions {
  bool searchTunables = true;  // also search the tunables (`wgk tune --no-tunables`: false)
  int rounds = 2;              // coordinate-search rounds (`--rounds`)
  int maxTimings = 64;         // timed settings per case at most (`--budget`)
  // Called with each case's outcome as soon as it is known (`wgk tune` prints it then).
  std::function<void(const TuneOutcome&)> onOutcome;
};

// Benchmarks the selected cases as above (no cold or overhead timing) and sets one entry per case
// that measured; returns a line per case. `table` must be for this device (its deviceKey is set
// when empty; Error(InvalidArgument) when it names another device).
std::vector<TuneOutcome> tunePackage(Runtime& rt, Kernel& kernel, BenchSelection sel, CopyRoofline& roofline,
                                     runtime::TuningTable& table, const BenchHooks& hooks = {},
                                     const TuneOptions& options = {});

// The signature the runtime computes for a call with these inputs and attributes (kernel_call.cpp
// builds its request from the call's tensors and attributes only, never from `absent`).
std::string benchCaseSignature(const package::BenchCase& c);

// The tunables the search varies: every numeric or bool tunable of the manifest, in its order.
std::vector<std::string> searchedTunables(const package::Manifest& m);
// The values tried for one tunable instead of its manifest value (see above).
std::vector<expr::Value> tunableCandidates(const std::string& name, const expr::Value& manifestValue,
                                           const DeviceProfile& device);
// Workgroup sizes to try instead of `current` on this device (see above), ascending.
std::vector<int64_t> workgroupCandidates(const expr::Value& current, const DeviceProfile& device);
// How a timing is keyed in TuningEntry::candidates: "vec4_bias", "vec4_bias WORKGROUP_SIZE=128".
std::string candidateKey(const std::string& variant, const nlohmann::json& tunables);

}  // namespace wgk::harness

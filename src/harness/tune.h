// Autotuning (`wgk tune`): times every eligible variant of a package on each bench case — at the
// manifest's tunables and at other workgroup sizes — and records the fastest (variant, tunables)
// pair in a per-device TuningTable (src/runtime/tuning.h). Only pairs the planner found eligible
// for the case's request are timed, so the table never names an ineligible one (and the planner
// ignores a preference that is not eligible anyway).
//
// The search, per bench case: every eligible variant at the manifest's tunables (runBench with all
// variants), then one tunable at a time (no cross product) — each numeric tunable whose name
// contains "workgroup" (any case) at 32, 64, 128, 256, 512 and 1024, skipping its manifest value and
// values above min(maxComputeInvocationsPerWorkgroup, maxComputeWorkgroupSizeX) — on every variant
// eligible with that value. A setting whose plan (rendered WGSL, dispatch, uniforms, intermediates)
// is identical to one already timed for that variant runs the same kernel and is not timed again
// (e.g. when a manifest clamps the workgroup size to the row length). Same timing as bench:
// warm-up calls (a count and a minimum duration), then the median GPU time (timestamps) of the
// repeats.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
  bool searchTunables = true;  // also time workgroup-size tunables (`wgk tune --no-tunables`: false)
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

// The tunables the search varies: numeric ones whose name contains "workgroup" (case-insensitive).
std::vector<std::string> searchedTunables(const package::Manifest& m);
// Workgroup sizes to try instead of `current` on this device (see above), ascending.
std::vector<int64_t> workgroupCandidates(const expr::Value& current, const DeviceProfile& device);
// How a timing is keyed in TuningEntry::candidates: "vec4_bias", "vec4_bias WORKGROUP_SIZE=128".
std::string candidateKey(const std::string& variant, const nlohmann::json& tunables);

}  // namespace wgk::harness

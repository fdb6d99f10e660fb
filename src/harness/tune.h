// Autotuning (`wgk tune`): times every eligible variant of a package on each bench case and records
// the fastest in a per-device TuningTable (src/runtime/tuning.h). Only variants the planner found
// eligible for the case's request are timed, so the table never names an ineligible one (and the
// planner ignores a preference that is not eligible anyway).
#pragma once

#include <string>
#include <vector>

#include "harness/bench_runner.h"
#include "runtime/tuning.h"

namespace wgk::harness {

struct TuneOutcome {
  std::string caseName, variant;  // variant empty: the case could not be tuned (see detail)
  double gbps = 0;
  std::string detail;  // candidates "a 3010, b 2950" or why nothing was recorded
};

// Benchmarks every eligible variant of every selected case (no cold or overhead timing) and sets
// one entry per case whose variants measured; returns a line per case. `table` must be for this
// device (its deviceKey is set when empty; Error(InvalidArgument) when it names another device).
std::vector<TuneOutcome> tunePackage(Runtime& rt, Kernel& kernel, BenchSelection sel, CopyRoofline& roofline,
                                     runtime::TuningTable& table, const BenchHooks& hooks = {});

// The signature the runtime computes for a call with these inputs and attributes (kernel_call.cpp
// builds its request from the call's tensors and attributes only, never from `absent`).
std::string benchCaseSignature(const package::BenchCase& c);

}  // namespace wgk::harness

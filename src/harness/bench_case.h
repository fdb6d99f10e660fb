// The pieces of timing one bench.json case that `wgk bench` (bench_runner.cpp) and `wgk tune`
// (tune.cpp) share: the case's request, its GPU tensors, the warm-up and timing rule, GB/s.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "expr/value.h"
#include "harness/bench_runner.h"
#include "plan/plan.h"

namespace wgk::harness {

using Tunables = std::map<std::string, expr::Value>;

// The request a call with the case's tensors and attributes makes (attributes round-tripped as a
// call passes them, so tuning signatures match byte for byte; no `absent`, as in a call).
plan::PlanRequest benchCaseRequest(const package::BenchCase& c);

// GB/s of `bytes` in `us` microseconds; a zero time (below timestamp resolution) counts as 1 ns.
double gbpsOf(uint64_t bytes, double us);

// One case's GPU tensors: inputs uploaded once, outputs preallocated; the bytes the op must move
// and the variant the planner picks for it unforced.
struct CaseBuffers {
  std::map<std::string, DeviceTensor> inputs, outputs;
  uint64_t bytes = 0;
  std::string defaultVariant;
  std::map<std::string, TensorRef> refs() const;
};
CaseBuffers prepareCase(Runtime& rt, Kernel& kernel, const package::BenchCase& c);
// A call of the case on its buffers: its attributes, `variant` forced (empty: the planner's pick),
// outputs written into the preallocated GPU tensors.
CallOptions caseCallOptions(const package::BenchCase& c, const CaseBuffers& buf, const std::string& variant);

// Warm-up calls and timed repeats: bench.json's report values unless the selection sets them.
struct CaseTiming {
  int warmup = 0, repeat = 1;
  double warmupMs = 0;
};
CaseTiming caseTiming(const BenchSelection& sel, const package::BenchFile& file);  // Error: repeat < 1

// Times calls with `options` (and tunable overrides): untimed calls queued back to back until both
// timing.warmup calls and timing.warmupMs of wall time have passed (so the GPU runs at working
// clocks), then timing.repeat calls with timestamps. Returns each repeat's GPU us; *last gets the
// last timed call's result, *passes (when given) each repeat's CallTimings::passes.
std::vector<double> timeCalls(Runtime& rt, Kernel& kernel, const CaseBuffers& buf, CallOptions options,
                              const Tunables& tunables, const CaseTiming& timing, CallResult* last,
                              std::vector<std::vector<PassTiming>>* passes = nullptr);

// Per pass, the median over the repeats of its GPU us (BenchMeasurement::passes): the passes of
// the first repeat, in plan order; empty when the repeats do not list the same pass ids.
std::vector<BenchPass> passMedians(const std::vector<std::vector<PassTiming>>& repeats);

// Calls between two waits when calls are queued without timestamps: the queue would otherwise grow
// without bound.
constexpr int kDrainEvery = 100;

}  // namespace wgk::harness

// The unbatched mode of a chain and the single-call timings (chain_internal.h); the batched and
// replayed modes are in chain_batch_modes.cpp.
#include <algorithm>
#include <chrono>

#include "harness/bench_case.h"
#include "harness/chain_internal.h"
#include "harness/chain_stats.h"
#include "wgk/error.h"

namespace wgk::harness::chain {
namespace {

void callOnce(Call& c) {
  c.kernel.call(c.inputs, c.options);
}

}  // namespace

ChainModeResult runUnbatched(Runtime& rt, const Builder& build, int64_t calls, const ChainOptions& options,
                             std::vector<HostTensor>* after, std::vector<std::string>* variants,
                             std::vector<HostTensor>* outputs) {
  State s = build(rt);
  rt.waitIdle();
  const CacheStats before = rt.cacheStats();
  // The warm-up repetition: compiles, plans and fills the caches; its first cycle names the
  // variants the planner picks.
  for (int64_t i = 0; i < calls; ++i) {
    Call& c = s.cycle[static_cast<size_t>(i) % s.cycle.size()];
    if (variants && i < static_cast<int64_t>(s.cycle.size()))
      variants->push_back(c.kernel.call(c.inputs, c.options).variant);
    else
      callOnce(c);
  }
  rt.waitIdle();
  Repetitions reps;
  for (int r = 0; r < options.repeat; ++r) {
    const auto t0 = Clock::now();
    for (int64_t i = 0; i < calls; ++i) callOnce(s.cycle[static_cast<size_t>(i) % s.cycle.size()]);
    const double submitUs = usSince(t0);
    rt.waitIdle();
    reps.add(submitUs, usSince(t0));
  }
  ChainModeResult m = reps.result(calls);
  // Deferred (RuntimeOptions::deferCalls): the runtime's flushes; else one submit per call.
  const uint64_t flushes = rt.cacheStats().flushes - before.flushes;
  m.submits = flushes ? static_cast<int64_t>(flushes) / (options.repeat + 1) : calls;
  countAllocations(m, rt, before, calls * (options.repeat + 1));
  if (after) *after = readBack(rt, s);
  if (outputs) *outputs = readOutputs(rt, s);
  return m;
}

void timeSingleCalls(Runtime& rt, const Builder& build, const ChainOptions& options, ChainResult& r) {
  State s = build(rt);
  for (auto& c : s.cycle) callOnce(c);  // warm (the unbatched mode ran these already)
  rt.waitIdle();
  std::vector<double> one, withWait;
  for (int i = 0; i < options.warmCalls; ++i) {
    // Drained now and then, outside the timed call, so the queue stays short.
    if (i % kDrainEvery == kDrainEvery - 1) rt.waitIdle();
    Call& c = s.cycle[static_cast<size_t>(i) % s.cycle.size()];
    const auto t0 = Clock::now();
    callOnce(c);
    one.push_back(usSince(t0));
  }
  rt.waitIdle();
  for (int i = 0; i < options.callWaitCalls; ++i) {
    Call& c = s.cycle[static_cast<size_t>(i) % s.cycle.size()];
    const auto t0 = Clock::now();
    callOnce(c);
    rt.waitIdle();
    withWait.push_back(usSince(t0));
  }
  r.warmCallUsMedian = median(one);
  r.callWaitUsMedian = median(withWait);
}

}  // namespace wgk::harness::chain

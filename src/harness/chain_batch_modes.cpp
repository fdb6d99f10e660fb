// The batched and replayed modes of a chain (chain_internal.h), over wgk::Batch and wgk::Graph.
#include "harness/chain_internal.h"
#include "harness/chain_stats.h"
#include "wgk/batch.h"
#include "wgk/error.h"

namespace wgk::harness::chain {
namespace {

// One repetition: `calls` calls recorded into batches of batchSize (0: one batch) and submitted.
// Returns the number of submits.
int64_t submitBatches(Runtime& rt, State& s, int64_t calls, int64_t batchSize) {
  int64_t submits = 0;
  Batch b = rt.batch();
  for (int64_t i = 0; i < calls; ++i) {
    Call& c = s.cycle[static_cast<size_t>(i) % s.cycle.size()];
    b.call(c.kernel, c.inputs, c.options);
    if (batchSize > 0 && static_cast<int64_t>(b.size()) == batchSize) {
      b.submit();
      ++submits;
    }
  }
  if (b.size() > 0) {
    b.submit();
    ++submits;
  }
  return submits;
}

}  // namespace

ChainModeResult runBatched(Runtime& rt, const Builder& build, int64_t calls, const ChainOptions& options,
                           std::vector<HostTensor>* after) {
  State s = build(rt);
  rt.waitIdle();
  const CacheStats before = rt.cacheStats();
  submitBatches(rt, s, calls, options.batchSize);  // warm-up: plans, pipelines, pools
  rt.waitIdle();
  Repetitions reps;
  int64_t submits = 0;
  for (int r = 0; r < options.repeat; ++r) {
    const auto t0 = Clock::now();
    submits = submitBatches(rt, s, calls, options.batchSize);
    const double submitUs = usSince(t0);
    rt.waitIdle();
    reps.add(submitUs, usSince(t0));
  }
  ChainModeResult m = reps.result(calls);
  m.submits = submits;
  countAllocations(m, rt, before, calls * (options.repeat + 1));
  if (after) *after = readBack(rt, s);
  return m;
}

ChainModeResult runReplayed(Runtime& rt, const Builder& build, int64_t calls, const ChainOptions& options,
                            std::vector<HostTensor>* after) {
  State s = build(rt);
  rt.waitIdle();
  const CacheStats before = rt.cacheStats();
  const auto tc = Clock::now();
  Graph g = rt.capture([&](Batch& b) {
    for (int64_t i = 0; i < calls; ++i) {
      Call& c = s.cycle[static_cast<size_t>(i) % s.cycle.size()];
      b.call(c.kernel, c.inputs, c.options);
    }
  });
  const double captureUs = usSince(tc);
  g.replay();  // warm-up: the same number of calls as the other modes' warm-up repetition
  rt.waitIdle();
  Repetitions reps;
  for (int r = 0; r < options.repeat; ++r) {
    const auto t0 = Clock::now();
    g.replay();
    const double submitUs = usSince(t0);
    rt.waitIdle();
    reps.add(submitUs, usSince(t0));
  }
  ChainModeResult m = reps.result(calls);
  m.submits = 1;
  m.captureMs = captureUs / 1e3;
  m.dispatches = static_cast<int64_t>(g.dispatches());
  countAllocations(m, rt, before, calls * (options.repeat + 1));
  if (after) *after = readBack(rt, s);
  return m;
}

}  // namespace wgk::harness::chain

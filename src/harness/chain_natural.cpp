// The natural modes of a chain (chain_internal.h): the chain's cycle written as a user writes a
// decode loop. No caller-given outputs: each call returns runtime-allocated DeviceTensors, a call
// reads the newest output that the ping-pong modes' buffers would have handed it (a reshaped view
// where its shape differs), and only the newest output of each call is held. Unbatched: plain
// Kernel::calls (deferred by the runtime); batched: wgk::Batch; replayed: one Graph of the calls,
// each replay fed the newest outputs (Graph::replay with device tensors).
#include <map>
#include <utility>

#include "harness/chain_internal.h"
#include "harness/chain_stats.h"
#include "wgk/batch.h"
#include "wgk/error.h"

namespace wgk::harness::chain {
namespace {

using Key = std::pair<size_t, std::string>;  // (call of the cycle, output name)

// Where an input of a cycle call comes from: the most recent earlier call (cyclically) whose
// ping-pong output buffer it reads, at `delta` bytes into it; none: a buffer no call writes.
struct Source {
  bool fed = false;
  Key from;
  uint64_t delta = 0;
};

struct Natural {
  State& s;
  std::vector<std::map<std::string, Source>> sources;  // per cycle call, per input
  std::map<Key, DeviceTensor> held;                    // the newest output of each call

  explicit Natural(State& state) : s(state), sources(state.cycle.size()) {
    const size_t n = s.cycle.size();
    for (size_t k = 0; k < n; ++k)
      for (const auto& [name, ref] : s.cycle[k].inputs) {
        if (ref.onHost()) continue;
        for (size_t d = 1; d <= n && !sources[k][name].fed; ++d) {
          const size_t j = (k + n - d) % n;
          for (const auto& [out, g] : s.cycle[j].options.outputs)
            if (g.buffer == ref.gpu().buffer && g.offset <= ref.gpu().offset) {
              sources[k][name] = {true, {j, out}, ref.gpu().offset - g.offset};
              break;
            }
        }
      }
  }
  // The input as the natural loop passes it: the newest output it reads, else the chain's buffer.
  TensorRef input(size_t k, const std::string& name, const TensorRef& ref) const {
    const Source& src = sources[k].at(name);
    if (!src.fed) return ref;
    auto it = held.find(src.from);
    if (it == held.end()) return ref;  // its producer has not run yet: the initial contents
    GpuTensor g = ref.gpu();
    g.buffer = it->second.view().buffer;
    g.offset = it->second.view().offset + src.delta;
    return g;  // a view: `held` keeps the tensor until its producer runs again
  }
  std::map<std::string, TensorRef> inputs(size_t k) const {
    std::map<std::string, TensorRef> in;
    for (const auto& [name, ref] : s.cycle[k].inputs) in.emplace(name, input(k, name, ref));
    return in;
  }
  static CallOptions options(const Call& c) {
    CallOptions o = c.options;
    o.outputs.clear();
    o.placement = OutputPlacement::Device;
    return o;
  }
  void keep(size_t k, std::map<std::string, DeviceTensor>&& out) {
    for (auto& [name, t] : out) held[{k, name}] = std::move(t);
  }
  // Call i of a run through `call(kernel, inputs, options)`.
  template <class CallFn>
  void step(int64_t i, CallFn&& call) {
    const size_t k = static_cast<size_t>(i) % s.cycle.size();
    Call& c = s.cycle[k];
    keep(k, call(c.kernel, inputs(k), options(c)));
  }
  // The cycle's outputs in the order readOutputs gives the ping-pong state's.
  std::vector<HostTensor> outputs(Runtime& rt) const {
    rt.waitIdle();
    std::vector<HostTensor> out;
    for (size_t k = 0; k < s.cycle.size(); ++k)
      for (const auto& [name, g] : s.cycle[k].options.outputs) {
        auto it = held.find({k, name});
        if (it == held.end())
          throw Error(ErrorCode::Internal, "natural chain: output '" + name + "' missing");
        out.push_back(rt.download(it->second));
      }
    return out;
  }
};

std::map<std::string, DeviceTensor> single(Kernel& k, const std::map<std::string, TensorRef>& in,
                                           const CallOptions& o) {
  return k.call(in, o).device;
}

ChainModeResult unbatched(Runtime& rt, Natural& nat, int64_t calls, const ChainOptions& options) {
  Repetitions reps;
  for (int r = -1; r < options.repeat; ++r) {  // r = -1: the warm-up repetition
    const auto t0 = Clock::now();
    for (int64_t i = 0; i < calls; ++i) nat.step(i, single);
    const double submitUs = usSince(t0);
    rt.waitIdle();
    if (r >= 0) reps.add(submitUs, usSince(t0));
  }
  return reps.result(calls);
}

ChainModeResult batched(Runtime& rt, Natural& nat, int64_t calls, const ChainOptions& options) {
  Repetitions reps;
  int64_t submits = 0;
  for (int r = -1; r < options.repeat; ++r) {
    const auto t0 = Clock::now();
    Batch b = rt.batch();
    auto call = [&b](Kernel& k, const std::map<std::string, TensorRef>& in, const CallOptions& o) {
      return b.call(k, in, o);
    };
    submits = 0;
    for (int64_t i = 0; i < calls; ++i) {
      nat.step(i, call);
      if (options.batchSize > 0 && static_cast<int64_t>(b.size()) == options.batchSize) b.submit(), ++submits;
    }
    if (b.size() > 0) b.submit(), ++submits;
    const double submitUs = usSince(t0);
    rt.waitIdle();
    if (r >= 0) reps.add(submitUs, usSince(t0));
  }
  ChainModeResult m = reps.result(calls);
  m.submits = submits;
  return m;
}

// After the capture, the graph inputs the first cycle read from the chain's initial buffers and
// that a later call produces: each replay binds them to the newest outputs, so the chain goes on.
std::vector<std::pair<std::string, Key>> feeds(const Graph& g, const Natural& nat) {
  std::vector<std::pair<std::string, Key>> out;
  for (const GraphInput& gi : g.inputs())
    for (size_t k = 0; k < nat.s.cycle.size(); ++k)
      for (const auto& [name, ref] : nat.s.cycle[k].inputs) {
        const Source& src = nat.sources[k].at(name);
        if (src.fed && src.delta == 0 && ref.gpu().buffer == gi.captured.buffer &&
            ref.gpu().offset == gi.captured.offset)
          out.emplace_back(gi.name, src.from);
      }
  return out;
}

ChainModeResult replayed(Runtime& rt, Natural& nat, int64_t calls, const ChainOptions& options) {
  const auto tc = Clock::now();
  Graph g = rt.capture([&](Batch& b) {
    auto call = [&b](Kernel& k, const std::map<std::string, TensorRef>& in, const CallOptions& o) {
      return b.call(k, in, o);
    };
    for (int64_t i = 0; i < calls; ++i) nat.step(i, call);
  });
  const double captureUs = usSince(tc);
  const auto fed = feeds(g, nat);
  std::map<std::string, TensorRef> next;
  Repetitions reps;
  for (int r = -1; r < options.repeat; ++r) {
    const auto t0 = Clock::now();
    g.replay(next);
    const double submitUs = usSince(t0);
    rt.waitIdle();
    if (r >= 0) reps.add(submitUs, usSince(t0));
    next.clear();
    for (const auto& [name, from] : fed) {
      GpuTensor v = nat.held.at(from).view();
      for (const GraphInput& gi : g.inputs())
        if (gi.name == name) v.dtype = gi.dtype, v.shape = gi.shape;
      next.emplace(name, TensorRef(v));
    }
  }
  ChainModeResult m = reps.result(calls);
  m.submits = 1;
  m.captureMs = captureUs / 1e3;
  m.dispatches = static_cast<int64_t>(g.dispatches());
  return m;
}

}  // namespace

std::vector<HostTensor> readOutputs(Runtime& rt, const State& s) {
  rt.waitIdle();
  std::vector<HostTensor> out;
  for (const Call& c : s.cycle)
    for (const auto& [name, g] : c.options.outputs) out.push_back(rt.download(g));
  return out;
}

ChainModeResult runNatural(Runtime& rt, const Builder& build, int64_t calls, const ChainOptions& options,
                           NaturalMode mode, std::vector<HostTensor>* after) {
  State s = build(rt);
  Natural nat(s);
  rt.waitIdle();
  const CacheStats before = rt.cacheStats();
  ChainModeResult m = mode == NaturalMode::Unbatched ? unbatched(rt, nat, calls, options)
                      : mode == NaturalMode::Batched ? batched(rt, nat, calls, options)
                                                     : replayed(rt, nat, calls, options);
  if (mode == NaturalMode::Unbatched)  // the runtime's flushes of deferred calls, per repetition
    m.submits = static_cast<int64_t>(rt.cacheStats().flushes - before.flushes) / (options.repeat + 1);
  countAllocations(m, rt, before, calls * (options.repeat + 1));
  if (after) *after = nat.outputs(rt);
  return m;
}

}  // namespace wgk::harness::chain

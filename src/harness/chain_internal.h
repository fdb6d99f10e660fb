// Inside `wgk chain`: the buffers and calls of one chain (chain_build.cpp) and the modes that run
// them (chain_modes.cpp). Not part of any public header.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/chain_runner.h"
#include "package/test_spec.h"
#include "wgk/runtime.h"

namespace wgk::harness::chain {

// One call of a cycle, with everything prebuilt so the timed loop builds nothing: the input map
// and the options (outputs written into the chain's buffers).
struct Call {
  Kernel kernel;
  std::map<std::string, TensorRef> inputs;
  CallOptions options;
};

// The buffers of one chain (kept alive here) and its cycle of calls. Call i of a run is
// cycle[i % cycle.size()].
struct State {
  std::vector<DeviceTensor> buffers;
  std::vector<Call> cycle;
};

// Builds a fresh State (every mode starts from the same initial contents).
using Builder = std::function<State(Runtime&)>;

// A bench case fed back to itself; *fedBack tells whether any output feeds an input.
Builder caseBuilder(Kernel& kernel, const package::BenchCase& c, bool* fedBack);
// FastGelu -> RMSNormalization -> GemmaRotaryEmbedding -> Add at `hidden` (float16).
Builder decodeStepBuilder(DecodeStepKernels& k, int64_t hidden);

// Every buffer of the state read back, in order (the bit-identity check across modes).
std::vector<HostTensor> readBack(Runtime& rt, const State& s);

// The modes: each builds its own State, warms up, times options.repeat repetitions of `calls`
// calls and leaves the final contents in *after.
ChainModeResult runUnbatched(Runtime& rt, const Builder& build, int64_t calls, const ChainOptions& options,
                             std::vector<HostTensor>* after, std::vector<std::string>* variants,
                             std::vector<HostTensor>* outputs = nullptr);
ChainModeResult runBatched(Runtime& rt, const Builder& build, int64_t calls, const ChainOptions& options,
                           std::vector<HostTensor>* after);
ChainModeResult runReplayed(Runtime& rt, const Builder& build, int64_t calls, const ChainOptions& options,
                            std::vector<HostTensor>* after);
// The natural modes (chain_natural.cpp): the cycle with runtime-allocated outputs, each call
// reading the newest output its ping-pong buffer would hold, the caller keeping only the newest.
// *after: the outputs of each call of the cycle's last run (readOutputs' order).
enum class NaturalMode { Unbatched, Batched, Replayed };
ChainModeResult runNatural(Runtime& rt, const Builder& build, int64_t calls, const ChainOptions& options,
                           NaturalMode mode, std::vector<HostTensor>* after);
// The caller-given outputs of each call of the cycle, read back (call by call, by name).
std::vector<HostTensor> readOutputs(Runtime& rt, const State& s);

// Host time of single warm calls, one by one (median), and of one call plus a wait (median).
void timeSingleCalls(Runtime& rt, const Builder& build, const ChainOptions& options, ChainResult& r);

}  // namespace wgk::harness::chain

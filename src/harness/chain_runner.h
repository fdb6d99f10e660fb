// Chains of small kernel calls (`wgk chain`, issue 14): the per-op cost of N back-to-back calls on
// GPU-resident tensors at decode sizes, where host time, not GPU time, decides the speed.
//
// A chain repeats a short cycle of calls whose outputs feed the next call's inputs (ping-pong
// buffers, so no call reads and writes one buffer). For a bench case the cycle is the case's op
// fed back to itself: each output goes to the first input of the same dtype and shape (none:
// every call reads the same inputs). The decode step is FastGelu -> RMSNormalization ->
// GemmaRotaryEmbedding -> Add, the Add's output feeding the next FastGelu.
//
// Each chain runs in three modes, every mode on fresh buffers with the same number of calls:
//   unbatched  each call a Kernel::call of its own (deferred by the runtime), one wait at the end
//   batched    the calls recorded into wgk::Batch objects of batchSize calls (0: all N in one)
//   replayed   one wgk::Graph captured from the N calls, each repetition one replay
// and the same three "natural": no caller-given outputs, each call's runtime-allocated outputs
// feeding the next calls, the caller holding only the newest (chain_natural.cpp)
// and reports, over `repeat` repetitions after one untimed warm-up repetition, the median per-op
// time (wall clock from the first call to the end of the wait, / N) and the host part of it (the
// loop without the wait). Afterwards every buffer of the chain is read back and compared byte for
// byte with the unbatched mode's: batched and replayed work must equal single calls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wgk/runtime.h"

namespace wgk::harness {

struct ChainOptions {
  int64_t calls = 2000;    // calls per repetition (rounded up to whole cycles)
  int repeat = 5;          // timed repetitions per mode (median reported)
  int64_t batchSize = 0;   // calls per Batch in batched mode; 0: all of a repetition's calls
  int warmCalls = 200;     // single calls timed one by one (the warm-call host time), and
  int callWaitCalls = 20;  // calls each followed by a wait (one call's latency)
  std::string tag = "decode";
  std::string caseName;  // non-empty: only this bench case (then tag is ignored)
};

struct ChainModeResult {
  bool ran = false;
  std::string error;  // the mode failed (its numbers unset)
  double perOpUsMedian = -1, perOpUsMin = -1;
  double submitUsPerOpMedian = -1;  // host time of the loop (calls / recording / replay), per op
  double totalMsMedian = -1;        // one repetition, wall clock
  int64_t submits = 0;              // queue submissions per repetition (batched: batches)
  double captureMs = -1;            // replayed: Runtime::capture of the N calls
  int64_t dispatches = -1;          // replayed: compute dispatches per replay
  int bitIdentical = -1;            // 1/0: buffers equal the unbatched mode's; -1 not compared
  double allocsPerCall = -1;        // buffers the runtime's pool handed out per call (the mode's
                                    // whole run: warm-up, capture and repetitions)
  int64_t buffersCreated = -1;      // of those, new device allocations
  nlohmann::json toJson() const;
};

struct ChainResult {
  std::string name;      // "com.microsoft.FastGelu/peer_decode_1x16384_f16_bias", "decode_step/..."
  std::string caseName;  // the bench case, or the decode step's name
  std::vector<std::string> ops, tags, variants;  // variants: the planner's pick, per call of a cycle
  int64_t calls = 0;                             // per repetition
  int cycle = 1;                                 // calls per cycle
  bool fedBack = false;          // outputs feed the next call (false: every call reads the same inputs)
  double warmCallUsMedian = -1;  // host time of one warm Kernel::call (as `wgk overhead`)
  double callWaitUsMedian = -1;  // one call and a wait for it
  ChainModeResult unbatched, batched, replayed;
  // The natural modes: runtime-allocated outputs, the caller keeping only the newest (their
  // bitIdentical compares each call's last outputs with the unbatched mode's).
  ChainModeResult naturalUnbatched, naturalBatched, naturalReplayed;
  std::string error;  // the chain could not be set up (modes unset)
  nlohmann::json toJson() const;
};

// The kernels of the decode step (loaded by the caller).
struct DecodeStepKernels {
  Kernel fastGelu, rmsNorm, rotary, add;
};

// The selected cases of one loaded package (bench.json cases with options.tag, or caseName).
// Errors of one chain are recorded in its result; a caseName the package lacks throws NotFound.
std::vector<ChainResult> runCaseChains(Runtime& rt, Kernel& kernel, const ChainOptions& options);
// The decode step at hidden size `hidden` (a multiple of 256: heads of 256), float16.
ChainResult runDecodeStepChain(Runtime& rt, DecodeStepKernels& k, int64_t hidden,
                               const ChainOptions& options);

// The evidence document, format "wgk-chain/2" (docs/performance.md, "Decode chains").
nlohmann::json chainEvidenceJson(const std::vector<ChainResult>& results, const ChainOptions& options,
                                 const DeviceProfile& device, const std::string& wgkVersion);

// Issue 25's targets on the H200 (us per op; unbatched: single calls, deferred; call+wait: one warm
// call with its readback, wall time) and issue 14's warm call (us of host time).
struct ChainTargets {
  static constexpr double batched = 3, replayed = 2, unbatched = 4, warmCall = 5, callWait = 40;
};

}  // namespace wgk::harness

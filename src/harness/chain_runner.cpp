// `wgk chain`: chains of one bench case or of the decode step in every mode (chain_runner.h).
#include "harness/chain_runner.h"

#include <algorithm>
#include <filesystem>

#include "core/device_profile.h"
#include "harness/bench_runner.h"
#include "harness/chain_internal.h"
#include "package/package.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {

nlohmann::json measured(double v) {
  return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// Runs one mode, turning its wgk::Error into the mode's error (the chain goes on with the next).
template <class Fn>
ChainModeResult guarded(Runtime& rt, Fn&& fn) {
  try {
    return fn();
  } catch (const Error& e) {
    ChainModeResult m;
    m.error = e.what();
    try {
      rt.waitIdle();
    } catch (const Error&) {  // the mode's error is the one to report
    }
    return m;
  }
}

bool sameBytes(const std::vector<HostTensor>& a, const std::vector<HostTensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].byteSize() != b[i].byteSize() ||
        !std::equal(a[i].bytes().begin(), a[i].bytes().end(), b[i].bytes().begin()))
      return false;
  return true;
}

// The natural modes' outputs against the unbatched mode's caller-given output buffers. A port that
// stores a logical int64 as int32 returns an int32 tensor, while the caller's int64 buffer holds the
// same words at its start: those are compared.
bool sameOutputs(const std::vector<HostTensor>& want, const std::vector<HostTensor>& got) {
  if (want.size() != got.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    const auto a = want[i].bytes(), b = got[i].bytes();
    const bool sameType = want[i].dtype() == got[i].dtype();
    if (sameType ? a.size() != b.size() : a.size() < b.size()) return false;
    if (!std::equal(b.begin(), b.end(), a.begin())) return false;
  }
  return true;
}

ChainResult runChain(Runtime& rt, ChainResult r, const chain::Builder& build, const ChainOptions& options) {
  r.calls = (options.calls + r.cycle - 1) / r.cycle * r.cycle;
  std::vector<HostTensor> base, other, baseOutputs;
  r.unbatched = guarded(
      rt, [&] { return chain::runUnbatched(rt, build, r.calls, options, &base, &r.variants, &baseOutputs); });
  r.batched = guarded(rt, [&] { return chain::runBatched(rt, build, r.calls, options, &other); });
  if (r.unbatched.ran && r.batched.ran) r.batched.bitIdentical = sameBytes(base, other) ? 1 : 0;
  r.replayed = guarded(rt, [&] { return chain::runReplayed(rt, build, r.calls, options, &other); });
  if (r.unbatched.ran && r.replayed.ran) r.replayed.bitIdentical = sameBytes(base, other) ? 1 : 0;
  using chain::NaturalMode;
  for (auto [m, mode] : {std::pair{&r.naturalUnbatched, NaturalMode::Unbatched},
                         std::pair{&r.naturalBatched, NaturalMode::Batched},
                         std::pair{&r.naturalReplayed, NaturalMode::Replayed}}) {
    *m = guarded(rt, [&] { return chain::runNatural(rt, build, r.calls, options, mode, &other); });
    if (r.unbatched.ran && m->ran) m->bitIdentical = sameOutputs(baseOutputs, other) ? 1 : 0;
  }
  if (r.unbatched.ran) {
    try {
      chain::timeSingleCalls(rt, build, options, r);
    } catch (const Error& e) {
      r.error = std::string("timing single calls: ") + e.what();
    }
  }
  return r;
}

void checkOptions(const ChainOptions& o) {
  if (o.calls < 1) throw Error(ErrorCode::InvalidArgument, "--calls must be at least 1");
  if (o.repeat < 1) throw Error(ErrorCode::InvalidArgument, "--repeat must be at least 1");
  if (o.batchSize < 0) throw Error(ErrorCode::InvalidArgument, "--batch must not be negative");
  if (o.warmCalls < 1 || o.callWaitCalls < 1)
    throw Error(ErrorCode::InvalidArgument, "the single-call counts must be at least 1");
}

}  // namespace

nlohmann::json ChainModeResult::toJson() const {
  if (!ran) return {{"error", error.empty() ? "not run" : error}};
  nlohmann::json j = {{"perOpUsMedian", perOpUsMedian},
                      {"perOpUsMin", perOpUsMin},
                      {"submitUsPerOpMedian", submitUsPerOpMedian},
                      {"totalMsMedian", totalMsMedian},
                      {"submits", submits}};
  if (captureMs >= 0) j["captureMs"] = captureMs;
  if (dispatches >= 0) j["dispatches"] = dispatches;
  if (bitIdentical >= 0) j["bitIdentical"] = bitIdentical == 1;
  if (allocsPerCall >= 0) j["allocsPerCall"] = allocsPerCall;
  if (buffersCreated >= 0) j["buffersCreated"] = buffersCreated;
  return j;
}

nlohmann::json ChainResult::toJson() const {
  nlohmann::json j = {{"name", name},
                      {"case", caseName},
                      {"ops", ops},
                      {"tags", tags},
                      {"variants", variants},
                      {"calls", calls},
                      {"cycle", cycle},
                      {"fedBack", fedBack},
                      {"warmCallUsMedian", measured(warmCallUsMedian)},
                      {"callWaitUsMedian", measured(callWaitUsMedian)},
                      {"modes",
                       {{"unbatched", unbatched.toJson()},
                        {"batched", batched.toJson()},
                        {"replayed", replayed.toJson()},
                        {"naturalUnbatched", naturalUnbatched.toJson()},
                        {"naturalBatched", naturalBatched.toJson()},
                        {"naturalReplayed", naturalReplayed.toJson()}}}};
  if (!error.empty()) j["error"] = error;
  return j;
}

std::vector<ChainResult> runCaseChains(Runtime& rt, Kernel& kernel, const ChainOptions& options) {
  checkOptions(options);
  const std::string opId = kernel.source().opId;
  const std::string file = (wgk::introspect::package(kernel).webgpuDir() / "bench.json").string();
  const package::BenchFile bench = package::loadBenchFile(file);
  // --case names one case of one of the packages: the others have none to run.
  if (!options.caseName.empty() && !bench.findCase(options.caseName)) return {};
  BenchSelection sel;
  sel.caseName = options.caseName;
  sel.tag = options.caseName.empty() ? options.tag : "";
  std::vector<ChainResult> out;
  for (const package::BenchCase* c : selectCases(bench, sel, opId)) {
    ChainResult r;
    r.name = opId + "/" + c->name;
    r.caseName = c->name;
    r.ops = {opId};
    r.tags = c->tags;
    chain::Builder build;
    try {
      build = chain::caseBuilder(kernel, *c, &r.fedBack);
    } catch (const Error& e) {  // e.g. no variant for this case on this device
      r.error = e.what();
      out.push_back(std::move(r));
      continue;
    }
    r.cycle = r.fedBack ? 2 : 1;
    out.push_back(runChain(rt, std::move(r), build, options));
  }
  return out;
}

ChainResult runDecodeStepChain(Runtime& rt, DecodeStepKernels& k, int64_t hidden,
                               const ChainOptions& options) {
  checkOptions(options);
  ChainResult r;
  r.caseName = "decode_step_1x" + std::to_string(hidden) + "_f16";
  r.name = "decode_step/" + r.caseName;
  for (const Kernel* kernel : {&k.fastGelu, &k.rmsNorm, &k.rotary, &k.add})
    r.ops.push_back(kernel->source().opId);
  r.tags = {"decode"};
  r.cycle = 4;
  r.fedBack = true;
  const chain::Builder build = chain::decodeStepBuilder(k, hidden);
  return runChain(rt, std::move(r), build, options);
}

nlohmann::json chainEvidenceJson(const std::vector<ChainResult>& results, const ChainOptions& options,
                                 const DeviceProfile& device, const std::string& wgkVersion) {
  nlohmann::json j;
  j["format"] = "wgk-chain/2";
  j["wgkVersion"] = wgkVersion;
  j["date"] = utcNow();
  j["host"] = hostInfo();
  j["device"] = toJson(device);
  j["calls"] = options.calls;
  j["repeat"] = options.repeat;
  j["batchSize"] = options.batchSize;
  j["targets"] = {{"batchedUsPerOp", ChainTargets::batched},
                  {"replayedUsPerOp", ChainTargets::replayed},
                  {"unbatchedUsPerOp", ChainTargets::unbatched},
                  {"warmCallUs", ChainTargets::warmCall},
                  {"callWaitUs", ChainTargets::callWait}};
  j["chains"] = nlohmann::json::array();
  for (const auto& r : results) j["chains"].push_back(r.toJson());
  return j;
}

}  // namespace wgk::harness

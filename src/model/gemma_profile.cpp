// Gemma::profile: the decode step and a prefill block recorded as single calls with GPU
// timestamps, so each call's GPU time is known (a graph replay or a batch measures only the whole).
#include <algorithm>

#include "model/gemma_impl.h"
#include "wgk/error.h"

namespace wgk {
using namespace model;

namespace {

class ProfileRecorder final : public Recorder {
 public:
  std::map<std::string, DeviceTensor> call(const Kernel& kernel,
                                           const std::map<std::string, TensorRef>& inputs,
                                           const CallOptions& options = {}) override {
    CallOptions o = options;
    o.timestamps = true;
    o.placement = OutputPlacement::Device;
    Kernel k = kernel;  // a handle: Kernel::call is not const
    CallResult r = k.call(inputs, o);
    calls.push_back({k.source().opId, r.variant, r.timings.gpuUs});
    return std::move(r.device);
  }
  std::vector<ProfiledCall> calls;
};

}  // namespace

GemmaProfile GemmaImpl::profile(const std::vector<int64_t>& prompt) {
  checkPrompt(prompt);
  const int64_t T = std::min<int64_t>(static_cast<int64_t>(prompt.size()), block);
  if (T >= maxLen)
    throw Error(ErrorCode::InvalidArgument, "the profile's prefill block (" + std::to_string(T) +
                                                " tokens) leaves no cache position for a decode step (" +
                                                std::to_string(maxLen) + " positions)");
  GemmaProfile out;
  ProfileRecorder pre;
  withContext("while profiling a prefill block of " + std::to_string(T) + " tokens",
              [&] { recordPrefill(pre, prompt, 0, T); });
  out.prefillBlock = std::move(pre.calls);
  ProfileRecorder step;
  writeStepInputs(T);
  withContext("while profiling a decode step", [&] { recordDecodeStep(step); });
  out.decodeStep = std::move(step.calls);
  rt->waitIdle();
  return out;
}

}  // namespace wgk

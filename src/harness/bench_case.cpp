#include "harness/bench_case.h"

#include <algorithm>
#include <chrono>

#include "harness/roofline.h"
#include "runtime/attributes.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness {

plan::PlanRequest benchCaseRequest(const package::BenchCase& c) {
  plan::PlanRequest req;
  for (const auto& [name, t] : c.inputs) req.inputs[name] = {t.dtype, t.shape};
  req.attrs = runtime::toValues(runtime::fromValues(c.attrs));
  return req;
}

double gbpsOf(uint64_t bytes, double us) {
  return static_cast<double>(bytes) / std::max(us, 1e-3) / 1e3;
}

std::map<std::string, TensorRef> CaseBuffers::refs() const {
  std::map<std::string, TensorRef> r;
  for (const auto& [k, v] : inputs) r.emplace(k, TensorRef(v));
  return r;
}

CaseBuffers prepareCase(Runtime& rt, Kernel& kernel, const package::BenchCase& c) {
  CaseBuffers buf;
  auto host = package::materializeInputs(c);
  plan::Plan p = wgk::introspect::plan(kernel, benchCaseRequest(c), /*renderShaders=*/false);
  std::map<std::string, std::pair<DType, Shape>> outs;
  for (const auto& o : p.outputs) outs[o.name] = {o.dtype, o.shape};
  buf.bytes = package::bytesMoved(host, outs);
  buf.defaultVariant = p.variant;
  // Every tensor is bound whole: one larger than the device binds cannot run here. Checked before
  // any upload or roofline measurement, so `wgk bench` skips such a case at once (isDeviceLimit).
  const uint64_t maxBinding = rt.device().limit("maxStorageBufferBindingSize");
  auto check = [&](const std::string& what, const std::string& name, uint64_t bytes) {
    if (bytes > maxBinding)
      throw Error(ErrorCode::Unsupported, what + " '" + name + "' has " + std::to_string(bytes) +
                                              " bytes, more than the device's maxStorageBufferBindingSize (" +
                                              std::to_string(maxBinding) + ")");
  };
  for (const auto& [name, t] : host)
    check("input", name, static_cast<uint64_t>(t.numel()) * storageBytes(t.dtype()));
  for (const auto& [name, d] : outs)
    check("output", name, static_cast<uint64_t>(numel(d.second)) * storageBytes(d.first));
  for (const auto& [name, t] : host) buf.inputs.emplace(name, rt.upload(t));
  for (const auto& [name, d] : outs) buf.outputs.emplace(name, rt.allocate(d.first, d.second));
  return buf;
}

CallOptions caseCallOptions(const package::BenchCase& c, const CaseBuffers& buf, const std::string& variant) {
  CallOptions o;
  o.attrs = runtime::fromValues(c.attrs);
  o.variant = variant;
  o.placement = OutputPlacement::Device;
  for (const auto& [name, t] : buf.outputs) o.outputs[name] = t.view();
  return o;
}

CaseTiming caseTiming(const BenchSelection& sel, const package::BenchFile& file) {
  CaseTiming t;
  t.warmup = sel.warmup >= 0 ? sel.warmup : static_cast<int>(file.report.warmup);
  t.repeat = sel.repeat > 0 ? sel.repeat : static_cast<int>(file.report.iterations);
  t.warmupMs = sel.warmupMs;
  if (t.repeat < 1) throw Error(ErrorCode::InvalidArgument, "--repeat must be at least 1");
  return t;
}

std::vector<double> timeCalls(Runtime& rt, Kernel& kernel, const CaseBuffers& buf, CallOptions options,
                              const Tunables& tunables, const CaseTiming& timing, CallResult* last,
                              std::vector<std::vector<PassTiming>>* passes) {
  using Clock = std::chrono::steady_clock;
  const auto refs = buf.refs();
  options.timestamps = false;  // no wait per call: the warm-up calls queue back to back
  const auto warm0 = Clock::now();
  auto warmMs = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - warm0).count(); };
  for (int i = 0; i < timing.warmup || warmMs() < timing.warmupMs; ++i) {
    if (i && i % kDrainEvery == 0) rt.waitIdle();
    introspect::call(kernel, refs, options, tunables);
  }
  rt.waitIdle();

  options.timestamps = true;
  std::vector<double> us;
  for (int i = 0; i < timing.repeat; ++i) {
    CallResult r = introspect::call(kernel, refs, options, tunables);
    if (r.timings.gpuUs < 0)
      throw Error(ErrorCode::Unsupported, "the call returned no GPU time (timestamp-query?)");
    us.push_back(r.timings.gpuUs);
    if (passes) passes->push_back(r.timings.passes);
    if (last) *last = std::move(r);
  }
  return us;
}

std::vector<BenchPass> passMedians(const std::vector<std::vector<PassTiming>>& repeats) {
  std::vector<BenchPass> out;
  if (repeats.empty()) return out;
  const std::vector<PassTiming>& first = repeats.front();
  for (size_t k = 0; k < first.size(); ++k) {
    std::vector<double> us;
    for (const auto& r : repeats) {
      if (r.size() != first.size() || r[k].id != first[k].id) return {};
      us.push_back(r[k].gpuUs);
    }
    out.push_back({first[k].id, medianOf(us), first[k].skipped});
  }
  return out;
}

}  // namespace wgk::harness

// Kernels: planning with the plan cache, and turning a plan into GPU objects once per request key.
#include <algorithm>

#include "runtime/attributes.h"
#include "runtime/runtime_impl.h"
#include "wgk/error.h"

namespace wgk {
namespace {
constexpr size_t kMaxPreparedPlans = 64;

gpu::BindingKind bindingKindOf(package::BufferType t) {
  switch (t) {
    case package::BufferType::ReadOnlyStorage:
      return gpu::BindingKind::ReadOnlyStorage;
    case package::BufferType::Storage:
      return gpu::BindingKind::Storage;
    case package::BufferType::Uniform:
      return gpu::BindingKind::Uniform;
  }
  return gpu::BindingKind::Storage;
}
}  // namespace

void KernelImpl::applyTuning(plan::PlanRequest& request) const {
  if (const runtime::TuningTable* table = runtime_.tuning())
    runtime::applyTuning(*table, source_.opId, request);
}

plan::Plan KernelImpl::plan(const plan::PlanRequest& request, bool renderShaders) const {
  plan::PlanRequest r = request;
  applyTuning(r);
  plan::PlanOptions o;
  o.renderShaders = renderShaders;
  return planner_.plan(r, runtime_.profile(), o);  // Planner::plan adds "planning <op>" itself
}

std::shared_ptr<PreparedPlan> KernelImpl::prepare(const plan::PlanRequest& request) {
  runtime_.recoverIfLost();
  const std::string key =
      plan::requestKey(request, "") + "#device" + std::to_string(runtime_.deviceGeneration());
  {
    std::shared_lock lock(plansMutex_);
    if (auto it = plans_.find(key); it != plans_.end()) {
      ++runtime_.planHits;
      return it->second;
    }
  }
  ++runtime_.planMisses;
  auto prepared = std::make_shared<PreparedPlan>();
  prepared->plan = planner_.plan(request, runtime_.profile(), plan::PlanOptions{});  // adds "planning <op>"
  const plan::Plan& p = prepared->plan;
  {
    std::lock_guard gpuLock(runtime_.gpuMutex());
    for (const plan::PlannedPass& pass : p.passes) {
      PreparedPass pp;
      pp.planned = &pass;
      if (!pass.skipped) {
        std::vector<gpu::BindingKind> layout;
        for (const auto& b : pass.bindings) layout.push_back(bindingKindOf(b.type));
        pp.pipeline = withContext("compiling pass '" + pass.id + "' (" + pass.shader + ") of variant " +
                                      p.variant + " of " + source_.opId,
                                  [&] { return runtime_.pipelines().get(pass.wgsl, layout, pass.name); });
        pp.uniforms.resize(pass.bindings.size());
        for (size_t i = 0; i < pass.bindings.size(); ++i) {
          const auto& b = pass.bindings[i];
          if (b.kind != plan::BindingKind::Uniform) continue;
          pp.uniforms[i] = runtime_.device().createBuffer(
              std::max<uint64_t>(16, b.uniformBytes.size()),
              gpu::BufferUsage::Uniform | gpu::BufferUsage::CopyDst, pass.name + " params");
          runtime_.device().write(pp.uniforms[i].handle(), 0, b.uniformBytes.data(), b.uniformBytes.size());
        }
      }
      prepared->passes.push_back(std::move(pp));
    }
    for (const auto& im : p.intermediates)
      prepared->intermediates.emplace(
          im.id,
          runtime_.device().createBuffer(
              (std::max<uint64_t>(4, im.bytes) + 3) / 4 * 4,
              im.zeroInit ? gpu::BufferUsage::Storage | gpu::BufferUsage::CopyDst : gpu::BufferUsage::Storage,
              "intermediate " + im.id));
  }
  std::unique_lock lock(plansMutex_);
  if (plans_.size() >= kMaxPreparedPlans) plans_.clear();  // bounded; rebuilt on demand
  auto [it, inserted] = plans_.emplace(key, prepared);
  return it->second;
}

// ---- public facade -------------------------------------------------------------------------

std::map<std::string, HostTensor> Kernel::operator()(const std::map<std::string, HostTensor>& inputs,
                                                     const std::map<std::string, Attribute>& attrs) {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "calling an empty wgk::Kernel");
  std::map<std::string, TensorRef> refs;
  for (const auto& [k, v] : inputs) refs.emplace(k, TensorRef(v));
  CallOptions o;
  o.attrs = attrs;
  o.placement = OutputPlacement::Host;
  return impl_->call(refs, o).host;
}

CallResult Kernel::call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options) {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "calling an empty wgk::Kernel");
  return impl_->call(inputs, options);
}

const PackageSource& Kernel::source() const {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "wgk::Kernel is empty");
  return impl_->source();
}

}  // namespace wgk

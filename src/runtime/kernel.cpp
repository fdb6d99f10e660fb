// Kernels: planning with the plan cache, and turning a plan into GPU objects once per request key.
#include <algorithm>

#include "core/foreign_errors.h"
#include "runtime/attributes.h"
#include "runtime/binding_layout.h"
#include "runtime/runtime_impl.h"
#include "wgk/error.h"

namespace wgk {
namespace {
constexpr size_t kMaxPreparedPlans = 64;

// The tensors and intermediates a plan binds, and per pass binding the slot it reads.
void buildSlots(PreparedPlan& prepared, const plan::PlanRequest& request, const package::Manifest& m) {
  const plan::Plan& p = prepared.plan;
  for (const auto& [name, desc] : request.inputs) {
    PlanSlot s;
    s.port = m.findPort(name);
    s.kind = s.port && s.port->isOutput() ? PlanSlot::Kind::InOut : PlanSlot::Kind::Input;
    s.name = name;
    s.dtype = desc.dtype;
    s.shape = desc.shape;
    s.layout = runtime::storageFor(s.port, desc.dtype);
    s.bytes = s.layout.bytes(desc.shape);
    prepared.slots.push_back(std::move(s));
  }
  auto find = [&](const std::string& name, bool intermediate) -> int32_t {
    for (size_t i = 0; i < prepared.slots.size(); ++i)
      if (prepared.slots[i].name == name &&
          (prepared.slots[i].kind == PlanSlot::Kind::Intermediate) == intermediate)
        return static_cast<int32_t>(i);
    return -1;
  };
  for (const plan::PlannedOutput& o : p.outputs) {
    PlanSlot s;
    s.port = m.findPort(o.name);
    if (s.port && s.port->isInput()) {  // in/out: the input's buffer is the output
      prepared.outputSlots.push_back(find(o.name, false));
      continue;
    }
    s.kind = PlanSlot::Kind::Output;
    s.name = o.name;
    s.dtype = o.dtype;
    s.shape = o.shape;
    s.layout = runtime::storageFor(s.port, o.dtype);
    s.bytes = s.layout.bytes(o.shape);
    prepared.outputSlots.push_back(static_cast<int32_t>(prepared.slots.size()));
    prepared.slots.push_back(std::move(s));
  }
  for (const plan::PlannedIntermediate& im : p.intermediates) {
    PlanSlot s;
    s.kind = PlanSlot::Kind::Intermediate;
    s.name = im.id;
    s.dtype = im.dtype;
    s.shape = im.shape;
    s.bytes = im.bytes;
    if (im.zeroInit && im.bytes > 0)
      prepared.zeroInit.emplace_back(static_cast<int32_t>(prepared.slots.size()),
                                     prepared.intermediates.at(im.id).handle());
    prepared.slots.push_back(std::move(s));
  }
  for (PreparedPass& pass : prepared.passes) {
    for (const plan::PlannedBinding& b : pass.planned->bindings) {
      int32_t slot = kUniformSlot;
      if (b.kind != package::ResourceKind::Uniform) {
        slot = find(b.resource, b.kind == package::ResourceKind::Intermediate);
        if (slot < 0) slot = kMissingSlot;
      }
      pass.slotOf.push_back(slot);
    }
  }
}

// What a pass is specialised on, as the pipeline cache names it (runtime/pipeline_cache.h): the
// op, variant and pass, the input dtypes and the tunables the plan overrode. Shapes stay out: a
// shader that depends on one renders another text, so its digest already keeps it apart, and
// shaders that take shapes as uniforms are shared across them.
std::string pipelineName(const std::string& opId, const plan::Plan& p, const plan::PlannedPass& pass,
                         const plan::PlanRequest& request) {
  std::string name = opId + "/" + p.variant + "/" + pass.id + " [";
  bool first = true;
  for (const auto& [arg, desc] : request.inputs) {
    name += (first ? "" : " ") + arg + ":" + std::string(dtypeName(desc.dtype));
    first = false;
  }
  name += "]";
  for (const auto& [tunable, value] : p.tunables) name += " " + tunable + "=" + value.repr();
  return name;
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
        const std::vector<gpu::BindingKind> layout = runtime::bindingLayout(pass);
        const runtime::PipelineKey key =
            runtime::PipelineKey::of(pipelineName(source_.opId, p, pass, request), pass.wgsl, layout);
        pp.pipeline =
            withContext("while compiling pass '" + pass.id + "' (" + pass.shader + ") of variant " +
                            p.variant + " of " + source_.opId,
                        [&] { return runtime_.pipelines().get(key, pass.wgsl, layout, pass.name); });
        pp.uniforms.resize(pass.bindings.size());
        for (size_t i = 0; i < pass.bindings.size(); ++i) {
          const auto& b = pass.bindings[i];
          if (b.kind != package::ResourceKind::Uniform) continue;
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
  buildSlots(*prepared, request, planner_.package().manifest());
  std::unique_lock lock(plansMutex_);
  if (plans_.size() >= kMaxPreparedPlans) plans_.clear();  // bounded; rebuilt on demand
  auto [it, inserted] = plans_.emplace(key, prepared);
  return it->second;
}

// ---- public facade -------------------------------------------------------------------------

std::map<std::string, HostTensor> Kernel::operator()(const std::map<std::string, HostTensor>& inputs,
                                                     const std::map<std::string, Attribute>& attrs) const {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "calling an empty wgk::Kernel");
  std::map<std::string, TensorRef> refs;
  for (const auto& [k, v] : inputs) refs.emplace(k, TensorRef(v));
  CallOptions o;
  o.attrs = attrs;
  o.placement = OutputPlacement::Host;
  return asWgkErrors([&] { return impl_->call(refs, o).host; });
}

CallResult Kernel::call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options) const {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "calling an empty wgk::Kernel");
  return asWgkErrors([&] { return impl_->call(inputs, options); });
}

const PackageSource& Kernel::source() const {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "wgk::Kernel is empty");
  return impl_->source();
}

}  // namespace wgk

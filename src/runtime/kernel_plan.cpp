// Kernel::plan(): a call planned without running it, as the public KernelPlan
// (include/wgk/plan.h). The plan is the one the runtime would run (plan::Planner, the tuning
// table on the runtime's device); the public struct carries its decisions, and its JSON form
// (plan::Plan::toJson, what `wgk plan --json` prints) for the details.
#include "core/foreign_errors.h"
#include "runtime/attributes.h"
#include "runtime/runtime_impl.h"
#include "wgk/error.h"
#include "wgk/plan.h"

namespace wgk {
namespace {

plan::PlanRequest requestOf(const std::map<std::string, TensorSpec>& inputs, const PlanOptions& options) {
  plan::PlanRequest r;
  r.inputs = inputs;
  r.attrs = runtime::toValues(options.attrs);
  r.args = runtime::toValues(options.args);
  r.forcedVariant = options.variant;
  return r;
}

KernelPlan publicPlan(const plan::Plan& p, bool wgsl) {
  KernelPlan out;
  out.op = p.package;
  out.variant = p.variant;
  out.selectedBy = p.selectedBy;
  out.variants = p.variants;
  for (const plan::PlannedOutput& o : p.outputs) out.outputs.push_back({o.name, o.dtype, o.shape, 0, false});
  for (const plan::PlannedIntermediate& i : p.intermediates)
    out.intermediates.push_back({i.id, i.dtype, i.shape, i.bytes, i.zeroInit});
  for (const plan::PlannedPass& pass : p.passes)
    out.passes.push_back({pass.id, pass.name, pass.shader, pass.workgroups, pass.dispatch, pass.folded,
                          pass.skipped, pass.wgsl});
  out.json = p.toJson(wgsl).dump();
  return out;
}

}  // namespace

KernelPlan Kernel::plan(const std::map<std::string, TensorSpec>& inputs, const PlanOptions& options) const {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "planning with an empty wgk::Kernel");
  return asWgkErrors([&] {
    const plan::PlanRequest request = requestOf(inputs, options);
    if (!options.device) return publicPlan(impl_->plan(request, options.wgsl), options.wgsl);
    plan::PlanOptions o;
    o.renderShaders = options.wgsl;
    return publicPlan(impl_->planner().plan(request, *options.device, o), options.wgsl);
  });
}

}  // namespace wgk

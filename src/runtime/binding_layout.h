// The one place where the plan's bindings meet the device layer's: a pass's buffer types
// (package::BufferType, as WGSL declares them) become the binding kinds of its pipeline layout
// (gpu::BindingKind; the device layer knows no manifest).
//
//   gpu::ComputePipeline pipe = dev.createComputePipeline(pass.wgsl, runtime::bindingLayout(pass));
#pragma once

#include <vector>

#include "gpu/pipeline.h"
#include "package/manifest.h"
#include "plan/plan.h"

namespace wgk::runtime {

gpu::BindingKind gpuBindingKind(package::BufferType type);
// The layout of `pass`'s pipeline: one kind per binding, in binding order.
std::vector<gpu::BindingKind> bindingLayout(const plan::PlannedPass& pass);

}  // namespace wgk::runtime

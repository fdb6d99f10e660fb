#include "runtime/introspect.h"

#include "runtime/runtime_impl.h"

namespace wgk {

// The one door into the private parts of Kernel and Runtime (both name it a friend).
struct IntrospectAccess {
  static KernelImpl& of(const Kernel& k) {
    if (!k.impl_) throw Error(ErrorCode::InvalidArgument, "wgk::Kernel is empty");
    return *k.impl_;
  }
  static RuntimeImpl& of(const Runtime& r) { return *r.impl_; }
};

namespace introspect {

const plan::Planner& planner(const Kernel& kernel) { return IntrospectAccess::of(kernel).planner(); }
const package::Package& package(const Kernel& kernel) { return planner(kernel).package(); }
plan::Plan plan(const Kernel& kernel, const plan::PlanRequest& request, bool renderShaders) {
  return IntrospectAccess::of(kernel).plan(request, renderShaders);
}
CallResult call(const Kernel& kernel, const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                const std::map<std::string, expr::Value>& tunables) {
  return IntrospectAccess::of(kernel).call(inputs, options, tunables);
}
const void* identity(const Kernel& kernel) { return &IntrospectAccess::of(kernel); }

gpu::Device& device(Runtime& runtime) { return IntrospectAccess::of(runtime).device(); }
const RuntimeOptions& options(const Runtime& runtime) { return IntrospectAccess::of(runtime).options(); }
runtime::GpuMutex& gpuMutex(Runtime& runtime) { return IntrospectAccess::of(runtime).gpuMutex(); }
int gpuWaiters(const Runtime& runtime) { return IntrospectAccess::of(runtime).gpuWaiters(); }
uint64_t deviceGeneration(const Runtime& runtime) { return IntrospectAccess::of(runtime).deviceGeneration(); }

}  // namespace introspect
}  // namespace wgk

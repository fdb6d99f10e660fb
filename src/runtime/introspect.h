// runtime/introspect.h — what wgk's own tools may see inside a Kernel or a Runtime.
//
// The public headers (include/wgk/) give users Kernel and Runtime and nothing behind them. wgk's
// own programs need a little more: the harness (test, bench, tune, cards, chains), the CLI, the
// Python bindings and the tests read a kernel's package and plans, call with tunables overridden,
// and reach the runtime's device. They do it through these functions, never through
// runtime_impl.h (which only src/runtime includes; tests/unit/layering checks it).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "expr/value.h"
#include "plan/plan.h"
#include "runtime/gpu_lock.h"
#include "wgk/runtime.h"

namespace wgk::gpu {
class Device;
}
namespace wgk::package {
class Package;
}

namespace wgk {
// Bytes a tensor of this dtype and shape occupies on the device (elements x element size).
uint64_t tensorBytes(DType dtype, const Shape& shape);
}  // namespace wgk

namespace wgk::introspect {

// ---- a kernel ----
const plan::Planner& planner(const Kernel& kernel);
const package::Package& package(const Kernel& kernel);
// Plans without running, with the runtime's tuning applied (what `wgk plan` shows on this device).
plan::Plan plan(const Kernel& kernel, const plan::PlanRequest& request, bool renderShaders);
// Kernel::call with the manifest's tunables overridden (`wgk tune`, bench of one candidate).
CallResult call(const Kernel& kernel, const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                const std::map<std::string, expr::Value>& tunables);
// Two kernels share their state (plans, caches) exactly when these are equal.
const void* identity(const Kernel& kernel);

// ---- a runtime ----
gpu::Device& device(Runtime& runtime);
const RuntimeOptions& options(const Runtime& runtime);
// Held while a command buffer is recorded and submitted; a tool measuring the device takes it too.
runtime::GpuMutex& gpuMutex(Runtime& runtime);
// Threads waiting for the GPU (a readback, a download, waitIdle) without holding the GPU lock now.
int gpuWaiters(const Runtime& runtime);
// 0 for the first device; +1 each time a lost device was replaced.
uint64_t deviceGeneration(const Runtime& runtime);

}  // namespace wgk::introspect

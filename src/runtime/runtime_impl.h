// Internals of wgk::Runtime and wgk::Kernel (include/wgk/runtime.h). Private to src/runtime and
// the CLI.
#pragma once

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpu/device.h"
#include "hub/hub_config.h"
#include "plan/plan.h"
#include "runtime/buffer_pool.h"
#include "runtime/pipeline_cache.h"
#include "runtime/tuning.h"
#include "wgk/runtime.h"

namespace wgk {

class DeviceTensorImpl {
 public:
  DeviceTensorImpl(gpu::Buffer b, std::weak_ptr<runtime::BufferPool> pool)
      : buffer(std::move(b)), pool_(std::move(pool)) {}
  ~DeviceTensorImpl();
  gpu::Buffer buffer;

 private:
  std::weak_ptr<runtime::BufferPool> pool_;
};

// One pass of a prepared plan: its pipeline, uniform buffers and the bind groups seen so far.
struct PreparedPass {
  const plan::PlannedPass* planned = nullptr;
  gpu::ComputePipeline pipeline;
  std::vector<gpu::Buffer> uniforms;  // by binding position (empty for non-uniform bindings)
  // Bind groups keyed by the bound (buffer, offset, size) triples; bounded, cleared when full.
  std::unordered_map<std::string, gpu::BindGroup> bindGroups;
};

// A plan made ready to run: everything that depends only on the request key is built once.
struct PreparedPlan {
  plan::Plan plan;
  std::vector<PreparedPass> passes;
  std::map<std::string, gpu::Buffer> intermediates;  // by id, reused across calls (queue-ordered)
  std::map<std::string, gpu::Buffer> hostInputs;     // upload targets for host inputs, by arg
  std::map<std::string, gpu::Buffer> hostOutputs;    // outputs read back to the host, by arg
};

class RuntimeImpl;

class KernelImpl {
 public:
  KernelImpl(RuntimeImpl& runtime, std::shared_ptr<const package::Package> package, PackageSource source)
      : runtime_(runtime), planner_(std::move(package)), source_(std::move(source)) {}

  CallResult call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options);
  // The same call with the manifest's tunables overridden (PlanRequest::tunables; `wgk tune` times
  // workgroup sizes this way). Non-empty `tunables` turn the tuning table off for the call.
  CallResult call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                  const std::map<std::string, expr::Value>& tunables);
  // Plans without running (what `wgk plan` on the local device shows), with tuning applied unless
  // the request forces a variant or sets tunables.
  plan::Plan plan(const plan::PlanRequest& request, bool renderShaders) const;
  const PackageSource& source() const { return source_; }
  const plan::Planner& planner() const { return planner_; }

 private:
  std::shared_ptr<PreparedPlan> prepare(const plan::PlanRequest& request);
  void applyTuning(plan::PlanRequest& request) const;

  RuntimeImpl& runtime_;
  plan::Planner planner_;
  PackageSource source_;
  mutable std::shared_mutex plansMutex_;
  std::unordered_map<std::string, std::shared_ptr<PreparedPlan>> plans_;
};

class RuntimeImpl {
 public:
  RuntimeImpl(gpu::Device device, RuntimeOptions options);
  ~RuntimeImpl();

  gpu::Device& device() { return device_; }
  const DeviceProfile& profile() const { return device_.profile(); }
  std::mutex& gpuMutex() { return gpuMutex_; }
  runtime::BufferPool& pool() { return *pool_; }
  const std::shared_ptr<runtime::BufferPool>& poolPtr() { return pool_; }
  runtime::PipelineCache& pipelines() { return pipelines_; }
  const RuntimeOptions& options() const { return options_; }
  const hub::HubOptions& hubOptions() const { return hubOptions_; }
  const runtime::TuningTable* tuning() const { return tuning_ ? &*tuning_ : nullptr; }

  Kernel load(const std::string& repoOrPath, const LoadOptions& options);
  DeviceTensor allocate(DType dtype, const Shape& shape);
  DeviceTensor upload(const HostTensor& tensor);
  HostTensor download(const GpuTensor& tensor);
  void waitIdle();
  CacheStats cacheStats() const;
  // Device recovery (RuntimeOptions::gpuTimeoutMs): when the device the runtime created is lost
  // (deadline, driver reset, destroy), makes a new one with empty caches. recoverLocked() needs
  // gpuMutex() held. A caller's device (createForDevice) is never replaced: its loss stays
  // Error(DeviceLost). Prepared plans carry the generation in their key, so old ones go unused.
  void recoverIfLost();
  void recoverLocked();
  uint64_t deviceGeneration() const { return generation_.load(); }
  void setDeviceOwned(bool owned) { ownsDevice_ = owned; }  // false: createForDevice

  // Counters updated by kernels.
  std::atomic<uint64_t> planHits{0}, planMisses{0}, bindGroupHits{0}, bindGroupMisses{0};

  // Checks a caller's GPU tensor: non-null buffer, offset alignment, buffer large enough. A tensor
  // that gets bound (`forBinding`) needs an offset aligned to minStorageBufferOffsetAlignment; a
  // copy (download) only to 4 bytes.
  void checkGpuTensor(const std::string& name, const GpuTensor& t, bool forBinding = true);
  DeviceTensor wrapBuffer(gpu::Buffer buffer, DType dtype, const Shape& shape);

 private:
  gpu::Device device_;
  RuntimeOptions options_;
  hub::HubOptions hubOptions_;
  std::optional<runtime::TuningTable> tuning_;
  std::mutex gpuMutex_;
  std::shared_ptr<runtime::BufferPool> pool_;
  runtime::PipelineCache pipelines_;
  std::mutex kernelsMutex_;
  std::map<std::string, std::shared_ptr<KernelImpl>> kernels_;  // by resolved folder + revision
  std::atomic<uint64_t> generation_{0};                         // devices replaced so far
  bool ownsDevice_ = true;
};

// Bytes a tensor of this dtype and shape occupies (elements x element size).
uint64_t tensorBytes(DType dtype, const Shape& shape);

}  // namespace wgk

// Internals of wgk::Runtime and wgk::Kernel (include/wgk/runtime.h). Private to src/runtime and
// the CLI.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpu/command_list.h"
#include "gpu/device.h"
#include "hub/hub_config.h"
#include "plan/plan.h"
#include "runtime/buffer_pool.h"
#include "runtime/introspect.h"  // tensorBytes
#include "runtime/pipeline_cache.h"
#include "runtime/tensor_storage.h"
#include "runtime/tuning.h"
#include "wgk/batch.h"
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

// A bound buffer range (what a bind group entry holds).
struct Bound {
  WGPUBuffer buffer = nullptr;
  uint64_t offset = 0, size = 0;
  bool operator==(const Bound&) const = default;
};

// One pass of a prepared plan: its pipeline, uniform buffers and the bind groups seen so far.
struct PreparedPass {
  const plan::PlannedPass* planned = nullptr;
  gpu::ComputePipeline pipeline;
  std::vector<gpu::Buffer> uniforms;  // by binding position (empty for non-uniform bindings)
  // Per binding: the plan's slot it binds (PreparedPlan::slots), kUniformSlot or kMissingSlot
  // (a resource the call cannot provide, e.g. an absent optional input: an error if it runs).
  std::vector<int32_t> slotOf;
  // Bind groups keyed by the bound (buffer, offset, size) triples; bounded, cleared when full.
  // The last one used is checked first: a warm call binding the same buffers skips the hashing.
  std::unordered_map<std::string, std::shared_ptr<const gpu::BindGroup>> bindGroups;
  std::vector<Bound> lastBound;
  std::shared_ptr<const gpu::BindGroup> lastGroup;
  bool lastAliased = false;  // viewAlias held for lastBound: the pass was skipped
};
constexpr int32_t kUniformSlot = -1, kMissingSlot = -2;

// A tensor or intermediate a plan binds, resolved once per request key.
struct PlanSlot {
  enum class Kind { Input, Output, InOut, Intermediate };
  Kind kind = Kind::Input;
  std::string name;  // arg name or intermediate id
  const package::PortSpec* port = nullptr;
  runtime::StorageLayout layout;
  DType dtype = DType::Float32;  // logical (outputs: as planned)
  Shape shape;
  uint64_t bytes = 0;  // device bytes, not rounded
};

// A plan made ready to run: everything that depends only on the request key is built once.
struct PreparedPlan {
  plan::Plan plan;
  std::vector<PreparedPass> passes;
  std::vector<PlanSlot> slots;                           // inputs (by name), outputs, intermediates
  std::vector<int32_t> outputSlots;                      // per plan.outputs entry: its slot, or -1
  std::map<std::string, gpu::Buffer> intermediates;      // by id, reused across calls (queue-ordered)
  std::vector<std::pair<int32_t, WGPUBuffer>> zeroInit;  // intermediate slots cleared per call
  std::map<std::string, gpu::Buffer> hostInputs;         // upload targets for host inputs, by arg
  std::map<std::string, gpu::Buffer> hostOutputs;        // outputs read back to the host, by arg
  gpu::CommandList commands;                             // a single call's commands (reused)
};

// How a call is recorded: on its own (host inputs into the plan's reused upload buffers), or
// into a batch / graph (host inputs into staging buffers that the recording holds).
enum class RecordMode { Single, Batch };

// What one recorded call of a batch or graph keeps alive until its work has run.
struct CallRecord {
  std::shared_ptr<PreparedPlan> prepared;
  std::vector<std::shared_ptr<DeviceTensorImpl>> keep;  // DeviceTensors it reads or writes
  std::vector<gpu::Buffer> staging;                     // host-input uploads (pooled)
  std::weak_ptr<runtime::BufferPool> pool;              // where staging returns
  CallRecord() = default;
  CallRecord(CallRecord&&) = default;
  CallRecord& operator=(CallRecord&&) = default;
  ~CallRecord();
};

// A call validated and planned, not yet bound to buffers.
struct ResolvedCall {
  std::shared_ptr<PreparedPlan> prepared;
  bool toHost = false;
};

class RuntimeImpl;

// A request seen before, compared field by field with a new call: the warm path finds its plan
// without building a PlanRequest or a key string.
struct CallMemo {
  struct Tensor {
    std::string name;
    DType dtype = DType::Float32;
    Shape shape;
    bool onHost = false;
  };
  std::vector<Tensor> inputs, outputs;  // outputs: caller-given (CallOptions::outputs)
  std::map<std::string, Attribute> attrs, args;
  std::string variant;
  std::shared_ptr<PreparedPlan> prepared;
  bool matches(const std::map<std::string, TensorRef>& in, const CallOptions& o) const;
};

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
  RuntimeImpl& runtime() const { return runtime_; }

  // The steps of a call (kernel_call.cpp), shared by Kernel::call, Batch and Graph:
  // validates tensors and options and finds (or builds) the prepared plan; no GPU lock.
  ResolvedCall resolve(const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                       const std::map<std::string, expr::Value>& tunables);
  // Binds the call's tensors (uploading host inputs, allocating outputs into result.device) and
  // appends its commands to `commands`; `slots` receives what each plan slot was bound to. The
  // caller holds the GPU lock. Batch mode keeps staging buffers and tensors in `keep`.
  void record(const ResolvedCall& rc, const std::map<std::string, TensorRef>& inputs,
              const CallOptions& options, RecordMode mode, gpu::CommandList& commands, CallRecord* keep,
              CallResult& result, std::vector<Bound>& slots);

 private:
  std::shared_ptr<PreparedPlan> prepare(const plan::PlanRequest& request);
  void applyTuning(plan::PlanRequest& request) const;
  std::shared_ptr<PreparedPlan> findMemo(const std::map<std::string, TensorRef>& inputs,
                                         const CallOptions& options) const;
  void remember(const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                const std::shared_ptr<PreparedPlan>& prepared);
  std::shared_ptr<PreparedPlan> resolveSlow(const std::map<std::string, TensorRef>& inputs,
                                            const CallOptions& options,
                                            const std::map<std::string, expr::Value>& tunables);
  void checkPerCall(const std::map<std::string, TensorRef>& inputs, const CallOptions& options);
  void bindInputs(PreparedPlan& pp, const std::map<std::string, TensorRef>& inputs, RecordMode mode,
                  CallRecord* keep, CallResult& result, std::vector<Bound>& slots);
  void bindOutputs(PreparedPlan& pp, const CallOptions& options, bool toHost, CallRecord* keep,
                   CallResult& result, std::vector<Bound>& slots);
  void recordPasses(PreparedPlan& pp, const std::vector<Bound>& slots, gpu::CommandList& commands);
  void readBack(PreparedPlan& pp, const CallOptions& options, const std::vector<Bound>& slots,
                CallResult& result);

  RuntimeImpl& runtime_;
  plan::Planner planner_;
  PackageSource source_;
  mutable std::shared_mutex plansMutex_;
  std::unordered_map<std::string, std::shared_ptr<PreparedPlan>> plans_;
  static constexpr size_t kMemoSize = 8;
  std::array<CallMemo, kMemoSize> memo_;  // under plansMutex_
  size_t memoNext_ = 0;
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
  Batch batch();
  Graph capture(const std::function<void(Batch&)>& record);
  DeviceTensor allocate(DType dtype, const Shape& shape);
  DeviceTensor upload(const HostTensor& tensor);
  void write(const GpuTensor& dst, const HostTensor& src);
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
  // Device limits read on every call, cached at construction.
  uint64_t maxStorageBinding() const { return maxStorageBinding_; }
  uint64_t storageOffsetAlignment() const { return storageAlign_; }
  DeviceTensor wrapBuffer(gpu::Buffer buffer, DType dtype, const Shape& shape);

 private:
  gpu::Device device_;
  uint64_t maxStorageBinding_ = 0, storageAlign_ = 256;
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


}  // namespace wgk

// Internals of wgk::Runtime and wgk::Kernel (include/wgk/runtime.h). Private to src/runtime and
// the CLI.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
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
#include "runtime/gpu_lock.h"
#include "runtime/introspect.h"  // tensorBytes
#include "runtime/pipeline_cache.h"
#include "runtime/pipeline_store.h"
#include "runtime/tensor_storage.h"
#include "runtime/tuning.h"
#include "wgk/batch.h"
#include "wgk/runtime.h"

namespace wgk {

// The storage of a runtime-allocated DeviceTensor. When the last handle goes, its buffer returns
// to its home pool: the runtime's, or the pool of the Batch / Graph that made it (reusable by that
// batch's later calls at once), else, once that one is gone, the runtime's (`fallback`).
class DeviceTensorImpl {
 public:
  DeviceTensorImpl(gpu::Buffer b, std::weak_ptr<runtime::BufferPool> pool,
                   std::weak_ptr<runtime::BufferPool> fallback = {})
      : buffer(std::move(b)), pool_(std::move(pool)), fallback_(std::move(fallback)) {}
  ~DeviceTensorImpl();
  gpu::Buffer buffer;
  // True when `pool` is this tensor's home (compared by owner: no address reuse after it dies).
  bool homeIs(const std::shared_ptr<runtime::BufferPool>& pool) const {
    return !pool_.owner_before(pool) && !pool.owner_before(pool_);
  }

 private:
  std::weak_ptr<runtime::BufferPool> pool_, fallback_;
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

// One dispatch of a graph capture as Graph::replay rebinds it: its place in the command list
// (CommandList::rebind), pipeline and bound ranges.
struct RecordedDispatch {
  size_t command = 0, dispatch = 0;
  gpu::ComputePipeline pipeline;
  std::vector<Bound> bound;
  const std::string* label = nullptr;  // the planned pass's name (the prepared plan is kept)
};

// What one recorded call of a batch or graph keeps alive until its work has run.
struct CallRecord {
  std::shared_ptr<PreparedPlan> prepared;
  // DeviceTensors it reads or writes, but for those the batch made itself (their home is `local`):
  // a caller dropping one of these frees it for the batch's later calls (batch.h, memory).
  std::vector<std::shared_ptr<DeviceTensorImpl>> keep;
  std::vector<gpu::Buffer> staging;                     // host-input uploads (pooled)
  std::weak_ptr<runtime::BufferPool> pool;              // where staging returns
  std::shared_ptr<runtime::BufferPool> local;           // the batch's own pool (outputs come from it first)
  BatchStats* stats = nullptr;                          // the batch's counters
  std::vector<RecordedDispatch>* dispatches = nullptr;  // capture: every dispatch, for rebinding
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
  void recordPasses(PreparedPlan& pp, const std::vector<Bound>& slots, gpu::CommandList& commands,
                    CallRecord* keep);
  gpu::Buffer outputBuffer(uint64_t bytes, CallRecord* keep, bool& local);
  CallResult callDeferred(const ResolvedCall& rc, const std::map<std::string, TensorRef>& inputs,
                          const CallOptions& options);
  // Starts reading the host outputs back (GPU lock held); await, then readBackFinish copies them
  // into result.host without the lock.
  gpu::Pending readBackStart(PreparedPlan& pp, const CallOptions& options, const std::vector<Bound>& slots);
  void readBackFinish(PreparedPlan& pp, const CallOptions& options, const gpu::Pending& read,
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
  runtime::GpuMutex& gpuMutex() { return gpuMutex_; }
  // Waits for `work` with the GPU lock released while the GPU runs (runtime/gpu_lock.h); `lock`
  // holds gpuMutex() on entry and on return.
  void await(std::unique_lock<runtime::GpuMutex>& lock, gpu::Pending& work) {
    runtime::awaitGpu(lock, work, gpuWaiters_);
  }
  int gpuWaiters() const { return gpuWaiters_.load(); }  // threads inside await() now
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
  // false: createForDevice (which also defers nothing: wgk cannot order the caller's own queue work)
  void setDeviceOwned(bool owned) {
    ownsDevice_ = owned;
    defer_ = defer_ && owned;
  }
  // The persistent pipeline cache the device was created with (runtime/pipeline_store.h): a
  // replacement device gets one too, and cacheStats() reports its counters.
  void setPipelineStore(gpu::BlobCacheFactory factory,
                        std::shared_ptr<runtime::PipelineStoreCounters> counters) {
    blobCaches_ = std::move(factory);
    blobCounters_ = std::move(counters);
  }

  // Deferred calls (RuntimeOptions::deferCalls): Kernel::call with device inputs and outputs is
  // recorded into one pending command list, submitted by flushLocked(), which runs before any
  // other queue work of the device (gpu::Device::setBeforeQueueUse), when the pending list holds
  // deferMaxCalls calls or its first is deferMaxUs old, and from flush(). Callers hold the GPU lock
  // for all but defers() and flush().
  bool defers() const { return defer_; }
  gpu::CommandList& pendingCommands() { return pending_.commands; }
  void noteDeferred(const KernelImpl& kernel, std::shared_ptr<PreparedPlan> prepared);
  void flushLocked();
  void flush();
  // Destroys idle pooled buffers past the capacity, only with no deferred call pending.
  void trimPool();

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
  // A tensor whose buffer returns to `home` (a batch's pool), then to the runtime's.
  DeviceTensor wrapBuffer(gpu::Buffer buffer, DType dtype, const Shape& shape,
                          const std::shared_ptr<runtime::BufferPool>& home);

 private:
  struct PendingCall {
    const KernelImpl* kernel = nullptr;
    std::shared_ptr<PreparedPlan> prepared;  // what its commands use stays alive until the flush
  };
  struct Pending {
    gpu::CommandList commands;
    std::vector<PendingCall> calls;
    std::chrono::steady_clock::time_point first;
    bool flushing = false;
    uint64_t deferred = 0, flushes = 0;
  };
  void installFlushHook();
  void dropPending();
  std::string describePending() const;

  gpu::Device device_;
  uint64_t maxStorageBinding_ = 0, storageAlign_ = 256;
  RuntimeOptions options_;
  hub::HubOptions hubOptions_;
  std::optional<runtime::TuningTable> tuning_;
  mutable runtime::GpuMutex gpuMutex_;
  std::atomic<int> gpuWaiters_{0};
  std::shared_ptr<runtime::BufferPool> pool_;
  runtime::PipelineCache pipelines_;
  std::mutex kernelsMutex_;
  std::map<std::string, std::shared_ptr<KernelImpl>> kernels_;  // by resolved folder + revision
  std::atomic<uint64_t> generation_{0};                         // devices replaced so far
  bool ownsDevice_ = true;
  gpu::BlobCacheFactory blobCaches_;
  std::shared_ptr<runtime::PipelineStoreCounters> blobCounters_;
  bool defer_ = true;
  uint32_t deferMaxCalls_ = 64, deferMaxUs_ = 500;
  Pending pending_;
};

}  // namespace wgk

// wgk::Runtime: owns (or wraps) the device, the caches and the loaded kernels.
#include <cstring>
#include <exception>

#include "core/foreign_errors.h"
#include "runtime/options.h"
#include "runtime/package_loader.h"
#include "runtime/pipeline_store.h"
#include "runtime/runtime_impl.h"
#include "runtime/tensor_storage.h"
#include "wgk/error.h"

namespace wgk {
namespace {
constexpr gpu::BufferUsage kTensorUsage =
    gpu::BufferUsage::Storage | gpu::BufferUsage::CopySrc | gpu::BufferUsage::CopyDst;

// Idle pooled memory: a quarter of the largest buffer the device allows, at most 1 GiB.
uint64_t poolCapacity(const DeviceProfile& p) {
  uint64_t maxBuffer = p.limits.count("maxBufferSize") ? p.limits.at("maxBufferSize") : (256ull << 20);
  return std::min<uint64_t>(maxBuffer / 4, 1ull << 30);
}

std::optional<runtime::TuningTable> loadTuning(const RuntimeOptions& o, const DeviceProfile& profile) {
  return runtime::tuningFor(o.tuningFile, o.packagesDir, profile);
}
}  // namespace

uint64_t tensorBytes(DType dtype, const Shape& shape) {
  return runtime::deviceBytes(dtype, shape);
}

DeviceTensorImpl::~DeviceTensorImpl() {
  if (auto pool = pool_.lock())
    pool->release(std::move(buffer));
  else if (auto fallback = fallback_.lock())
    fallback->release(std::move(buffer));
}

RuntimeImpl::RuntimeImpl(gpu::Device device, RuntimeOptions options)
    : device_(std::move(device)),
      options_(runtime::withDefaults(std::move(options))),
      hubOptions_(runtime::hubOptionsFor(options_)),
      tuning_(loadTuning(options_, device_.profile())),
      pool_(std::make_shared<runtime::BufferPool>(device_, poolCapacity(device_.profile()))),
      pipelines_(device_, options_.maxPipelines) {
  const auto& limits = device_.profile().limits;
  maxStorageBinding_ =
      limits.count("maxStorageBufferBindingSize") ? limits.at("maxStorageBufferBindingSize") : (128ull << 20);
  storageAlign_ =
      limits.count("minStorageBufferOffsetAlignment") ? limits.at("minStorageBufferOffsetAlignment") : 256;
  device_.setWaitDeadline(options_.gpuTimeoutMs);
  defer_ = options_.deferCalls;
  if (options_.deferMaxCalls) deferMaxCalls_ = options_.deferMaxCalls;
  if (options_.deferMaxUs) deferMaxUs_ = options_.deferMaxUs;
  installFlushHook();
}

void RuntimeImpl::installFlushHook() {
  device_.setBeforeQueueUse([this] { flushLocked(); });
}

void RuntimeImpl::recoverIfLost() {
  if (!device_.isLost()) return;
  std::lock_guard lock(gpuMutex_);
  recoverLocked();
}

void RuntimeImpl::recoverLocked() {
  if (!device_.isLost() || !ownsDevice_) return;
  gpu::Device fresh = withContext("while replacing the lost WebGPU device",
                                  [&] { return gpu::Device::create(options_.device, blobCaches_); });
  fresh.setWaitDeadline(device_.waitDeadlineMs());
  dropPending();  // its commands belong to the lost device
  device_.setBeforeQueueUse({});
  // The old pool's buffers belong to the lost device: tensors still holding them see their pool
  // gone (weak_ptr) and just drop them.
  pool_ = std::make_shared<runtime::BufferPool>(fresh, poolCapacity(fresh.profile()));
  pipelines_.reset(fresh);
  device_ = std::move(fresh);
  installFlushHook();
  ++generation_;
}

RuntimeImpl::~RuntimeImpl() {
  std::lock_guard lock(gpuMutex_);
  try {
    flushLocked();          // deferred calls were issued: they run, as they would have without deferral
  } catch (const Error&) {  // nobody is left to report it to; the work is dropped
  }
  dropPending();
  device_.setBeforeQueueUse({});
  kernels_.clear();
  pool_->clear();
}

// ---- deferred calls ---------------------------------------------------------------------------

void RuntimeImpl::noteDeferred(const KernelImpl& kernel, std::shared_ptr<PreparedPlan> prepared) {
  const auto now = std::chrono::steady_clock::now();
  if (pending_.calls.empty()) pending_.first = now;
  pending_.calls.push_back({&kernel, std::move(prepared)});
  ++pending_.deferred;
  if (pending_.calls.size() >= deferMaxCalls_ ||
      now - pending_.first >= std::chrono::microseconds(deferMaxUs_))
    flushLocked();
}

std::string RuntimeImpl::describePending() const {
  const size_t n = pending_.calls.size();
  std::string out =
      std::to_string(n) + " deferred call(s) (Kernel::call with device outputs, submitted together): ";
  for (size_t i = 0; i < n && i < 6; ++i) {
    const PendingCall& c = pending_.calls[i];
    out += (i ? ", " : "") + std::string("call ") + std::to_string(i) + " " + c.kernel->source().opId +
           " variant " + c.prepared->plan.variant;
  }
  if (n > 6) out += ", ...";
  return out;
}

void RuntimeImpl::dropPending() {
  pending_.commands.reset();
  pending_.calls.clear();
  pending_.flushing = false;
}

void RuntimeImpl::flushLocked() {
  if (pending_.flushing || pending_.calls.empty()) return;
  pending_.flushing = true;  // the submit below runs the hook again: nothing more to flush
  try {
    pending_.commands.submit(device_, /*checked=*/false);
  } catch (Error& e) {
    e.with("while running " + describePending());
    dropPending();
    throw;
  }
  dropPending();
  ++pending_.flushes;
}

void RuntimeImpl::flush() {
  std::lock_guard lock(gpuMutex_);
  flushLocked();
}

void RuntimeImpl::trimPool() {
  if (pending_.calls.empty()) pool_->trim();
}

Kernel RuntimeImpl::load(const std::string& repoOrPath, const LoadOptions& options) {
  runtime::LoadedPackage loaded = runtime::loadPackage(repoOrPath, options, hubOptions_);
  const std::string key = loaded.source.folder + "@" + loaded.source.revision;
  std::lock_guard lock(kernelsMutex_);
  auto& slot = kernels_[key];
  if (!slot) slot = std::make_shared<KernelImpl>(*this, std::move(loaded.package), std::move(loaded.source));
  Kernel k;
  k.impl_ = slot;
  return k;
}

DeviceTensor RuntimeImpl::wrapBuffer(gpu::Buffer buffer, DType dtype, const Shape& shape) {
  DeviceTensor t;
  t.view_ = GpuTensor{buffer.handle(), dtype, shape, 0};
  t.owner_ = std::make_shared<DeviceTensorImpl>(std::move(buffer), pool_);
  return t;
}

DeviceTensor RuntimeImpl::wrapBuffer(gpu::Buffer buffer, DType dtype, const Shape& shape,
                                     const std::shared_ptr<runtime::BufferPool>& home) {
  DeviceTensor t;
  t.view_ = GpuTensor{buffer.handle(), dtype, shape, 0};
  t.owner_ = std::make_shared<DeviceTensorImpl>(std::move(buffer), home, pool_);
  return t;
}

DeviceTensor RuntimeImpl::allocate(DType dtype, const Shape& shape) {
  for (int64_t d : shape)
    if (d < 0) throw Error(ErrorCode::InvalidArgument, "cannot allocate a tensor with a negative dimension");
  std::lock_guard lock(gpuMutex_);
  recoverLocked();
  return wrapBuffer(pool_->acquire(tensorBytes(dtype, shape), kTensorUsage), dtype, shape);
}

DeviceTensor RuntimeImpl::upload(const HostTensor& tensor) {
  DeviceTensor t = allocate(tensor.dtype(), tensor.shape());
  if (tensor.byteSize() > 0) {
    const runtime::StorageLayout layout = runtime::storageFor(nullptr, tensor.dtype());
    std::lock_guard lock(gpuMutex_);
    if (layout.identity()) {
      device_.write(t.view().buffer, 0, tensor.bytes().data(), tensor.byteSize());
    } else {
      const std::vector<std::byte> words = runtime::toDevice(tensor, layout, "upload");
      device_.write(t.view().buffer, 0, words.data(), words.size());
    }
  }
  return t;
}

void RuntimeImpl::write(const GpuTensor& dst, const HostTensor& src) {
  checkGpuTensor("write", dst, /*forBinding=*/false);
  if (dst.dtype != src.dtype() || numel(dst.shape) != src.numel())
    throw Error(ErrorCode::InvalidArgument,
                "write: the host tensor is " + std::string(dtypeName(src.dtype())) + " with " +
                    std::to_string(src.numel()) + " elements, the device tensor " +
                    std::string(dtypeName(dst.dtype)) + " with " + std::to_string(numel(dst.shape)));
  if (src.byteSize() == 0) return;
  const runtime::StorageLayout layout = runtime::storageFor(nullptr, src.dtype());
  // WebGPU writes whole 4-byte words: a partial last word would overwrite what follows the
  // tensor in its buffer (another view's data), so it is refused rather than padded.
  if (layout.identity() && src.byteSize() % 4 != 0)
    throw Error(ErrorCode::InvalidArgument,
                "write: " + std::to_string(src.byteSize()) +
                    " bytes is not a whole number of 4-byte words (WebGPU writes words); a float16 "
                    "tensor needs an even element count");
  std::lock_guard lock(gpuMutex_);
  recoverLocked();
  if (layout.identity()) {
    device_.write(dst.buffer, dst.offset, src.bytes().data(), src.byteSize());
  } else {
    const std::vector<std::byte> words = runtime::toDevice(src, layout, "write");
    device_.write(dst.buffer, dst.offset, words.data(), words.size());
  }
}

void RuntimeImpl::checkGpuTensor(const std::string& name, const GpuTensor& t, bool forBinding) {
  if (!t.buffer) throw Error(ErrorCode::InvalidArgument, "GPU tensor '" + name + "' has no buffer");
  if (t.offset % 4 != 0)
    throw Error(ErrorCode::InvalidArgument,
                "GPU tensor '" + name + "' has offset " + std::to_string(t.offset) + ", not a multiple of 4");
  // Checked here because WebGPU would otherwise reject the bind group with a validation error
  // that does not name the tensor.
  if (forBinding) {
    const uint64_t align = storageAlign_;
    if (align > 0 && t.offset % align != 0)
      throw Error(ErrorCode::InvalidArgument,
                  "GPU tensor '" + name + "' has offset " + std::to_string(t.offset) +
                      ", not a multiple of the device's minStorageBufferOffsetAlignment (" +
                      std::to_string(align) + ")");
  }
  for (int64_t d : t.shape)
    if (d < 0) throw Error(ErrorCode::InvalidArgument, "GPU tensor '" + name + "' has a negative dimension");
  const uint64_t need = t.offset + tensorBytes(t.dtype, t.shape);
  const uint64_t have = gpu::bufferSize(t.buffer);
  if (need > have)
    throw Error(ErrorCode::InvalidArgument, "GPU tensor '" + name + "' needs " + std::to_string(need) +
                                                " bytes (offset + elements x dtype size), its buffer has " +
                                                std::to_string(have));
}

HostTensor RuntimeImpl::download(const GpuTensor& t) {
  checkGpuTensor("download", t, /*forBinding=*/false);
  HostTensor out(t.dtype, t.shape);
  if (out.byteSize() == 0) return out;
  const runtime::StorageLayout layout = runtime::storageFor(nullptr, t.dtype);
  const uint64_t bytes = layout.identity() ? out.byteSize() : layout.bytes(t.shape);
  // As a call's readback: the GPU lock is let go while the GPU works and while the bytes are
  // copied out; the staging buffer is released under it (declared after the lock: destroyed first).
  std::unique_lock lock(gpuMutex_);
  const gpu::Pending::Range range{t.buffer, t.offset, bytes};
  gpu::Pending read = device_.readLater({&range, 1});
  await(lock, read);
  lock.unlock();
  std::exception_ptr failed;
  try {
    if (layout.identity())
      std::memcpy(out.bytes().data(), read.bytes(0).data(), out.byteSize());
    else
      runtime::fromDevice(read.bytes(0), out, layout);
  } catch (...) {
    failed = std::current_exception();
  }
  lock.lock();
  read.release();
  if (failed) std::rethrow_exception(failed);
  return out;
}

void RuntimeImpl::waitIdle() {
  std::unique_lock lock(gpuMutex_);
  gpu::Pending idle = device_.idleLater();  // submits the deferred calls first
  await(lock, idle);
}

CacheStats RuntimeImpl::cacheStats() const {
  CacheStats s;
  s.shaderModulesCompiled = pipelines_.compiled();
  s.pipelineHits = pipelines_.hits();
  s.pipelineMisses = pipelines_.misses();
  s.pipelineEvictions = pipelines_.evictions();
  s.pipelinesCached = pipelines_.size();
  s.planHits = planHits;
  s.planMisses = planMisses;
  s.bindGroupHits = bindGroupHits;
  s.bindGroupMisses = bindGroupMisses;
  s.pooledBuffers = pool_->idleBuffers();
  s.bufferAcquires = pool_->acquired();
  s.buffersCreated = pool_->created();
  std::lock_guard lock(gpuMutex_);
  s.deferredCalls = pending_.deferred;
  s.flushes = pending_.flushes;
  s.pendingCalls = pending_.calls.size();
  if (blobCounters_) {
    s.pipelineBlobHits = blobCounters_->hits;
    s.pipelineBlobMisses = blobCounters_->misses;
    s.pipelineBlobStores = blobCounters_->stores;
    s.pipelineBlobEvictions = blobCounters_->evictions;
    s.pipelineBlobsRejected = blobCounters_->rejected;
  }
  return s;
}

// ---- public facade -------------------------------------------------------------------------

Runtime::Runtime(std::unique_ptr<RuntimeImpl> impl) : impl_(std::move(impl)) {}
Runtime::~Runtime() = default;

std::shared_ptr<Runtime> Runtime::create(const RuntimeOptions& options) {
  RuntimeOptions o = runtime::withDefaults(options);  // nothing from the environment (runtime/options.h)
  return asWgkErrors([&] {
    auto counters = std::make_shared<runtime::PipelineStoreCounters>();
    gpu::BlobCacheFactory blobs = runtime::pipelineStoreFactory(o, counters);
    gpu::Device device = gpu::Device::create(o.device, blobs);
    auto impl = std::make_unique<RuntimeImpl>(std::move(device), std::move(o));
    impl->setPipelineStore(std::move(blobs), std::move(counters));
    return std::shared_ptr<Runtime>(new Runtime(std::move(impl)));
  });
}

std::shared_ptr<Runtime> Runtime::createForDevice(WGPUDevice device, const RuntimeOptions& options) {
  if (!device) throw Error(ErrorCode::InvalidArgument, "createForDevice: the WGPUDevice is null");
  return asWgkErrors([&] {
    auto impl = std::make_unique<RuntimeImpl>(gpu::Device::wrap(device, options.device), options);
    impl->setDeviceOwned(false);
    return std::shared_ptr<Runtime>(new Runtime(std::move(impl)));
  });
}

Kernel Runtime::load(const std::string& repoOrPath, const LoadOptions& options) {
  return asWgkErrors([&] { return impl_->load(repoOrPath, options); });
}
DeviceTensor Runtime::allocate(DType dtype, const Shape& shape) {
  return impl_->allocate(dtype, shape);
}
DeviceTensor Runtime::upload(const HostTensor& tensor) {
  return impl_->upload(tensor);
}
void Runtime::write(const GpuTensor& dst, const HostTensor& src) {
  impl_->write(dst, src);
}
HostTensor Runtime::download(const GpuTensor& tensor) {
  return impl_->download(tensor);
}
void Runtime::waitIdle() {
  impl_->waitIdle();
}
void Runtime::flush() {
  impl_->flush();
}
const DeviceProfile& Runtime::device() const {
  return impl_->profile();
}
CacheStats Runtime::cacheStats() const {
  return impl_->cacheStats();
}

}  // namespace wgk

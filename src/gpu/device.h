// The WebGPU device layer (namespace wgk::gpu): a Dawn device on Vulkan with RAII objects for what
// compute kernels need: buffers, WGSL pipelines with explicit bind group layouts, bind groups and a
// recorder that batches many dispatches into one submit with optional per-pass GPU timestamps.
//
//   wgk::gpu::Device dev = wgk::gpu::Device::create();          // Vulkan adapter, shader-f16 required
//   wgk::gpu::Buffer x = dev.createBuffer(bytes, BufferUsage::Storage | BufferUsage::CopyDst);
//   x.upload(hostBytes);
//   auto pipe = dev.createComputePipeline(wgsl, {BindingKind::ReadOnlyStorage, BindingKind::Storage});
//   auto rec = dev.recorder({.timestamps = true});
//   rec.dispatch(pipe, {{x.handle()}, {y.handle()}}, groups);
//   wgk::gpu::SubmitResult r = rec.submit();                    // blocks; r.passNs per pass
//   std::vector<std::byte> out = y.readback();
//
// Errors: every failure is a wgk::Error with context. Validation errors (caught with error scopes
// around creation and submission) -> Gpu; WGSL compilation errors -> Gpu quoting each offending
// line; allocation failure -> OutOfMemory; no library/driver/adapter/f16 -> Setup; after the
// device is lost every call throws DeviceLost. Nothing aborts.
//
// Thread safety: a Device and the objects made from it must be used by one thread at a time (the
// runtime serialises GPU work with a mutex). Dawn offers the feature
// implicit-device-synchronization, but wgk does not enable it: one lock in the runtime is cheaper
// than Dawn's per-call locking. Device handles are cheap to copy (shared ownership); objects keep
// their device alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/blob_cache.h"
#include "gpu/buffer.h"
#include "gpu/pending.h"
#include "gpu/pipeline.h"
#include "gpu/recorder.h"
#include "wgk/device.h"

#include "wgk/webgpu_handles.h"

namespace wgk::gpu {

struct DeviceState;

class Device {
 public:
  // Loads the WebGPU library (loader.h), picks a high-performance Vulkan adapter (adapter toggle
  // vulkan_enable_f16_on_nvidia) and creates a device with shader-f16, subgroups and
  // timestamp-query when offered, limits raised to the adapter's, device toggle
  // timestamp_quantization disabled. Throws Error(Setup) when no Vulkan adapter is found, or when
  // options.requireF16 and the adapter lacks shader-f16 (see f16_policy.h).
  // blobCache, when given, is asked once the adapter is known for the cache of Dawn's compiled code
  // (gpu/blob_cache.h); a null answer creates the device without one.
  static Device create(const DeviceOptions& options = {}, const BlobCacheFactory& blobCache = {});
  // Uses a device the caller created with the same WebGPU library: adds a reference, released
  // when the last copy of this Device (and of every object made from it) goes away. wgk cannot
  // install device-lost or uncaptured-error callbacks on it; errors are still caught by scopes.
  // `options` name the library when none is loaded yet (their webgpuLibrary, dawnNode, napiStubs).
  static Device wrap(WGPUDevice device, const DeviceOptions& options = {});

  Device() = default;
  explicit operator bool() const { return state_ != nullptr; }

  // What planning needs: adapter info, the device's features, WGSL language features, limits.
  const DeviceProfile& profile() const;
  // What the numerics probe run at creation found (profile().numerics holds its facts): a
  // summary, the first rounding that differed, or why it could not run.
  const std::string& numericsProbe() const;
  // Every feature the adapter offers (a superset of profile().features), by spec name.
  const std::set<std::string>& adapterFeatures() const;
  WGPUDevice handle() const;

  // A buffer of at least max(size, 16) bytes, rounded up to a multiple of 4 (16: an empty tensor
  // still binds as array<vec4<f32>>).
  // Throws Error(OutOfMemory) when the device cannot allocate it (or it exceeds maxBufferSize).
  Buffer createBuffer(uint64_t size, BufferUsage usage, std::string_view label = {});
  // Queue write into any buffer with CopyDst usage. offset must be a multiple of 4; when size is
  // not, the bytes up to the next multiple of 4 are written as zeros.
  void write(WGPUBuffer buffer, uint64_t offset, const void* data, uint64_t size);
  // Blocking readback of [offset, offset + size) of a buffer with CopySrc usage.
  void read(WGPUBuffer buffer, uint64_t offset, void* dst, uint64_t size);
  // The same for several ranges, not waited for: copies them into a staging buffer of their own
  // and starts mapping it (gpu/pending.h). Deferred work (setBeforeQueueUse) is submitted first.
  Pending readLater(std::span<const Pending::Range> ranges);
  // The queue's work submitted so far, not waited for (a waitIdle in steps).
  Pending idleLater();

  // Compiles `wgsl` (entry point "main") against an explicit bind group 0 whose binding i has kind
  // layout[i]. Throws Error(Gpu) quoting each offending source line when compilation fails.
  ComputePipeline createComputePipeline(std::string_view wgsl, std::span<const BindingKind> layout,
                                        std::string_view label = {});
  ComputePipeline createComputePipeline(std::string_view wgsl, std::initializer_list<BindingKind> layout,
                                        std::string_view label = {}) {
    return createComputePipeline(wgsl, std::span<const BindingKind>(layout.begin(), layout.size()), label);
  }
  // A validated bind group for `pipeline` (entry i binds binding i), for callers that reuse it.
  BindGroup createBindGroup(const ComputePipeline& pipeline, std::span<const BindingEntry> entries,
                            std::string_view label = {});

  CommandRecorder recorder(const RecorderOptions& options = {});

  // Blocks until all submitted work has finished.
  void waitIdle();
  // A function run before every queue write, submit, readback and wait made through this device
  // (DeviceState::beforeQueueUse): how the runtime keeps deferred calls ahead of later queue work.
  // Empty: none. Callers hold the runtime's GPU lock.
  void setBeforeQueueUse(std::function<void()> hook);
  // Destroys the device now (its buffers become invalid); every later call throws DeviceLost.
  void destroy();
  // Makes Dawn report the device lost (wgpuDeviceForceLoss), as a driver reset would: lets tests
  // check that loss becomes Error(DeviceLost) everywhere.
  void simulateLoss(std::string_view message);
  bool isLost() const;
  // The longest any wait for the GPU may take (submit, readback, waitIdle); past it the call
  // throws Error(DeviceLost) "GPU deadline exceeded" and the device is abandoned (lost, never destroyed: work
  // that never ends may still run on it). 0 restores the default, 600 s.
  void setWaitDeadline(uint64_t milliseconds);
  uint64_t waitDeadlineMs() const;
  // Errors Dawn reported outside any error scope since the last call (also raised by submit()).
  std::vector<std::string> takeUncapturedErrors();

  const std::shared_ptr<DeviceState>& state() const { return state_; }

 private:
  static Device probed(Device d);
  friend class Buffer;
  friend class CommandRecorder;
  explicit Device(std::shared_ptr<DeviceState> s) : state_(std::move(s)) {}
  std::shared_ptr<DeviceState> state_;
};

}  // namespace wgk::gpu

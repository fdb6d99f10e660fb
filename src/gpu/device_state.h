// Internal to src/gpu: the state shared by a Device and every object made from it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "gpu/blob_cache.h"
#include "gpu/webgpu_procs.h"
#include "wgk/device.h"

namespace wgk::gpu {

struct DeviceState {
  WGPUInstance instance = nullptr;
  WGPUAdapter adapter = nullptr;
  WGPUDevice device = nullptr;
  WGPUQueue queue = nullptr;
  bool owned = true;         // created by wgk (false: Device::wrap)
  bool pollingWait = false;  // the instance lacks TimedWaitAny: poll instead of blocking waits
  uint64_t waitTimeoutNs = 600ull * 1000 * 1000 * 1000;  // a wait this long is reported, not endured
  // Set when a wait ran past waitTimeoutNs: the GPU may still be running that work, so the device is
  // treated as lost and never destroyed (destruction waits for the queue: it would hang too).
  std::atomic<bool> abandoned{false};

  // Dawn's blob cache hooks point at it (gpu/blob_cache.h): it lives as long as the device.
  std::shared_ptr<BlobCache> blobCache;

  DeviceProfile profile;
  std::string numericsProbe;  // what the numerics probe found (numerics_probe.h), for `wgk devices`
  std::set<std::string> adapterFeatures;
  WGPULimits limits = WGPU_LIMITS_INIT;

  // Written by Dawn's callbacks (possibly from another thread).
  std::atomic<bool> lost{false};
  std::mutex callbackMutex;
  std::string lostMessage;
  std::vector<std::string> uncaptured;

  // Readback staging buffers (MapRead | CopyDst) idle between readbacks (gpu/pending.h), so the
  // steady state allocates nothing; a few, bounded in number and bytes. Device lock held.
  std::vector<std::pair<WGPUBuffer, uint64_t>> idleStaging;
  std::pair<WGPUBuffer, uint64_t> takeStaging(uint64_t size);  // at least `size` bytes
  void giveStaging(WGPUBuffer buffer, uint64_t size);
  // Reused between calls so timing allocates nothing in the steady state.
  WGPUQuerySet querySet = nullptr;
  uint32_t queryCount = 0;
  WGPUBuffer queryResolve = nullptr;  // QueryResolve | CopySrc
  WGPUBuffer queryStaging = nullptr;  // MapRead | CopyDst

  // Called before wgk puts work on the queue by any other path than the runtime's pending command
  // list (a queue write, a submit, a readback, a wait): the runtime flushes its deferred calls there
  // (runtime_impl.h), so work reaches the queue in the order it was issued. Set and called under
  // the runtime's GPU lock; empty when nothing defers.
  std::function<void()> beforeQueueUse;
  // What an unfinished wait leaves behind: its callback's storage, which Dawn may still write to
  // until the instance is released (gpu/pending.h).
  void keepUntilInstanceGone(std::shared_ptr<void> p) {
    std::lock_guard<std::mutex> lock(callbackMutex);
    orphans.push_back(std::move(p));
  }
  std::vector<std::shared_ptr<void>> orphans;
  void flushPending() {
    if (beforeQueueUse) beforeQueueUse();
  }

  DeviceState() = default;
  DeviceState(const DeviceState&) = delete;
  DeviceState& operator=(const DeviceState&) = delete;
  ~DeviceState();

  // Throws Error(DeviceLost) once the device is lost or destroyed.
  void checkAlive() const;
  // Blocks until `future` completes (what: for messages). Throws Error(Gpu) on failure and
  // Error(DeviceLost) "GPU deadline exceeded" after waitTimeoutNs, abandoning the device (abandon()).
  void wait(WGPUFuture future, const char* what);
  // Marks the device lost for good without destroying it; every later call throws DeviceLost.
  void abandon(const std::string& why);
  // Abandons the device and throws Error(DeviceLost) "GPU deadline exceeded" (waiting for `what`).
  [[noreturn]] void deadlineExceeded(const char* what);
  // Throws Error(Gpu) listing errors Dawn reported outside any scope, and clears them.
  void raiseUncaptured();
  // Waits for all submitted work (queue work-done).
  void waitQueueIdle();
  // Raw buffer helpers (no RAII), used internally.
  WGPUBuffer makeBuffer(uint64_t size, WGPUBufferUsage usage, const char* label);
  static void freeBuffer(WGPUBuffer& b);
  // Maps `buffer` for reading [0, size) and copies `size` bytes out of it at `offset`.
  void mapAndCopy(WGPUBuffer buffer, uint64_t mapSize, uint64_t offset, void* dst, uint64_t size);
};

// Grows the device's cached query set and its resolve/readback buffers to hold `queries`
// timestamps (recorder.cpp).
void ensureQueryCapacity(DeviceState& s, uint32_t queries);

// Converts Dawn's error type + message into the matching wgk::Error.
[[noreturn]] void throwGpuError(const DeviceState& s, WGPUErrorType type, const std::string& message);

}  // namespace wgk::gpu

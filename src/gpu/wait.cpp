// DeviceState: waiting on futures, loss checks, error conversion and the raw buffer helpers.
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "gpu/callback_result.h"
#include "gpu/device_state.h"
#include "gpu/names.h"
#include "wgk/error.h"

namespace wgk::gpu {

namespace {
// The blob caches of abandoned devices, kept reachable until exit (Dawn may still call their hooks):
// held here rather than leaked, so LeakSanitizer sees no leak.
void keepUntilExit(std::shared_ptr<BlobCache> cache) {
  static std::mutex mutex;
  static auto* kept = new std::vector<std::shared_ptr<BlobCache>>();
  std::lock_guard lock(mutex);
  kept->push_back(std::move(cache));
}
}  // namespace

DeviceState::~DeviceState() {
  // Callbacks may still fire during release (device lost: "destroyed"); they only touch members
  // that are alive until this body ends.
  const Procs& p = procs();
  for (auto& [buffer, size] : idleStaging) freeBuffer(buffer);
  freeBuffer(queryResolve);
  freeBuffer(queryStaging);
  if (querySet) {
    p.QuerySetDestroy(querySet);
    p.QuerySetRelease(querySet);
  }
  if (abandoned.load()) {
    // Work that never ends may still run on it: releasing the last reference would wait for that
    // work inside Dawn, forever. The device, its queue and its adapter are leaked on purpose, and
    // with them the blob cache their hooks point at.
    if (blobCache) keepUntilExit(std::move(blobCache));
    if (instance) p.InstanceProcessEvents(instance);
    return;
  }
  if (queue) p.QueueRelease(queue);
  if (device) {
    if (owned && !lost.load()) p.DeviceDestroy(device);
    p.DeviceRelease(device);
  }
  if (adapter) p.AdapterRelease(adapter);
  if (instance) {
    // Deliver callbacks of the destruction before the instance goes away.
    p.InstanceProcessEvents(instance);
    p.InstanceRelease(instance);
  }
}

void DeviceState::checkAlive() const {
  if (!lost.load()) return;
  std::string why;
  {
    std::lock_guard<std::mutex> lock(const_cast<std::mutex&>(callbackMutex));
    why = lostMessage;
  }
  throw Error(ErrorCode::DeviceLost, "the WebGPU device is lost" + (why.empty() ? "" : ": " + why));
}

void DeviceState::abandon(const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(callbackMutex);
    lostMessage = why;
  }
  abandoned.store(true);
  lost.store(true);
}

namespace {
// Milliseconds when below 10 s, else seconds: "500 ms", "60 s".
std::string durationText(uint64_t ns) {
  const uint64_t ms = ns / 1000000;
  return ms < 10000 ? std::to_string(ms) + " ms" : std::to_string(ms / 1000) + " s";
}
}  // namespace

void DeviceState::deadlineExceeded(const char* what) {
  DeviceState& s = *this;
  const std::string limit = durationText(s.waitTimeoutNs);
  s.abandon("abandoned after GPU work ran past the " + limit + " deadline");
  throw Error(ErrorCode::DeviceLost,
              "GPU deadline exceeded: the GPU did not finish within the " + limit +
                  " deadline per call (waiting for " + what +
                  "; RuntimeOptions::gpuTimeoutMs, WGK_GPU_TIMEOUT_MS, --gpu-timeout-ms): a shader that "
                  "never ends? The device is abandoned; the runtime creates a new one for the next call");
}

void DeviceState::wait(WGPUFuture future, const char* what) {
  const Procs& p = procs();
  WGPUFutureWaitInfo info{future, 0};
  if (abandoned.load()) checkAlive();  // its queue may never drain: do not wait on it again
  if (!pollingWait) {
    WGPUWaitStatus st = p.InstanceWaitAny(instance, 1, &info, waitTimeoutNs);
    if (st == WGPUWaitStatus_Success) return;
    if (st == WGPUWaitStatus_TimedOut) deadlineExceeded(what);
    // A caller's instance without TimedWaitAny refuses blocking waits: poll from now on.
    pollingWait = true;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(waitTimeoutNs);
  for (;;) {
    p.InstanceProcessEvents(instance);
    WGPUWaitStatus st = p.InstanceWaitAny(instance, 1, &info, 0);
    if (st == WGPUWaitStatus_Success && info.completed) return;
    if (st != WGPUWaitStatus_Success && st != WGPUWaitStatus_TimedOut)
      throw Error(ErrorCode::Gpu, std::string("waiting for ") + what + " failed (WaitAny status " +
                                      std::to_string(static_cast<int>(st)) + ")");
    if (std::chrono::steady_clock::now() > deadline) deadlineExceeded(what);
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

void DeviceState::raiseUncaptured() {
  std::vector<std::string> errors;
  {
    std::lock_guard<std::mutex> lock(callbackMutex);
    errors.swap(uncaptured);
  }
  if (errors.empty()) return;
  std::string msg = "WebGPU reported " + std::to_string(errors.size()) + " error(s) outside wgk's checks: ";
  for (size_t i = 0; i < errors.size(); ++i) msg += (i ? "; " : "") + errors[i];
  throw Error(ErrorCode::Gpu, msg);
}

void DeviceState::waitQueueIdle() {
  CallbackResult<WGPUQueueWorkDoneStatus> r{WGPUQueueWorkDoneStatus_Error};
  wait(procs().QueueOnSubmittedWorkDone(queue, statusCallback(WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT, r)),
       "the GPU to finish");
  checkAlive();
  if (r.status != WGPUQueueWorkDoneStatus_Success)
    throw Error(ErrorCode::Gpu, "the GPU work failed to complete: " + r.message);
}

WGPUBuffer DeviceState::makeBuffer(uint64_t size, WGPUBufferUsage usage, const char* label) {
  WGPUBufferDescriptor d = WGPU_BUFFER_DESCRIPTOR_INIT;
  d.label = toView(label);
  d.usage = usage;
  d.size = size;
  return procs().DeviceCreateBuffer(device, &d);
}

void DeviceState::freeBuffer(WGPUBuffer& b) {
  if (!b) return;
  procs().BufferDestroy(b);
  procs().BufferRelease(b);
  b = nullptr;
}

void DeviceState::mapAndCopy(WGPUBuffer buffer, uint64_t mapSize, uint64_t offset, void* dst, uint64_t size) {
  CallbackResult<WGPUMapAsyncStatus> r{WGPUMapAsyncStatus_Error};
  const Procs& p = procs();
  wait(p.BufferMapAsync(buffer, WGPUMapMode_Read, 0, static_cast<size_t>(mapSize),
                        statusCallback(WGPU_BUFFER_MAP_CALLBACK_INFO_INIT, r)),
       "a buffer mapping");
  checkAlive();
  if (r.status != WGPUMapAsyncStatus_Success)
    throw Error(ErrorCode::Gpu, "mapping the readback buffer failed: " + r.message);
  const void* src = p.BufferGetConstMappedRange(buffer, 0, static_cast<size_t>(mapSize));
  if (!src) {
    p.BufferUnmap(buffer);
    throw Error(ErrorCode::Gpu, "the mapped readback buffer has no data pointer");
  }
  if (size) std::memcpy(dst, static_cast<const char*>(src) + offset, static_cast<size_t>(size));
  p.BufferUnmap(buffer);
}

void throwGpuError(const DeviceState& s, WGPUErrorType type, const std::string& message) {
  s.checkAlive();
  if (type == WGPUErrorType_OutOfMemory) throw Error(ErrorCode::OutOfMemory, "out of GPU memory: " + message);
  throw Error(ErrorCode::Gpu, "WebGPU " + errorTypeName(type) + " error: " + message);
}

}  // namespace wgk::gpu

// A pool of device buffers for scratch (intermediates, uploads of host inputs) and for
// runtime-allocated outputs. Reuse is safe without waiting: the queue runs submissions in order,
// so a buffer released after one submit and handed out for the next is only touched after the
// earlier work (deferred calls not yet submitted are flushed before any other queue work:
// runtime_impl.h). A Batch or Graph also keeps a pool of its own (no device allocation, no
// capacity): outputs it made that the caller dropped go there, reusable by its later calls in the
// same command buffer, and back to the runtime's pool at submit (BatchImpl). Sizes are rounded up (to 256
// bytes, then to 1/8 of their power of two above 64 KiB) so near sizes share buffers; the pool keeps at most
// `capacityBytes` idle.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "gpu/device.h"

namespace wgk::runtime {

class BufferPool : public std::enable_shared_from_this<BufferPool> {
 public:
  BufferPool(gpu::Device device, uint64_t capacityBytes)
      : device_(std::move(device)), capacity_(capacityBytes) {}
  // A pool that never allocates (take() only) and keeps whatever it is given: a batch's own.
  BufferPool() : capacity_(UINT64_MAX) {}

  // A buffer of at least `size` bytes with `usage`: reused when one is idle, else created.
  // Callers must hold the runtime's GPU lock.
  gpu::Buffer acquire(uint64_t size, gpu::BufferUsage usage);
  // An idle buffer for `size` and `usage`, or an empty one (never allocates).
  gpu::Buffer take(uint64_t size, gpu::BufferUsage usage);
  // Gives a buffer back; thread-safe and makes no WebGPU call (so DeviceTensor destructors may run
  // on any thread). Buffers past the capacity are destroyed at the next trim().
  void release(gpu::Buffer buffer);
  // Destroys idle buffers beyond the capacity (callers hold the GPU lock, and no unsubmitted work
  // may use them: the runtime trims only with no deferred call pending).
  void trim();
  void clear();
  // Moves every idle buffer into `to` (a batch's pool back into the runtime's at submit).
  void drainInto(BufferPool& to);

  uint64_t idleBuffers() const;
  uint64_t idleBytes() const;
  uint64_t acquired() const { return acquired_; }  // buffers handed out by acquire(), ever
  uint64_t created() const { return created_; }    // of those, newly allocated on the device
  static uint64_t roundSize(uint64_t size);

 private:
  using Key = std::pair<uint64_t, uint32_t>;  // rounded size, usage bits
  gpu::Device device_;
  uint64_t capacity_;
  mutable std::mutex mutex_;
  std::map<Key, std::vector<gpu::Buffer>> idle_;
  uint64_t idleBytes_ = 0;
  std::vector<gpu::Buffer> overflow_;
  std::atomic<uint64_t> acquired_{0}, created_{0};  // released past capacity: destroyed under the GPU lock
};

}  // namespace wgk::runtime

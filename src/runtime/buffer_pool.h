// A pool of device buffers for scratch (intermediates, uploads of host inputs) and for
// runtime-allocated outputs. Reuse is safe without waiting: the queue runs submissions in order,
// so a buffer released after one submit and handed out for the next is only touched after the
// earlier work (deferred calls not yet submitted are flushed before any other queue work:
// runtime_impl.h). A Batch or Graph also keeps a pool of its own (no device allocation, no
// capacity): outputs it made that the caller dropped go there, reusable by its later calls in the
// same command buffer, and back to the runtime's pool at submit (BatchImpl). Sizes are rounded up (to 256
// bytes, then to 1/8 of their power of two above 64 KiB) so near sizes share buffers; the pool keeps at most
// `capacityBytes` idle, evicting the buffers released longest ago to take a new one (a pool full of
// an earlier workload's sizes kept none of the next one's: every call then created a buffer, 1,200
// in a 300-call decode chain on the H100 after the MatMul cases had filled it).
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
  // on any thread). To stay within the capacity it evicts the idle buffers released longest ago
  // (or this one, when it alone is larger); evicted buffers are destroyed at the next trim().
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
  struct Idle {
    uint64_t released;  // release order: the smallest is the least recently released
    gpu::Buffer buffer;
  };
  // Evicts the least recently released idle buffer into overflow_ (mutex_ held); false when none.
  bool evictOldest();
  std::map<Key, std::vector<Idle>> idle_;  // per key, oldest first
  uint64_t idleBytes_ = 0, releases_ = 0;
  std::vector<gpu::Buffer> overflow_;
  std::atomic<uint64_t> acquired_{0}, created_{0};  // released past capacity: destroyed under the GPU lock
};

}  // namespace wgk::runtime

// GPU work waited for in steps, so that the caller need not hold the device while the GPU runs:
// a readback (copies into a private staging buffer, then a buffer mapping) or the queue's work so
// far. Every call here except bytes() talks to Dawn, so the caller holds the device (the runtime's
// GPU lock) for it; between calls the lock may be released and other threads may record and
// submit. That is how a thread waiting for its readback stops blocking the others (docs/runtime.md
// "Thread safety"):
//
//   Pending r = dev.readLater({{y.handle(), 0, bytes}});  // lock held: copy, submit, map; no wait
//   while (!r.poll(timeoutNs)) { /* release the lock a while, take it again */ }
//   // lock released: r.bytes(0) stays readable (the staging buffer is this read's alone, mapped)
//   r.release();                                          // lock held: unmap, staging reused
//
// The device's deadline (Device::setWaitDeadline) counts from readLater()/idleLater(): a poll past
// it throws Error(DeviceLost) "GPU deadline exceeded" and abandons the device, as a blocking wait
// does. A failed mapping is Error(Gpu); a lost device Error(DeviceLost).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "wgk/webgpu_handles.h"

namespace wgk::gpu {

struct DeviceState;

class Pending {
 public:
  // A range of a buffer (CopySrc usage) to read back.
  struct Range {
    WGPUBuffer buffer = nullptr;
    uint64_t offset = 0, size = 0;
  };

  Pending();
  Pending(Pending&& o) noexcept;
  Pending& operator=(Pending&& o) noexcept;
  Pending(const Pending&) = delete;
  Pending& operator=(const Pending&) = delete;
  ~Pending();  // release(): the caller holds the device lock

  // True once the work has finished (then bytes() are valid), asking Dawn and waiting inside it up
  // to `timeoutNs` (0: just look). Throws as the header says; the Pending is then finished with.
  bool poll(uint64_t timeoutNs);
  // Blocks until done (poll with the rest of the deadline): the single-threaded way.
  void wait();
  // False when the instance cannot wait with a timeout (a caller's instance without
  // TimedWaitAny): poll(timeout) then only looks, so the caller sleeps between polls itself.
  bool canBlock() const;
  bool done() const { return done_; }
  // Range i's bytes once done, until release(); reading them needs no lock.
  std::span<const std::byte> bytes(size_t i) const;
  // Unmaps and returns the staging buffer to the device (or, when not done, destroys it); the
  // Pending is then empty.
  void release();

 private:
  friend class Device;
  struct Callback;  // where Dawn's callback writes: stays put while the Pending moves
  struct Placed {
    uint64_t at = 0, size = 0;  // where the range's bytes lie in the mapped staging buffer
  };
  void finish();
  std::shared_ptr<DeviceState> state_;
  std::unique_ptr<Callback> callback_;
  uint64_t future_ = 0;  // WGPUFuture id
  WGPUBuffer staging_ = nullptr;
  uint64_t stagingSize_ = 0, mappedSize_ = 0;
  std::vector<Placed> placed_;
  const std::byte* mapped_ = nullptr;
  std::chrono::steady_clock::time_point start_;
  bool done_ = false;
};

}  // namespace wgk::gpu

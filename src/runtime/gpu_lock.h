// The runtime's GPU lock, and waiting for the GPU without holding it.
//
// Every WebGPU call of a runtime is made under one lock: wgk does not enable Dawn's implicit device
// synchronisation, so Dawn's device may be used by one thread at a time, and that includes asking
// it whether work has finished (a WaitAny on a queue ticks the device). A thread that waits for
// its readback therefore holds the lock only while it asks; between asks it lets go, so other
// threads record and submit meanwhile (docs/runtime.md "Thread safety").
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "gpu/pending.h"

namespace wgk::runtime {

// A mutex (usable with std::lock_guard and std::unique_lock) that knows whether other threads
// want it, which is what a waiter needs to decide between waiting inside Dawn and stepping aside.
class GpuMutex {
 public:
  void lock() {
    waiting_.fetch_add(1, std::memory_order_relaxed);
    mutex_.lock();
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    taken_.fetch_add(1, std::memory_order_relaxed);
  }
  bool try_lock() {
    if (!mutex_.try_lock()) return false;
    taken_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  void unlock() { mutex_.unlock(); }
  bool contended() const { return waiting_.load(std::memory_order_relaxed) > 0; }  // threads in lock()
  uint64_t taken() const { return taken_.load(std::memory_order_relaxed); }        // times locked, ever

 private:
  std::mutex mutex_;
  std::atomic<int> waiting_{0};
  std::atomic<uint64_t> taken_{0};
};

// Waits until `work` is done. `lock` holds `mutex` on entry and on return (also when it throws);
// in between it is held only while Dawn is asked. While no other thread wants the lock, the wait
// happens inside Dawn (woken as soon as the GPU finishes) in slices of 1 ms, so a thread that
// arrives meanwhile waits one slice at most; once one does, the waiter steps aside: it lets go,
// naps (20 us, doubling up to 500 us while nobody takes the lock), and asks again without waiting
// inside Dawn, until no other thread has taken the lock for 2 ms. `waiting` counts the threads in
// here (introspect::gpuWaiters, what tests look at).
void awaitGpu(std::unique_lock<GpuMutex>& lock, gpu::Pending& work, std::atomic<int>& waiting);

}  // namespace wgk::runtime

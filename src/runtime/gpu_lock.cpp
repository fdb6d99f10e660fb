#include "runtime/gpu_lock.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace wgk::runtime {
namespace {
constexpr uint64_t kMinSliceNs = 50'000, kMaxSliceNs = 1'000'000;
constexpr uint64_t kMinNapNs = 20'000, kMaxNapNs = 500'000;

struct Counted {
  explicit Counted(std::atomic<int>& n) : n_(n) { ++n_; }
  ~Counted() { --n_; }
  std::atomic<int>& n_;
};
}  // namespace

void awaitGpu(std::unique_lock<GpuMutex>& lock, gpu::Pending& work, std::atomic<int>& waiting) {
  if (work.poll(0)) return;
  Counted counted(waiting);
  GpuMutex& m = *lock.mutex();
  uint64_t slice = kMinSliceNs, nap = kMinNapNs;
  bool aside = !work.canBlock();  // an instance without timed waits: always poll and nap
  for (;;) {
    if (!aside) {
      if (work.poll(slice)) return;
      slice = std::min(2 * slice, kMaxSliceNs);
      if (!m.contended()) continue;  // nobody came during the slice: wait inside Dawn again
      aside = true;
      nap = kMinNapNs;
    }
    const uint64_t before = m.taken();
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::nanoseconds(nap));
    lock.lock();
    if (work.poll(0)) return;
    const bool othersBusy = m.taken() - before > 1 || m.contended();  // our own lock() counts once
    if (othersBusy) {
      nap = kMinNapNs;
    } else if (work.canBlock()) {
      aside = false;  // quiet again: back to waiting inside Dawn
      slice = kMinSliceNs;
    } else {
      nap = std::min(2 * nap, kMaxNapNs);
    }
  }
}

}  // namespace wgk::runtime

#include "runtime/gpu_lock.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace wgk::runtime {
namespace {
// Waiting inside Dawn in shorter slices costs a lone thread latency (measured on lavapipe: a host
// call's median 59-65 us with one long wait, 67-75 us with 1 ms slices, 76-141 us with slices from
// 50 us up): a slice that ends before the GPU does is not free.
constexpr uint64_t kSliceNs = 1'000'000;
constexpr uint64_t kMinNapNs = 20'000, kMaxNapNs = 500'000;
// Stepping aside lasts until nobody else took the lock for this long: a thread calling in a loop
// leaves gaps between its calls, and waiting inside Dawn in such a gap would block its next call.
constexpr auto kQuiet = std::chrono::milliseconds(2);

struct Counted {
  explicit Counted(std::atomic<int>& n) : n_(n) { ++n_; }
  ~Counted() { --n_; }
  std::atomic<int>& n_;
};
}  // namespace

void awaitGpu(std::unique_lock<GpuMutex>& lock, gpu::Pending& work, std::atomic<int>& waiting) {
  Counted counted(waiting);
  GpuMutex& m = *lock.mutex();
  uint64_t nap = kMinNapNs;
  bool aside = !work.canBlock();  // an instance without timed waits: always look and nap
  auto lastBusy = std::chrono::steady_clock::now();
  for (;;) {
    if (!aside) {
      if (work.poll(kSliceNs)) return;
      if (!m.contended()) continue;  // nobody came during the slice: wait inside Dawn again
      aside = true;
      nap = kMinNapNs;
    } else if (work.poll(0)) {
      return;
    }
    const uint64_t before = m.taken();
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::nanoseconds(nap));
    lock.lock();
    const auto now = std::chrono::steady_clock::now();
    if (m.taken() - before > 1 || m.contended()) {  // others took it (our own lock() counts once)
      nap = kMinNapNs;
      lastBusy = now;
    } else if (work.canBlock() && now - lastBusy > kQuiet) {
      aside = false;  // quiet again: back to waiting inside Dawn
    } else {
      nap = std::min(2 * nap, kMaxNapNs);
    }
  }
}

}  // namespace wgk::runtime

// Timing helpers of `wgk chain` (chain_modes.cpp, chain_batch_modes.cpp).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/chain_runner.h"

namespace wgk::harness::chain {

using Clock = std::chrono::steady_clock;
inline double usSince(Clock::time_point t) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
}

// The upper median (the middle element of an odd count): -1 for none.
inline double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// The repetitions of one mode: host time of the loop and wall time to the end of the wait.
struct Repetitions {
  std::vector<double> submitUs, totalUs;
  void add(double submit, double total) {
    submitUs.push_back(submit);
    totalUs.push_back(total);
  }
  ChainModeResult result(int64_t calls) const {
    ChainModeResult m;
    m.ran = true;
    const double n = static_cast<double>(calls);
    m.perOpUsMedian = median(totalUs) / n;
    m.perOpUsMin = *std::min_element(totalUs.begin(), totalUs.end()) / n;
    m.submitUsPerOpMedian = median(submitUs) / n;
    m.totalMsMedian = median(totalUs) / 1e3;
    return m;
  }
};

// What the runtime's pool handed out while a mode ran `callsRun` calls (its warm-up, capture and
// every repetition): per call, and how many of those buffers were new device allocations.
inline void countAllocations(ChainModeResult& m, Runtime& rt, const CacheStats& before, int64_t callsRun) {
  const CacheStats after = rt.cacheStats();
  m.allocsPerCall =
      static_cast<double>(after.bufferAcquires - before.bufferAcquires) / static_cast<double>(callsRun);
  m.buffersCreated = static_cast<int64_t>(after.buffersCreated - before.buffersCreated);
}

}  // namespace wgk::harness::chain

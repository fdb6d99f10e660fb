// The copy roofline: how fast this device moves bytes from one buffer to another with a plain
// WebGPU compute kernel. Every memory-bound op is measured against it (`wgk bench`):
// roofline_ratio = op GB/s / copy GB/s on buffers of the same total size, in the same run.
//
//   harness::CopyRoofline roof(*rt);
//   harness::CopyMeasurement m = roof.measure(bytes, /*warmup=*/3, /*repeat=*/20);
//
// Several copy kernels are timed (1, 2, 4 or 8 vec4<f32> per thread with coalesced strides inside
// a workgroup's block, at workgroup sizes 128 to 1024) and the fastest median wins: the bar must be
// a good copy, not a naive one. Workgroup counts above maxComputeWorkgroupsPerDimension fold into y.
// A copy larger than maxStorageBufferBindingSize is bound in windows within the limit, one dispatch
// each, and its time is their sum.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/buffer.h"
#include "gpu/pipeline.h"
#include "wgk/runtime.h"

namespace wgk::harness {

struct CopyMeasurement {
  uint64_t bytes = 0;      // read + written: src and dst are bytes/2 each (rounded up to 16)
  double gpuUsMedian = 0;  // GPU time of one copy (timestamps), median over the repeats
  double gpuUsMin = 0;
  double gbps = 0;                           // bytes / median time
  std::string kernel;                        // the copy variant that was fastest ("vec4x4/wg256", ...)
  std::map<std::string, double> candidates;  // every copy variant's GB/s (median)
  int chunks = 1;  // windows bound per copy (more than one when the copy exceeds the binding limit)
};

class CopyRoofline {
 public:
  explicit CopyRoofline(Runtime& runtime) : runtime_(runtime) {}
  // Times every copy variant on fresh buffers of bytes/2 each; results are memoised by size so
  // cases that move the same bytes share one measurement. Needs timestamp-query. Warm-up is at
  // least `warmup` copies and at least `warmupMs` of back-to-back copies (clocks; bench_runner.h).
  const CopyMeasurement& measure(uint64_t bytes, int warmup, int repeat, double warmupMs = 0);
  const std::map<uint64_t, CopyMeasurement>& all() const { return done_; }
  // Keeps the GPU busy with 64 MiB copies for `ms` of wall time. GPUs drop to idle clocks within
  // a second of idling and take up to a second of steady load to come back (measured on the H200:
  // SM clock 345 vs 1980 MHz); `wgk bench` spins up after each case's host-side input generation.
  void spinUp(double ms);

  // The windows (offset, size) a copy of `half` bytes per buffer is bound in: each at most
  // maxBinding bytes, at offsets aligned to offsetAlign (and 16). Exposed for tests.
  static std::vector<std::pair<uint64_t, uint64_t>> chunksFor(uint64_t half, uint64_t maxBinding,
                                                              uint64_t offsetAlign);

  // The WGSL of a copy kernel where each invocation copies `perThread` vec4<f32> (exposed for tests).
  static std::string copyWgsl(uint32_t perThread, uint32_t workgroupSize = 256);

 private:
  Runtime& runtime_;
  std::map<std::string, gpu::ComputePipeline> pipelines_;  // by kernel name
  std::map<uint64_t, CopyMeasurement> done_;
  std::unique_ptr<gpu::Buffer> spinSrc_, spinDst_;  // created by the first spinUp()
};

// Median and minimum of a non-empty sample (Error(Internal) when empty).
double medianOf(std::vector<double> v);
double minOf(const std::vector<double>& v);

}  // namespace wgk::harness

// The copy roofline: how fast this device moves bytes from one buffer to another with a plain
// WebGPU compute kernel. Every memory-bound op is measured against it (`wgk bench`):
// roofline_ratio = op GB/s / copy GB/s on buffers of the same total size, in the same run.
//
//   harness::CopyRoofline roof(rt->impl());
//   harness::CopyMeasurement m = roof.measure(bytes, /*warmup=*/3, /*repeat=*/20);
//
// Several copy kernels are timed (one vec4<f32> per thread, and 4 or 8 per thread with coalesced
// strides inside a workgroup's block) and the fastest median wins: the bar must be a good copy,
// not a naive one. Workgroup counts above maxComputeWorkgroupsPerDimension fold into y.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpu/pipeline.h"

namespace wgk {
class RuntimeImpl;
}

namespace wgk::harness {

struct CopyMeasurement {
  uint64_t bytes = 0;      // read + written: src and dst are bytes/2 each (rounded up to 16)
  double gpuUsMedian = 0;  // GPU time of one copy (timestamps), median over the repeats
  double gpuUsMin = 0;
  double gbps = 0;     // bytes / median time
  std::string kernel;  // the copy variant that was fastest ("vec4x4", ...)
};

class CopyRoofline {
 public:
  explicit CopyRoofline(RuntimeImpl& runtime) : runtime_(runtime) {}
  // Times every copy variant on fresh buffers of bytes/2 each; results are memoised by size so
  // cases that move the same bytes share one measurement. Needs timestamp-query.
  const CopyMeasurement& measure(uint64_t bytes, int warmup, int repeat);
  const std::map<uint64_t, CopyMeasurement>& all() const { return done_; }

  // The WGSL of a copy kernel where each invocation copies `perThread` vec4<f32> (exposed for tests).
  static std::string copyWgsl(uint32_t perThread);

 private:
  RuntimeImpl& runtime_;
  std::map<uint32_t, gpu::ComputePipeline> pipelines_;  // by vec4s per thread
  std::map<uint64_t, CopyMeasurement> done_;
};

// Median and minimum of a non-empty sample (Error(Internal) when empty).
double medianOf(std::vector<double> v);
double minOf(const std::vector<double>& v);

}  // namespace wgk::harness

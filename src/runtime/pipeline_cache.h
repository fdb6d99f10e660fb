// Compiled pipelines keyed by a hash of the rendered WGSL and the binding layout: two plans (or two
// kernels) that render the same shader share one compilation.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpu/device.h"

namespace wgk::runtime {

class PipelineCache {
 public:
  explicit PipelineCache(gpu::Device device) : device_(std::move(device)) {}
  // Callers hold the runtime's GPU lock (compilation uses the device).
  gpu::ComputePipeline get(const std::string& wgsl, const std::vector<gpu::BindingKind>& layout,
                           const std::string& label);
  // Forgets every pipeline and compiles on `device` from now on (after a device loss).
  void reset(gpu::Device device);
  uint64_t compiled() const { return compiled_; }
  uint64_t hits() const { return hits_; }

 private:
  gpu::Device device_;
  std::mutex mutex_;
  std::unordered_map<std::string, gpu::ComputePipeline> pipelines_;  // key: layout + '\0' + wgsl
  // Atomic: cacheStats() reads them without the lock while other threads compile.
  std::atomic<uint64_t> compiled_{0}, hits_{0};
};

}  // namespace wgk::runtime

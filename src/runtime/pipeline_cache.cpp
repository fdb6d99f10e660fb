#include "runtime/pipeline_cache.h"

namespace wgk::runtime {

gpu::ComputePipeline PipelineCache::get(const std::string& wgsl, const std::vector<gpu::BindingKind>& layout,
                                        const std::string& label) {
  // The key is the text itself (hashed by unordered_map): exact, so a hash collision can never
  // hand out the wrong shader.
  std::string key;
  key.reserve(layout.size() + 1 + wgsl.size());
  for (gpu::BindingKind k : layout) key.push_back(static_cast<char>('0' + static_cast<int>(k)));
  key.push_back('\0');
  key += wgsl;
  std::lock_guard lock(mutex_);
  if (auto it = pipelines_.find(key); it != pipelines_.end()) {
    ++hits_;
    return it->second;
  }
  gpu::ComputePipeline p = device_.createComputePipeline(wgsl, layout, label);
  ++compiled_;
  pipelines_.emplace(std::move(key), p);
  return p;
}

void PipelineCache::reset(gpu::Device device) {
  std::lock_guard lock(mutex_);
  pipelines_.clear();
  device_ = std::move(device);
}

}  // namespace wgk::runtime

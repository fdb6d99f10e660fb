#include "runtime/pipeline_cache.h"

#include "hub/digest.h"

namespace wgk::runtime {

PipelineKey PipelineKey::of(std::string name, const std::string& wgsl,
                            const std::vector<gpu::BindingKind>& layout) {
  // The layout goes into the digest: one text compiled against two layouts is two pipelines.
  std::string bytes;
  bytes.reserve(layout.size() + 1 + wgsl.size());
  for (gpu::BindingKind k : layout) bytes.push_back(static_cast<char>('0' + static_cast<int>(k)));
  bytes.push_back('\0');
  bytes += wgsl;
  return {std::move(name), hub::sha256Hex(bytes)};
}

PipelineCache::PipelineCache(gpu::Device device, size_t capacity)
    : device_(std::move(device)), capacity_(capacity ? capacity : kDefaultCapacity) {}

gpu::ComputePipeline PipelineCache::get(const PipelineKey& key, const std::string& wgsl,
                                        const std::vector<gpu::BindingKind>& layout,
                                        const std::string& label) {
  std::string k = key.name + '\n' + key.digest;
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(k); it != index_.end()) {
    ++hits_;
    lru_.splice(lru_.begin(), lru_, it->second);  // now the most recently used
    return it->second->pipeline;
  }
  ++misses_;
  gpu::ComputePipeline p = device_.createComputePipeline(wgsl, layout, label);
  ++compiled_;
  if (lru_.size() >= capacity_) {
    index_.erase(lru_.back().key);
    lru_.pop_back();
    ++evictions_;
  }
  lru_.push_front({k, key.name, p});
  index_.emplace(std::move(k), lru_.begin());
  size_ = lru_.size();
  return p;
}

void PipelineCache::reset(gpu::Device device) {
  std::lock_guard lock(mutex_);
  index_.clear();
  lru_.clear();
  size_ = 0;
  device_ = std::move(device);
}

std::vector<std::string> PipelineCache::names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const Entry& e : lru_) out.push_back(e.name);
  return out;
}

}  // namespace wgk::runtime

#include "runtime/buffer_pool.h"

#include <bit>
#include <string>

#include "core/log.h"

namespace wgk::runtime {

uint64_t BufferPool::roundSize(uint64_t size) {
  if (size <= 256) return 256;
  if (size <= (64u << 10)) return (size + 255) & ~uint64_t{255};
  const uint64_t step = std::bit_floor(size) / 8;  // at most 12.5% slack for large buffers
  return (size + step - 1) / step * step;
}

gpu::Buffer BufferPool::take(uint64_t size, gpu::BufferUsage usage) {
  const Key key{roundSize(size), static_cast<uint32_t>(usage)};
  std::lock_guard lock(mutex_);
  auto it = idle_.find(key);
  if (it == idle_.end() || it->second.empty()) return {};
  gpu::Buffer b = std::move(it->second.back().buffer);  // the last released: its bind groups are warm
  it->second.pop_back();
  idleBytes_ -= b.size();
  return b;
}

gpu::Buffer BufferPool::acquire(uint64_t size, gpu::BufferUsage usage) {
  ++acquired_;
  if (gpu::Buffer b = take(size, usage)) return b;
  ++created_;
  if (log::enabled(log::Level::Debug)) {  // why the pool missed: what it holds idle
    std::string idle;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [key, v] : idle_)
        if (!v.empty())
          idle += " " + std::to_string(v.size()) + "x" + std::to_string(key.first) + "/" +
                  std::to_string(key.second);
    }
    log::debug("pool", "creating a buffer of " + std::to_string(roundSize(size)) + " bytes, usage " +
                           std::to_string(static_cast<uint32_t>(usage)) +
                           "; idle:" + (idle.empty() ? " none" : idle));
  }
  return device_.createBuffer(roundSize(size), usage, "wgk pooled buffer");
}

void BufferPool::release(gpu::Buffer buffer) {
  if (!buffer) return;
  std::lock_guard lock(mutex_);
  if (buffer.size() > capacity_) {
    overflow_.push_back(std::move(buffer));
    return;
  }
  while (idleBytes_ + buffer.size() > capacity_ && evictOldest()) {
  }
  const Key key{buffer.size(), static_cast<uint32_t>(buffer.usage())};
  idleBytes_ += buffer.size();
  idle_[key].push_back({++releases_, std::move(buffer)});
}

bool BufferPool::evictOldest() {
  auto oldest = idle_.end();
  for (auto it = idle_.begin(); it != idle_.end(); ++it)
    if (!it->second.empty() &&
        (oldest == idle_.end() || it->second.front().released < oldest->second.front().released))
      oldest = it;
  if (oldest == idle_.end()) return false;
  gpu::Buffer b = std::move(oldest->second.front().buffer);
  oldest->second.erase(oldest->second.begin());
  idleBytes_ -= b.size();
  if (log::enabled(log::Level::Debug))
    log::debug("pool",
               "evicting an idle buffer of " + std::to_string(b.size()) + " bytes (released longest ago)");
  overflow_.push_back(std::move(b));
  return true;
}

void BufferPool::trim() {
  std::lock_guard lock(mutex_);
  overflow_.clear();
}

void BufferPool::drainInto(BufferPool& to) {
  std::map<Key, std::vector<Idle>> idle;
  {
    std::lock_guard lock(mutex_);
    idle.swap(idle_);
    idleBytes_ = 0;
  }
  for (auto& [key, buffers] : idle)
    for (Idle& b : buffers) to.release(std::move(b.buffer));
}

void BufferPool::clear() {
  std::lock_guard lock(mutex_);
  overflow_.clear();
  idle_.clear();
  idleBytes_ = 0;
}

uint64_t BufferPool::idleBuffers() const {
  std::lock_guard lock(mutex_);
  uint64_t n = 0;
  for (const auto& [k, v] : idle_) n += v.size();
  return n;
}

uint64_t BufferPool::idleBytes() const {
  std::lock_guard lock(mutex_);
  return idleBytes_;
}

}  // namespace wgk::runtime

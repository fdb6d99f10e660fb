// A GPU buffer owned by wgk (RAII): destroyed and released when the object goes away.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "wgk/webgpu_handles.h"

namespace wgk::gpu {

struct DeviceState;

// Our own usage bits (mapped to WGPUBufferUsage inside src/gpu), combinable with |.
enum class BufferUsage : uint32_t {
  None = 0,
  Storage = 1u << 0,
  Uniform = 1u << 1,
  CopySrc = 1u << 2,
  CopyDst = 1u << 3,
  MapRead = 1u << 4,  // only with CopyDst
  QueryResolve = 1u << 5,
};
constexpr BufferUsage operator|(BufferUsage a, BufferUsage b) {
  return static_cast<BufferUsage>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
constexpr bool hasUsage(BufferUsage set, BufferUsage bit) {
  return (static_cast<uint32_t>(set) & static_cast<uint32_t>(bit)) != 0;
}

// The size in bytes of any WebGPU buffer (ours or a caller's), as WebGPU reports it.
uint64_t bufferSize(WGPUBuffer buffer);

class Buffer {
 public:
  Buffer() = default;
  Buffer(Buffer&& o) noexcept;
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  WGPUBuffer handle() const { return buffer_; }
  uint64_t size() const { return size_; }                // allocated bytes (>= 4, multiple of 4)
  uint64_t requestedSize() const { return requested_; }  // what the caller asked for
  BufferUsage usage() const { return usage_; }
  explicit operator bool() const { return buffer_ != nullptr; }

  // Queue write at `offset` (multiple of 4); needs CopyDst.
  void upload(std::span<const std::byte> bytes, uint64_t offset = 0);
  // Blocking readback; needs CopySrc. The whole requested size, or a range.
  std::vector<std::byte> readback() const;
  void readback(void* dst, uint64_t size, uint64_t offset = 0) const;
  // Frees the GPU memory now (the object becomes empty).
  void destroy();
  // Buffers made by Device::createBuffer and not yet freed, in this process (leak tests).
  static uint64_t liveCount();

 private:
  friend class Device;
  Buffer(std::shared_ptr<DeviceState> s, WGPUBuffer b, uint64_t size, uint64_t requested, BufferUsage u)
      : state_(std::move(s)), buffer_(b), size_(size), requested_(requested), usage_(u) {
    if (buffer_) ++live();
  }
  static std::atomic<uint64_t>& live();
  std::shared_ptr<DeviceState> state_;
  WGPUBuffer buffer_ = nullptr;
  uint64_t size_ = 0, requested_ = 0;
  BufferUsage usage_ = BufferUsage::None;
};

}  // namespace wgk::gpu

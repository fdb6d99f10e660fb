// One device per test binary: creating a Vulkan device on lavapipe costs more than most tests.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpu/device.h"

namespace wgk::gpu::test {

// Shorthands the device suites share.
inline constexpr auto RO = BindingKind::ReadOnlyStorage;
inline constexpr auto RW = BindingKind::Storage;
inline constexpr auto UNI = BindingKind::Uniform;
inline constexpr auto kInOut = BufferUsage::Storage | BufferUsage::CopyDst | BufferUsage::CopySrc;

inline Device& sharedDevice() {
  static Device device = Device::create();
  return device;
}

inline std::span<const std::byte> bytesOf(const auto& vec) {
  return std::as_bytes(std::span(vec));
}

template <class T>
std::vector<T> readAll(const Buffer& b, size_t count) {
  std::vector<T> out(count);
  b.readback(out.data(), count * sizeof(T));
  return out;
}

}  // namespace wgk::gpu::test

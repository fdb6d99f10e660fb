// How tensors are laid out in device buffers: the Hub's storage ABI (docs/runtime.md "Storage").
// float16 takes 2 bytes, float32 / int32 / uint32 4, int64 8; int8, int16, uint8 and bool are
// widened to one 4-byte word per element (sign- or zero-extended). A spec 2.1 port may instead
// pack uint8 four to a u32 word (`layout: "packed"`), or store a logical int64 as int32 / uint32
// (`storage`, with `narrowing: checked | saturating` on inputs).
//
//   auto layout = wgk::runtime::storageFor(port, wgk::DType::Int8);
//   std::vector<std::byte> words = wgk::runtime::toDevice(host, layout, "a");   // widened
//   wgk::runtime::fromDevice(words, out, layout);                               // narrowed back
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "package/manifest.h"
#include "wgk/tensor.h"

namespace wgk::runtime {

struct StorageLayout {
  DType logical = DType::Float32;  // what the caller sees
  DType storage = DType::Float32;  // what the device holds (== logical but for int64 projections)
  bool packed = false;             // uint8, four per word
  package::Narrowing narrowing = package::Narrowing::None;

  // Device bytes of a tensor of `shape` in this layout (not rounded up).
  uint64_t bytes(const Shape& shape) const;
  // True when the device bytes are the host bytes (float16, float32, int32, uint32, plain int64).
  bool identity() const;
};

// The layout of a tensor bound to `port` (nullptr: a tensor of no port, e.g. Runtime::upload).
StorageLayout storageFor(const package::PortSpec* port, DType logical);

// Device bytes of a plain tensor (no port): numel x storageBytes(dtype).
uint64_t deviceBytes(DType dtype, const Shape& shape);

// Host -> device words. Error(Contract) naming `name` and the element for a checked narrowing
// out of range, or a packed element above 255.
std::vector<std::byte> toDevice(const HostTensor& host, const StorageLayout& layout, const std::string& name);
// Device words -> `out` (whose dtype is layout.logical and shape is set).
void fromDevice(std::span<const std::byte> device, HostTensor& out, const StorageLayout& layout);

}  // namespace wgk::runtime

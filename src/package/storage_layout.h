// How a port's tensor is laid out in its device buffer: the Hub's storage ABI (docs/runtime.md
// "Storage"). float16 takes 2 bytes, float32 / int32 / uint32 4, int64 8; int8, int16, uint8 and
// bool are widened to one 4-byte word per element. A spec 2.1 port may instead pack uint8 four to a
// u32 word (`layout: "packed"`), or store a logical int64 as int32 / uint32 (`storage`). Here, in
// the package layer, so that the planner and the runtime size a tensor by one rule (the planner
// refuses what the runtime could not bind; the runtime converts host data by the same layout).
//
//   auto layout = wgk::package::storageFor(manifest.findPort("a"), wgk::DType::Int8);
//   layout.bytes({2, 8}) == 64;   // widened to 4 bytes each
#pragma once

#include <cstdint>

#include "package/manifest.h"
#include "wgk/tensor.h"

namespace wgk::package {

struct StorageLayout {
  DType logical = DType::Float32;  // what the caller sees
  DType storage = DType::Float32;  // what the device holds (== logical but for int64 projections)
  bool packed = false;             // uint8, four per word
  Narrowing narrowing = Narrowing::None;

  // Device bytes of a tensor of `shape` in this layout (not rounded up).
  uint64_t bytes(const Shape& shape) const;
  // True when the device bytes are the host bytes (float16, float32, int32, uint32, plain int64).
  bool identity() const;
};

// The layout of a tensor bound to `port` (nullptr: a tensor of no port, e.g. Runtime::upload).
StorageLayout storageFor(const PortSpec* port, DType logical);

// Device bytes of a plain tensor (no port): numel x storageBytes(dtype).
uint64_t deviceBytes(DType dtype, const Shape& shape);

}  // namespace wgk::package

// Host <-> device conversion of tensors in the Hub's storage ABI (package/storage_layout.h has the
// layout: widened int8/int16/uint8/bool, packed uint8, int64 stored as int32/uint32 with
// `narrowing: checked | saturating` on inputs).
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
#include "package/storage_layout.h"
#include "wgk/tensor.h"

namespace wgk::runtime {

// The layout model lives in the package layer (one rule for the planner and the runtime).
using package::deviceBytes;
using package::storageFor;
using package::StorageLayout;

// Host -> device words. Error(Contract) naming `name` and the element for a checked narrowing
// out of range, or a packed element above 255.
std::vector<std::byte> toDevice(const HostTensor& host, const StorageLayout& layout, const std::string& name);
// Device words -> `out` (whose dtype is layout.logical and shape is set).
void fromDevice(std::span<const std::byte> device, HostTensor& out, const StorageLayout& layout);

}  // namespace wgk::runtime

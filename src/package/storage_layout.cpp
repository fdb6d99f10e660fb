#include "package/storage_layout.h"

#include <cstdint>

namespace wgk::package {

// Saturates at UINT64_MAX (an element count below 2^63 times 8 bytes can exceed 64 bits): a size
// that large is refused by every limit it meets.
uint64_t deviceBytes(DType dtype, const Shape& shape) {
  const uint64_t n = static_cast<uint64_t>(numel(shape)), b = storageBytes(dtype);
  return n > UINT64_MAX / b ? UINT64_MAX : n * b;
}

uint64_t StorageLayout::bytes(const Shape& shape) const {
  if (packed) return (static_cast<uint64_t>(numel(shape)) + 3) / 4 * 4;
  return deviceBytes(storage, shape);
}

bool StorageLayout::identity() const {
  return !packed && logical == storage && storageBytes(storage) == dtypeBytes(storage);
}

StorageLayout storageFor(const PortSpec* port, DType logical) {
  StorageLayout l;
  l.logical = logical;
  l.storage = logical;
  if (!port) return l;
  if (port->storage && logical == DType::Int64) l.storage = *port->storage;
  l.packed = port->packed && logical == DType::Uint8;
  l.narrowing = port->narrowing;
  return l;
}

}  // namespace wgk::package

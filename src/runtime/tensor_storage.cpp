#include "runtime/tensor_storage.h"

#include <cstring>
#include <limits>

#include "wgk/error.h"

namespace wgk::runtime {

namespace {

template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace

std::vector<std::byte> toDevice(const HostTensor& host, const StorageLayout& l, const std::string& name) {
  const int64_t n = host.numel();
  const std::byte* src = host.bytes().data();
  std::vector<std::byte> out(l.bytes(host.shape()));
  if (l.packed) {
    for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = src[i];  // little-endian words
    return out;
  }
  if (l.logical == DType::Int64 && l.storage != DType::Int64) {
    const bool toInt32 = l.storage == DType::Int32;
    const int64_t lo = toInt32 ? std::numeric_limits<int32_t>::min() : 0;
    const int64_t hi = toInt32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<uint32_t>::max();
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = load<int64_t>(src + 8 * i);
      if (v < lo || v > hi) {
        if (l.narrowing != package::Narrowing::Saturating)
          throw Error(ErrorCode::Contract, "input '" + name + "': int64 element " + std::to_string(i) + " (" +
                                               std::to_string(v) + ") is outside the " +
                                               std::string(dtypeName(l.storage)) + " storage range");
        v = v < lo ? lo : hi;
      }
      if (toInt32)
        store(out.data() + 4 * i, static_cast<int32_t>(v));
      else
        store(out.data() + 4 * i, static_cast<uint32_t>(v));
    }
    return out;
  }
  switch (l.logical) {
    case DType::Int8:
      for (int64_t i = 0; i < n; ++i) store(out.data() + 4 * i, static_cast<int32_t>(load<int8_t>(src + i)));
      break;
    case DType::Int16:
      for (int64_t i = 0; i < n; ++i)
        store(out.data() + 4 * i, static_cast<int32_t>(load<int16_t>(src + 2 * i)));
      break;
    case DType::Uint8:
    case DType::Bool:
      for (int64_t i = 0; i < n; ++i)
        store(out.data() + 4 * i, static_cast<uint32_t>(load<uint8_t>(src + i)));
      break;
    default:
      std::memcpy(out.data(), src, out.size());
  }
  return out;
}

void fromDevice(std::span<const std::byte> dev, HostTensor& out, const StorageLayout& l) {
  const int64_t n = out.numel();
  std::byte* dst = out.bytes().data();
  if (dev.size() < l.bytes(out.shape()))
    throw Error(ErrorCode::Internal, "device data of " + std::to_string(dev.size()) + " bytes is short");
  if (l.packed) {
    std::memcpy(dst, dev.data(), static_cast<size_t>(n));
    return;
  }
  if (l.logical == DType::Int64 && l.storage != DType::Int64) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v =
          l.storage == DType::Int32 ? load<int32_t>(dev.data() + 4 * i) : load<uint32_t>(dev.data() + 4 * i);
      store(dst + 8 * i, v);
    }
    return;
  }
  switch (l.logical) {
    case DType::Int8:
      for (int64_t i = 0; i < n; ++i) store(dst + i, static_cast<int8_t>(load<int32_t>(dev.data() + 4 * i)));
      break;
    case DType::Int16:
      for (int64_t i = 0; i < n; ++i)
        store(dst + 2 * i, static_cast<int16_t>(load<int32_t>(dev.data() + 4 * i)));
      break;
    case DType::Uint8:
      for (int64_t i = 0; i < n; ++i)
        store(dst + i, static_cast<uint8_t>(load<uint32_t>(dev.data() + 4 * i)));
      break;
    case DType::Bool:
      for (int64_t i = 0; i < n; ++i)
        store(dst + i, static_cast<uint8_t>(load<uint32_t>(dev.data() + 4 * i) != 0));
      break;
    default:
      std::memcpy(dst, dev.data(), out.byteSize());
  }
}

}  // namespace wgk::runtime

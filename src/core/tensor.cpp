#include "wgk/tensor.h"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/half.h"
#include "wgk/error.h"

namespace wgk {
namespace {
// Byte size of a tensor; rejects negative dimensions and sizes that overflow (a crafted file header
// could otherwise wrap the product and allocate a small buffer for a huge shape).
size_t checkedBytes(DType dtype, const Shape& shape) {
  uint64_t bytes = dtypeBytes(dtype);
  bool overflow = false;
  for (int64_t d : shape) {
    if (d < 0)
      throw Error(ErrorCode::InvalidArgument, "negative dimension " + std::to_string(d) + " in tensor shape");
    if (d != 0 && bytes > (uint64_t{1} << 62) / static_cast<uint64_t>(d))
      overflow = true;
    else
      bytes *= static_cast<uint64_t>(d);
  }
  // A zero dimension makes the tensor empty whatever the other dimensions are.
  for (int64_t d : shape)
    if (d == 0) return 0;
  if (overflow) throw Error(ErrorCode::InvalidArgument, "tensor shape is too large (byte size overflows)");
  return static_cast<size_t>(bytes);
}

template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

void storeDouble(DType t, std::byte* p, double v, size_t index) {
  auto integral = [&](double lo, double hi) {
    if (!(v == std::floor(v)) || v < lo || v > hi)
      throw Error(ErrorCode::InvalidArgument,
                  fmt::format("value {} at index {} does not fit {}", v, index, dtypeName(t)));
  };
  switch (t) {
    case DType::Float32:
      store<float>(p, static_cast<float>(v));
      return;
    case DType::Float16:
      store<uint16_t>(p, doubleToHalf(v));
      return;  // one rounding, not two
    case DType::Int32:
      integral(-2147483648.0, 2147483647.0);
      store<int32_t>(p, static_cast<int32_t>(v));
      return;
    case DType::Uint32:
      integral(0, 4294967295.0);
      store<uint32_t>(p, static_cast<uint32_t>(v));
      return;
    case DType::Int8:
      integral(-128, 127);
      store<int8_t>(p, static_cast<int8_t>(v));
      return;
    case DType::Uint8:
      integral(0, 255);
      store<uint8_t>(p, static_cast<uint8_t>(v));
      return;
    case DType::Int16:
      integral(-32768, 32767);
      store<int16_t>(p, static_cast<int16_t>(v));
      return;
    case DType::Int64:
      integral(-9.2e18, 9.2e18);
      store<int64_t>(p, static_cast<int64_t>(v));
      return;
    case DType::Bool:
      integral(0, 1);
      store<uint8_t>(p, static_cast<uint8_t>(v));
      return;
  }
}
}  // namespace

HostTensor::HostTensor(DType dtype, Shape shape)
    : dtype_(dtype), shape_(std::move(shape)), bytes_(checkedBytes(dtype_, shape_)) {}

HostTensor::HostTensor(DType dtype, Shape shape, std::vector<std::byte> bytes)
    : dtype_(dtype), shape_(std::move(shape)), bytes_(std::move(bytes)) {
  const size_t want = checkedBytes(dtype_, shape_);
  if (bytes_.size() != want)
    throw Error(ErrorCode::InvalidArgument, "tensor data has " + std::to_string(bytes_.size()) +
                                                " bytes, shape needs " + std::to_string(want));
}

HostTensor HostTensor::fromDoubles(DType dtype, Shape shape, std::span<const double> values) {
  HostTensor t(dtype, std::move(shape));
  if (static_cast<int64_t>(values.size()) != t.numel())
    throw Error(ErrorCode::InvalidArgument, std::to_string(values.size()) + " values for a tensor of " +
                                                std::to_string(t.numel()) + " elements");
  const size_t eb = dtypeBytes(dtype);
  for (size_t i = 0; i < values.size(); ++i) storeDouble(dtype, t.bytes_.data() + i * eb, values[i], i);
  return t;
}

HostTensor HostTensor::fromFloats(DType dtype, Shape shape, std::span<const float> values) {
  std::vector<double> d(values.begin(), values.end());
  return fromDoubles(dtype, std::move(shape), d);
}

double HostTensor::at(int64_t i) const {
  if (i < 0 || i >= numel())
    throw Error(ErrorCode::InvalidArgument, "element index " + std::to_string(i) + " out of range");
  const std::byte* p = bytes_.data() + static_cast<size_t>(i) * dtypeBytes(dtype_);
  switch (dtype_) {
    case DType::Float32:
      return load<float>(p);
    case DType::Float16:
      return halfToFloat(load<uint16_t>(p));
    case DType::Int32:
      return load<int32_t>(p);
    case DType::Uint32:
      return load<uint32_t>(p);
    case DType::Int8:
      return load<int8_t>(p);
    case DType::Uint8:
      return load<uint8_t>(p);
    case DType::Int16:
      return load<int16_t>(p);
    case DType::Int64:
      return static_cast<double>(load<int64_t>(p));
    case DType::Bool:
      return load<uint8_t>(p) ? 1.0 : 0.0;
  }
  return 0;
}

std::vector<double> HostTensor::toDoubles() const {
  std::vector<double> out(static_cast<size_t>(numel()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = at(static_cast<int64_t>(i));
  return out;
}

std::vector<float> HostTensor::toFloats() const {
  std::vector<float> out(static_cast<size_t>(numel()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(at(static_cast<int64_t>(i)));
  return out;
}

}  // namespace wgk

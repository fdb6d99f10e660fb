// wgk/tensor.h — tensors a kernel call takes and returns.
//
// HostTensor owns typed bytes in CPU memory (C order; float16 stored as IEEE binary16 bits).
// GpuTensor names a WebGPU buffer the caller owns (the runtime never frees it), so kernels can
// be chained on the device without a readback.
//
//   wgk::HostTensor x = wgk::HostTensor::fromFloats(wgk::DType::Float16, {2, 8}, values);
//   std::vector<float> back = x.toFloats();      // exact: every f16 is a float
//   wgk::GpuTensor g{buffer, wgk::DType::Float16, {2, 8}};
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "wgk/dtype.h"
#include "wgk/export.h"

#include "wgk/webgpu_handles.h"

namespace wgk {

class WGK_API HostTensor {
 public:
  HostTensor() = default;
  HostTensor(DType dtype, Shape shape);  // zero-filled
  HostTensor(DType dtype, Shape shape, std::vector<std::byte> bytes);  // checks the size

  // Converts from float (float16: round to nearest even, subnormals kept; ints: truncation is an error).
  static HostTensor fromFloats(DType dtype, Shape shape, std::span<const float> values);
  static HostTensor fromDoubles(DType dtype, Shape shape, std::span<const double> values);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t numel() const { return wgk::numel(shape_); }
  size_t byteSize() const { return bytes_.size(); }
  std::span<std::byte> bytes() { return bytes_; }
  std::span<const std::byte> bytes() const { return bytes_; }

  // Element i widened to double (float16 decoded exactly).
  double at(int64_t i) const;
  std::vector<float> toFloats() const;
  std::vector<double> toDoubles() const;

 private:
  DType dtype_ = DType::Float32;
  Shape shape_;
  std::vector<std::byte> bytes_;
};

struct GpuTensor {
  WGPUBuffer buffer = nullptr;  // usage must include Storage; CopySrc/CopyDst for readback/upload
  DType dtype = DType::Float32;
  Shape shape;
  uint64_t offset = 0;  // byte offset into the buffer (multiple of minStorageBufferOffsetAlignment)
};

}  // namespace wgk

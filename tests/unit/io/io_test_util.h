// Helpers shared by the tensor-file tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "support/expect_error.h"
#include "wgk/error.h"
#include "wgk/tensor.h"

namespace wgk::testutil {

inline std::vector<std::byte> bytesOf(const std::string& s) {
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());  // an empty vector's data() may be null
  return out;
}

inline void append(std::vector<std::byte>& out, const void* p, size_t n) {
  const auto* b = static_cast<const std::byte*>(p);
  out.insert(out.end(), b, b + n);
}

using test_support::expectError;

inline void expectSameTensor(const HostTensor& a, const HostTensor& b) {
  EXPECT_EQ(a.dtype(), b.dtype());
  EXPECT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.byteSize(), b.byteSize());
  if (a.byteSize() > 0) EXPECT_EQ(0, std::memcmp(a.bytes().data(), b.bytes().data(), a.byteSize()));
}

// One small tensor of each dtype the files support, with distinctive values.
inline std::vector<HostTensor> sampleTensors() {
  return {
      HostTensor::fromDoubles(DType::Float32, {2, 3}, std::vector<double>{1.5, -2, 0x1p-149, -0.0, 3e38, 7}),
      HostTensor::fromDoubles(DType::Float16, {3}, std::vector<double>{65504, -0x1p-24, 0.333}),
      HostTensor::fromDoubles(DType::Int32, {2, 1, 2},
                              std::vector<double>{-2147483648.0, 2147483647.0, 0, -5}),
      HostTensor::fromDoubles(DType::Uint32, {2}, std::vector<double>{4294967295.0, 1}),
      HostTensor::fromDoubles(DType::Int8, {4}, std::vector<double>{-128, 127, 0, -1}),
      HostTensor::fromDoubles(DType::Uint8, {1, 3}, std::vector<double>{0, 255, 128}),
      HostTensor::fromDoubles(DType::Int16, {2}, std::vector<double>{-32768, 32767}),
      HostTensor::fromDoubles(DType::Int64, {2}, std::vector<double>{-9e15, 123456789012.0}),
      HostTensor::fromDoubles(DType::Bool, {3}, std::vector<double>{1, 0, 1}),
      HostTensor::fromDoubles(DType::Float32, {}, std::vector<double>{42.25}),  // 0-d
      HostTensor::fromDoubles(DType::Float16, {}, std::vector<double>{-1}),     // 0-d
      HostTensor(DType::Float32, {0}),                                          // empty
      HostTensor(DType::Float16, {2, 0, 3}),                                    // empty, rank 3
      HostTensor(DType::Uint8, {0}),
  };
}

}  // namespace wgk::testutil

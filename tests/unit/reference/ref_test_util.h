// Helpers shared by the reference-op tests.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "support/expect_error.h"
#include "wgk/error.h"
#include "wgk/tensor.h"

namespace wgk::testutil {

inline HostTensor f32(Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(DType::Float32, std::move(s), v);
}
inline HostTensor f16(Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(DType::Float16, std::move(s), v);
}

using test_support::expectError;

}  // namespace wgk::testutil

// Helpers shared by the reference-op tests.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "wgk/error.h"
#include "wgk/tensor.h"

namespace wgk::testutil {

inline HostTensor f32(Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(DType::Float32, std::move(s), v);
}
inline HostTensor f16(Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(DType::Float16, std::move(s), v);
}

inline void expectError(const std::function<void()>& fn, ErrorCode code,
                        const std::vector<std::string>& parts) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const auto& p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << "'" << p << "' not in: " << e.what();
    return;
  }
  ADD_FAILURE() << "no wgk::Error thrown";
}

}  // namespace wgk::testutil

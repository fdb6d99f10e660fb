#include <gtest/gtest.h>

#include <cmath>

#include "core/half.h"
#include "ref_test_util.h"
#include "reference/random.h"

namespace wgk {
namespace {
using reference::randomTensor;
using reference::randomValues;

TEST(Random, FollowsSplitmix64) {
  // splitmix64 seeded with 0 yields 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f
  // (the generator's published first outputs); u = (z >> 11) * 2^-53.
  const auto v = randomValues(3, 0, 0.0, 1.0);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0], static_cast<double>(0xe220a8397b1dcdafull >> 11) * 0x1p-53);
  EXPECT_EQ(v[1], static_cast<double>(0x6e789e6aa1b965f4ull >> 11) * 0x1p-53);
  EXPECT_EQ(v[2], static_cast<double>(0x06c45d188009454full >> 11) * 0x1p-53);
  EXPECT_EQ(v[0], 0.8833108082136426);
  // min + (max - min) * u, seed 42 in [-1, 1] (values from an independent Python run).
  const auto w = randomValues(3, 42, -1.0, 1.0);
  EXPECT_EQ(w, (std::vector<double>{0.4831297575436466, -0.6801792142461598, -0.4427977394897227}));
  EXPECT_EQ(randomValues(5, 7, 2.0, 2.0), std::vector<double>(5, 2.0));
}

TEST(Random, TensorsRoundOnceToTheirDType) {
  const auto t = randomTensor(DType::Float16, {4, 8}, 42, -1, 1);
  const auto raw = randomValues(32, 42, -1, 1);
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(t.at(i), static_cast<double>(halfToFloat(doubleToHalf(raw[static_cast<size_t>(i)]))));
  const auto f = randomTensor(DType::Float32, {32}, 42, -1, 1);
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(f.at(i), static_cast<double>(static_cast<float>(raw[static_cast<size_t>(i)])));
  EXPECT_EQ(randomTensor(DType::Float32, {0, 3}, 1, 0, 1).numel(), 0);
  EXPECT_EQ(randomTensor(DType::Float16, {}, 1, 0, 1).numel(), 1);
}

TEST(Random, RejectsBadRanges) {
  testutil::expectError([] { randomValues(1, 0, 1.0, 0.0); }, ErrorCode::InvalidArgument, {"min <= max"});
  testutil::expectError([] { randomValues(1, 0, 0.0, INFINITY); }, ErrorCode::InvalidArgument, {"finite"});
  testutil::expectError([] { randomTensor(DType::Int32, {2}, 0, 0, 1); }, ErrorCode::Unsupported, {"int32"});
}

}  // namespace
}  // namespace wgk

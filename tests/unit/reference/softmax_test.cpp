#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/half.h"
#include "ref_test_util.h"
#include "reference/ops.h"

namespace wgk {
namespace {
using reference::softmax;
using testutil::f16;
using testutil::f32;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Softmax, LastAxisValues) {
  const auto y = softmax(f32({2, 3}, {0, 0, 0, 1, 2, 3}), -1);
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), s = 1 + e1 + e2;
  const std::vector<double> want = {1.0 / 3, 1.0 / 3, 1.0 / 3, 1 / s, e1 / s, e2 / s};
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(y.at(static_cast<int64_t>(i)), static_cast<double>(static_cast<float>(want[i])));
  EXPECT_EQ(softmax(f32({2, 3}, {0, 0, 0, 1, 2, 3}), 1).toDoubles(), y.toDoubles());
}

TEST(Softmax, OtherAxesWalkStrides) {
  // [2, 2] along axis 0: columns {1, 3} and {2, 2}.
  const auto y = softmax(f32({2, 2}, {1, 2, 3, 2}), 0);
  const double a = 1 / (1 + std::exp(2.0));
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{static_cast<float>(a), 0.5, static_cast<float>(1 - a), 0.5}));
  // Middle axis of [2, 3, 2]: each of the 4 (outer, inner) pairs sums to 1.
  std::vector<double> v(12);
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.7 * static_cast<double>(i)) * 3;
  const auto m = softmax(f32({2, 3, 2}, v), -2);
  for (int o = 0; o < 2; ++o)
    for (int i = 0; i < 2; ++i) {
      double sum = 0;
      for (int k = 0; k < 3; ++k) sum += m.at(o * 6 + k * 2 + i);
      EXPECT_NEAR(sum, 1.0, 1e-6);
    }
}

TEST(Softmax, MaskedLargeAndPoisonedRows) {
  // -inf gives 0; a fully masked row and a row with NaN or +inf are NaN; 3e38 does not overflow.
  const auto y = softmax(f32({5, 2}, {0, -kInf, -kInf, -kInf, 3e38, -3e38, NAN, 1, kInf, 1}), -1);
  EXPECT_EQ(y.at(0), 1.0);
  EXPECT_EQ(y.at(1), 0.0);
  EXPECT_TRUE(std::isnan(y.at(2)) && std::isnan(y.at(3)));
  EXPECT_EQ(y.at(4), 1.0);
  EXPECT_EQ(y.at(5), 0.0);
  for (int64_t i = 6; i < 10; ++i) EXPECT_TRUE(std::isnan(y.at(i))) << i;
  // float16: 65504 and -65504 in one row, and one rounding of the double result.
  const auto h = softmax(f16({1, 3}, {65504, -65504, 65504}), -1);
  EXPECT_EQ(h.toDoubles(), (std::vector<double>{0.5, 0, 0.5}));
  const auto r = softmax(f16({1, 3}, {0, 1, 2}), -1);
  const double s = 1 + std::exp(1.0) + std::exp(2.0);
  EXPECT_EQ(r.at(2), static_cast<double>(halfToFloat(doubleToHalf(std::exp(2.0) / s))));
}

TEST(Softmax, RowOfOneAndEmpty) {
  EXPECT_EQ(softmax(f32({3, 1}, {-5, 0, 7}), -1).toDoubles(), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(softmax(f32({0, 4}, {}), -1).shape(), (Shape{0, 4}));
  EXPECT_EQ(softmax(f32({4, 0}, {}), 1).numel(), 0);
}

TEST(Softmax, RejectsBadAxisDtypeAndRank) {
  testutil::expectError(
      [] {
        softmax(f32({2, 3}, {0, 0, 0, 0, 0, 0}), 2);
      },
      ErrorCode::Contract, {"Softmax", "axis 2", "[-2, 1]"});
  testutil::expectError(
      [] {
        softmax(f32({2, 3}, {0, 0, 0, 0, 0, 0}), -3);
      },
      ErrorCode::Contract, {"axis -3"});
  testutil::expectError([] { softmax(f32({}, {1}), -1); }, ErrorCode::Contract, {"rank >= 1"});
  testutil::expectError(
      [] {
        softmax(HostTensor::fromDoubles(DType::Int32, {2}, std::vector<double>{1, 2}), -1);
      },
      ErrorCode::Contract, {"float32 or float16"});
}

}  // namespace
}  // namespace wgk

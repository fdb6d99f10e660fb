#include <gtest/gtest.h>

#include <cmath>

#include "core/half.h"
#include "ref_test_util.h"
#include "reference/ops.h"

namespace wgk {
namespace {
using reference::gemmaRotaryEmbedding;
using testutil::f16;
using testutil::f32;

double h(double v) {
  return halfToFloat(doubleToHalf(v));
}

TEST(GemmaRotaryEmbedding, ZeroAngleIsIdentityAndBroadcastsOverHeads) {
  // emb [1, 2, 2] = 0: cos = 1, sin = 0 -> out1 = q, out2 = k, for every head.
  const auto emb = f32({1, 2, 2}, {0, 0, 0, 0});
  const auto q = f16({1, 3, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const auto k = f16({1, 3, 2, 2}, {-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12});
  const auto other = f16({1, 3, 2, 2}, std::vector<double>(12, 100));
  auto [o1, o2] = gemmaRotaryEmbedding(emb, q, other, k, other);
  EXPECT_EQ(o1.dtype(), DType::Float16);
  EXPECT_EQ(o1.shape(), q.shape());
  EXPECT_EQ(o1.toDoubles(), q.toDoubles());
  EXPECT_EQ(o2.toDoubles(), k.toDoubles());
}

TEST(GemmaRotaryEmbedding, HandComputedRotation) {
  // angle f32(pi/3) = 1.0471975803: cos = 0.4999999748 -> f16 0.5; sin = 0.8660254 -> f16 0.8662109375.
  // q = 1, q_rot = 1.01171875: f16(q c) = 0.5, f16(q_rot s) = f16(0.87636184692) = 0.87646484375,
  // out1 = f16(1.37646484375) = 1.376953125 (a tie, to even). Without the product rounding it would
  // be f16(0.5 + 0.87636184692) = 1.3759765625: the contract's rounding is visible here.
  // k = 2, k_rot = -1: out2 = f16(1 - 0.8662109375) = f16(0.1337890625) = 0.1337890625.
  const auto emb = f32({1, 1, 1}, {1.0471975511965976});
  auto [o1, o2] = gemmaRotaryEmbedding(emb, f16({1, 1, 1, 1}, {1}), f16({1, 1, 1, 1}, {1.01171875}),
                                       f16({1, 1, 1, 1}, {2}), f16({1, 1, 1, 1}, {-1}));
  EXPECT_EQ(o1.at(0), 1.376953125);
  EXPECT_EQ(o2.at(0), 0.1337890625);
}

TEST(GemmaRotaryEmbedding, LargeAnglesMatchALongDoubleComputation) {
  // Angles up to 32767 rad (position x inverse frequency in real models). With q = k_rot = 1 and
  // q_rot = k = 0, out1 is f16(cos(angle)) and out2 is f16(sin(angle)).
  std::vector<double> angles;
  for (int i = 0; i < 4096; ++i) angles.push_back(static_cast<float>(i * 8.0 + i * 0.001));  // 0 .. 32772
  angles.push_back(32767.0);
  angles.push_back(-32767.0);
  angles.push_back(0x1.921fb6p+0);  // f32 nearest pi/2: cos is -4.37e-8, rounding to -2^-24 in f16
  angles.push_back(0x1.921fb6p+1);  // f32 nearest pi
  const int64_t n = static_cast<int64_t>(angles.size());
  const auto emb = f32({1, n, 1}, angles);
  const auto one = f16({1, 1, n, 1}, std::vector<double>(static_cast<size_t>(n), 1));
  const auto zero = f16({1, 1, n, 1}, std::vector<double>(static_cast<size_t>(n), 0));
  auto [c, s] = gemmaRotaryEmbedding(emb, one, zero, zero, one);
  const auto embValues = emb.toDoubles();
  for (int64_t i = 0; i < n; ++i) {
    const long double a = embValues[static_cast<size_t>(i)];
    ASSERT_EQ(c.at(i), h(static_cast<double>(std::cos(a)))) << "cos of " << embValues[static_cast<size_t>(i)];
    ASSERT_EQ(s.at(i), h(static_cast<double>(std::sin(a)))) << "sin of " << embValues[static_cast<size_t>(i)];
  }
  EXPECT_EQ(c.at(n - 2), -0x1p-24);  // the subnormal survives: cos(f32(pi/2)) is not zero
  EXPECT_EQ(s.at(n - 1), -0x1p-24);  // sin(f32(pi)) = -8.74e-8 -> f16 -2^-24
}

TEST(GemmaRotaryEmbedding, RejectsBadArguments) {
  const ErrorCode c = ErrorCode::Contract;
  const auto emb = f32({1, 2, 4}, std::vector<double>(8, 0));
  const auto q = f16({1, 2, 2, 4}, std::vector<double>(16, 1));
  const auto q3 = f16({1, 2, 2, 3}, std::vector<double>(12, 1));
  testutil::expectError([&] { gemmaRotaryEmbedding(emb, q, q, q, q3); }, c,
                        {"k_rot shape [1, 2, 2, 3]", "q's shape"});
  testutil::expectError(
      [&] {
        gemmaRotaryEmbedding(f32({1, 3, 4}, std::vector<double>(12, 0)), q, q, q, q);
      },
      c, {"emb shape [1, 3, 4]", "[1, 2, 4]"});
  testutil::expectError(
      [&] {
        gemmaRotaryEmbedding(f16({1, 2, 4}, std::vector<double>(8, 0)), q, q, q, q);
      },
      c, {"emb must be float32"});
  const auto q32 = f32({1, 2, 2, 4}, std::vector<double>(16, 1));
  testutil::expectError([&] { gemmaRotaryEmbedding(emb, q32, q32, q32, q32); }, c, {"q must be float16"});
  testutil::expectError([&] { gemmaRotaryEmbedding(emb, q, q32, q, q); }, c, {"q_rot must be float16"});
  testutil::expectError(
      [&] {
        gemmaRotaryEmbedding(f32({2, 4}, std::vector<double>(8, 0)), q, q, q, q);
      },
      c, {"emb must have rank 3"});
  testutil::expectError(
      [&] {
        gemmaRotaryEmbedding(emb, f16({2, 2, 4}, std::vector<double>(16, 1)), q, q, q);
      },
      c, {"q must have rank 4"});
}

TEST(GemmaRotaryEmbedding, EmptyShapes) {
  auto [o1, o2] = gemmaRotaryEmbedding(f32({1, 0, 4}, {}), f16({1, 2, 0, 4}, {}), f16({1, 2, 0, 4}, {}),
                                       f16({1, 2, 0, 4}, {}), f16({1, 2, 0, 4}, {}));
  EXPECT_EQ(o1.shape(), (Shape{1, 2, 0, 4}));
  EXPECT_EQ(o2.numel(), 0);
}

}  // namespace
}  // namespace wgk

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/half.h"
#include "ref_test_util.h"
#include "reference/ops.h"

namespace wgk {
namespace {
using reference::fastGelu;
using testutil::f16;
using testutil::f32;

// The contract's formula, literally, in long double: 0.5 x (1 + tanh(0.7978845608 x + 0.0356774081 x^3)).
long double geluTanh(long double x) {
  return 0.5L * x * (1.0L + std::tanh(0.7978845608L * x + 0.0356774081L * x * x * x));
}

TEST(FastGelu, HandComputedValues) {
  // x = 1: z = 0.7978845608 + 0.0356774081 = 0.8335619689, tanh(z) = 0.6823839812,
  //   y = 0.5 * 1 * 1.6823839812 = 0.8411919906 -> f32 0.8411920070648193, f16 0.84130859375.
  // x = -1: y = -0.5 * (1 - 0.6823839812) = -0.1588080094.  x = 0.5: y = 0.3457140098.
  // x = 2: y = 1.9545976941.  x = -3: y = -0.0036373921 (1 + tanh(z) = 0.00242..., no cancellation).
  const auto y = fastGelu(f32({5}, {1, -1, 0.5, 2, -3}), nullptr);
  const std::vector<float> want = {0.8411919905978127f, -0.1588080094021873f, 0.3457140098238701f,
                                   1.9545976940614953f, -0.0036373920889569145f};
  EXPECT_EQ(y.toFloats(), want);
  EXPECT_EQ(y.dtype(), DType::Float32);
  const auto yh = fastGelu(f16({1}, {1}), nullptr);
  EXPECT_EQ(yh.dtype(), DType::Float16);
  EXPECT_EQ(yh.at(0), 0.84130859375);
  // Zero and signed zero.
  const auto z = fastGelu(f32({2}, {0.0, -0.0}), nullptr);
  EXPECT_EQ(z.at(0), 0.0);
  EXPECT_EQ(z.at(1), 0.0);
}

TEST(FastGelu, MatchesTheTanhFormulaInLongDouble) {
  // Down to x = -4, 1 + tanh(z) >= 1e-5, so the literal formula in long double keeps ~14 digits.
  for (int i = -400; i <= 800; ++i) {
    const float x = static_cast<float>(i) / 100.0f;
    const float got = static_cast<float>(fastGelu(f32({}, {x}), nullptr).at(0));
    const float want = static_cast<float>(geluTanh(x));
    ASSERT_NEAR(got, want, std::fabs(want) * 2e-7) << "x = " << x;
  }
  // Below, the literal formula cancels to 0 even in long double (x = -8: the true value is
  // -3.1e-21); the reference keeps the true small value instead: x * 2 e^{2z} / (2 (1 + e^{2z})).
  for (int i = -2000; i < -400; ++i) {
    const float x = static_cast<float>(i) / 100.0f;
    const long double z = 0.7978845608L * x + 0.0356774081L * x * x * x;
    const float want = static_cast<float>(x * std::exp(2 * z) / (1 + std::exp(2 * z)));
    const float got = static_cast<float>(fastGelu(f32({}, {x}), nullptr).at(0));
    ASSERT_NEAR(got, want, std::fabs(want) * 2e-7) << "x = " << x;
    ASSERT_LE(got, 0.0f);
  }
}

TEST(FastGelu, BiasIsAddedInTheInputDType) {
  // f16: 2048 + 1 = 2049 is not an f16 (spacing 2 at 2048): the sum rounds to even, 2048, and
  // gelu(2048) = 2048. In f32 the sum stays 2049.
  const auto hb = f16({1}, {1});
  EXPECT_EQ(fastGelu(f16({1}, {2048}), &hb).at(0), 2048.0);
  const auto fb = f32({1}, {1});
  EXPECT_EQ(fastGelu(f32({1}, {2048}), &fb).at(0), 2049.0);
  // f16 sum = f16(f32(x) + f32(b)): 0.1 + 0.2 in f16 is 0.0999755859375 + 0.199951171875 = 0.2999267578125
  // -> 0.2998046875: exactly half-way between f16 neighbours (spacing 2^-12 here), so to even.
  const auto b2 = f16({1}, {0.2});
  const auto y2 = fastGelu(f16({1}, {0.1}), &b2);
  EXPECT_EQ(y2.at(0),
            static_cast<double>(halfToFloat(doubleToHalf(static_cast<double>(geluTanh(0.2998046875L))))));
}

TEST(FastGelu, BiasBroadcastsAlongTheLastDim) {
  const auto bias = f32({3}, {0, 1, -1});
  const auto y = fastGelu(f32({2, 3}, {1, 0, 2, -1, 0, 1}), &bias);
  const auto expect = fastGelu(f32({2, 3}, {1, 1, 1, -1, 1, 0}), nullptr);
  EXPECT_EQ(y.toDoubles(), expect.toDoubles());
}

TEST(FastGelu, LargeMagnitudesNeverGiveNaN) {
  // |x| = 20, 40, 1e4 (and f16's max): positive x gives x back, negative x gives -0.
  for (DType t : {DType::Float32, DType::Float16}) {
    const std::vector<double> xs = {20, 40, 1e4, -20, -40, -1e4, 65504, -65504};
    const auto y = fastGelu(HostTensor::fromDoubles(t, {8}, xs), nullptr).toDoubles();
    const std::vector<double> in = HostTensor::fromDoubles(t, {8}, xs).toDoubles();
    for (size_t i = 0; i < xs.size(); ++i) {
      SCOPED_TRACE(std::string(dtypeName(t)) + " x = " + std::to_string(xs[i]));
      ASSERT_FALSE(std::isnan(y[i]));
      if (xs[i] > 0)
        EXPECT_EQ(y[i], in[i]);
      else
        EXPECT_EQ(y[i], 0.0);  // -0 compares equal
    }
  }
  // f32 near its max: x^3 overflows float but not the double evaluation.
  EXPECT_EQ(fastGelu(f32({1}, {3e38}), nullptr).at(0), static_cast<double>(3e38f));
  EXPECT_EQ(fastGelu(f32({1}, {-3e38}), nullptr).at(0), 0.0);
}

TEST(FastGelu, InfinitiesAndNaN) {
  const double inf = std::numeric_limits<double>::infinity();
  // +inf -> +inf (the limit); -inf -> NaN (0 * inf in the formula); NaN -> NaN. Documented in ops.h.
  for (DType t : {DType::Float32, DType::Float16}) {
    const auto y =
        fastGelu(HostTensor::fromDoubles(t, {3}, std::vector<double>{inf, -inf, std::nan("")}), nullptr);
    EXPECT_EQ(y.at(0), inf);
    EXPECT_TRUE(std::isnan(y.at(1)));
    EXPECT_TRUE(std::isnan(y.at(2)));
  }
}

TEST(FastGelu, EmptyAndScalarInputs) {
  EXPECT_EQ(fastGelu(f32({0, 4}, {}), nullptr).shape(), (Shape{0, 4}));
  const auto b = f16({0}, {});
  EXPECT_EQ(fastGelu(f16({3, 0}, {}), &b).shape(), (Shape{3, 0}));
  EXPECT_EQ(fastGelu(f32({}, {2}), nullptr).toFloats(), std::vector<float>{1.9545976940614953f});
}

TEST(FastGelu, RejectsBadArguments) {
  const ErrorCode c = ErrorCode::Contract;
  const auto x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const auto wrongLen = f32({2}, {0, 0});
  testutil::expectError([&] { fastGelu(x, &wrongLen); }, c, {"bias length 2", "last dimension 3"});
  const auto rank2 = f32({1, 3}, {0, 0, 0});
  testutil::expectError([&] { fastGelu(x, &rank2); }, c, {"bias", "rank 1"});
  const auto half = f16({3}, {0, 0, 0});
  testutil::expectError([&] { fastGelu(x, &half); }, c, {"bias must be float32", "float16"});
  testutil::expectError([&] { fastGelu(HostTensor(DType::Int32, {2}), nullptr); }, c,
                        {"X must be float32 or float16", "int32"});
  const auto b1 = f32({1}, {0});
  testutil::expectError([&] { fastGelu(f32({}, {1}), &b1); }, c, {"rank >= 1"});
}

}  // namespace
}  // namespace wgk

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "package/test_spec.h"
#include "ref_test_util.h"
#include "reference/compare.h"
#include "reference/ops.h"

namespace wgk {
namespace {
using reference::mul;
using testutil::f16;
using testutil::f32;

constexpr double kInf = std::numeric_limits<double>::infinity();

HostTensor of(DType t, Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(t, std::move(s), v);
}

TEST(Mul, SameShapeAndBroadcastBothWays) {
  EXPECT_EQ(mul(f32({2, 2}, {1.5, -2, 0, 3}), f32({2, 2}, {2, 0.25, -7, -3})).toDoubles(),
            (std::vector<double>{3, -0.5, 0, -9}));
  // [3, 1] * [3] -> [3, 3]: c[i][j] = a[i] * b[j]; and the other way round.
  const auto c = mul(f32({3, 1}, {1, 2, 3}), f32({3}, {10, 20, 30}));
  EXPECT_EQ(c.shape(), (Shape{3, 3}));
  EXPECT_EQ(c.toDoubles(), (std::vector<double>{10, 20, 30, 20, 40, 60, 30, 60, 90}));
  EXPECT_EQ(mul(f32({3}, {10, 20, 30}), f32({3, 1}, {1, 2, 3})).toDoubles(), c.toDoubles());
  // A scalar (rank 0) against a row, and the zero-size rule (1 against 0 gives 0).
  EXPECT_EQ(mul(f32({}, {0.5}), f32({1, 4}, {2, 4, 6, 8})).toDoubles(), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(mul(f32({3, 1}, {1, 2, 3}), f32({3, 0}, {})).shape(), (Shape{3, 0}));
  EXPECT_EQ(mul(f32({}, {2}), f32({}, {-3})).shape(), Shape{});
}

TEST(Mul, Float32RoundsOnceAndFollowsIeee) {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: exact in double, float32 rounds the 2^-24 away (a tie to even).
  EXPECT_EQ(mul(f32({1}, {1 + 0x1p-12}), f32({1}, {1 + 0x1p-12})).at(0), 1 + 0x1p-11);
  EXPECT_EQ(mul(f32({2}, {3e38, -3e38}), f32({2}, {2, 2})).toDoubles(), (std::vector<double>{kInf, -kInf}));
  const auto s = mul(f32({5}, {kInf, kInf, 0, std::nan(""), -kInf}), f32({5}, {0, -2, -kInf, 1, -kInf}));
  EXPECT_TRUE(std::isnan(s.at(0)));  // inf * 0
  EXPECT_EQ(s.at(1), -kInf);
  EXPECT_TRUE(std::isnan(s.at(2)));  // 0 * -inf
  EXPECT_TRUE(std::isnan(s.at(3)));
  EXPECT_EQ(s.at(4), kInf);
  // Signed zero: -1 * 0 is -0.
  EXPECT_TRUE(std::signbit(mul(f32({1}, {-1}), f32({1}, {0})).at(0)));
}

TEST(Mul, Float16RoundsTheExactProductOnce) {
  EXPECT_EQ(mul(f16({1}, {256}), f16({1}, {256})).at(0), kInf);  // 65536
  EXPECT_EQ(mul(f16({1}, {255}), f16({1}, {256})).at(0), 65280.0);
  // 65520 = 4095 * 16 is the tie between 65504 and inf: to even, inf; just below it stays finite.
  EXPECT_EQ(mul(f16({1}, {4095}), f16({1}, {16})).at(0), kInf);
  EXPECT_EQ(mul(f16({1}, {-4094}), f16({1}, {16})).at(0), -65504.0);
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9.
  EXPECT_EQ(mul(f16({1}, {1 + 0x1p-10}), f16({1}, {1 + 0x1p-10})).at(0), 1 + 0x1p-9);
  // 2049 is not a float16: 1.0009765625 * 2047 = 2048.9990234375 rounds to 2048 (step 2).
  EXPECT_EQ(mul(f16({1}, {1 + 0x1p-10}), f16({1}, {2047})).at(0), 2048.0);
  // Products in the subnormal range and below it: 2^-12 * 2^-12 = 2^-24 (smallest subnormal);
  // 2^-12 * 2^-13 = 2^-25 is the tie between 0 and 2^-24 and goes to 0 (even); 1.5 * 2^-24, the tie
  // between 2^-24 and 2^-23, goes to 2^-23.
  EXPECT_EQ(mul(f16({1}, {0x1p-12}), f16({1}, {0x1p-12})).at(0), 0x1p-24);
  EXPECT_EQ(mul(f16({1}, {0x1p-12}), f16({1}, {0x1p-13})).at(0), 0.0);
  EXPECT_EQ(mul(f16({1}, {0x1.8p-12}), f16({1}, {0x1p-12})).at(0), 0x1p-23);
  const auto s = mul(f16({3}, {kInf, std::nan(""), -kInf}), f16({3}, {0, 2, 0.5}));
  EXPECT_TRUE(std::isnan(s.at(0)));
  EXPECT_TRUE(std::isnan(s.at(1)));
  EXPECT_EQ(s.at(2), -kInf);
}

TEST(Mul, IntegersWrapToTheirLogicalWidth) {
  EXPECT_EQ(
      mul(of(DType::Int32, {3}, {65536, -2147483648.0, 46341}), of(DType::Int32, {3}, {65536, -1, 46341}))
          .toDoubles(),
      (std::vector<double>{0, -2147483648.0, -2147479015.0}));
  EXPECT_EQ(mul(of(DType::Uint32, {2}, {4294967295.0, 65536}), of(DType::Uint32, {2}, {4294967295.0, 65537}))
                .toDoubles(),
            (std::vector<double>{1, 65536}));
  EXPECT_EQ(mul(of(DType::Int8, {3}, {16, -128, 11}), of(DType::Int8, {3}, {8, -1, 12})).toDoubles(),
            (std::vector<double>{-128, -128, -124}));
  EXPECT_EQ(mul(of(DType::Uint8, {3}, {16, 255, 15}), of(DType::Uint8, {3}, {16, 255, 17})).toDoubles(),
            (std::vector<double>{0, 1, 255}));
}

TEST(Mul, RejectsBadArguments) {
  const ErrorCode c = ErrorCode::Contract;
  testutil::expectError(
      [] {
        mul(f32({2, 3}, {0, 0, 0, 0, 0, 0}), f32({2}, {0, 0}));
      },
      c, {"Mul: shapes [2, 3] and [2] are not broadcast-compatible", "dimension 1: 3 vs 2"});
  testutil::expectError([] { mul(f32({1}, {0}), f16({1}, {0})); }, c, {"B must be float32", "float16"});
  testutil::expectError([] { mul(HostTensor(DType::Int64, {1}), HostTensor(DType::Int64, {1})); }, c,
                        {"A must be float32, float16, int32, uint32, int8 or uint8", "int64"});
}

// Every output the package's test.json pins (hand-worked values) is what the reference computes.
TEST(Mul, ReproducesEveryPinnedOutputOfTheTestFile) {
  const auto file = package::loadTestFile(std::string(WGK_SOURCE_DIR) +
                                          "/packages/webgpu-kernels/ai.onnx.Mul/build/webgpu/test.json");
  int pinned = 0;
  for (const auto& c : file.cases) {
    const auto want = package::materializeExpected(c.outputs.at("c"));
    if (!want) continue;
    SCOPED_TRACE(c.name);
    const auto in = package::materializeInputs(c);
    Tolerance exact;
    exact.allowNaN = true;
    const CompareResult r = compareTensors(mul(in.at("a"), in.at("b")), *want, exact);
    EXPECT_TRUE(r.pass) << r.summary();
    ++pinned;
  }
  EXPECT_GE(pinned, 3);
}

}  // namespace
}  // namespace wgk

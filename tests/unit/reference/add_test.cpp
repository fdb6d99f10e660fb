#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/half.h"
#include "package/test_spec.h"
#include "ref_test_util.h"
#include "reference/compare.h"
#include "reference/ops.h"

namespace wgk {
namespace {
using reference::add;
using testutil::f16;
using testutil::f32;

constexpr double kInf = std::numeric_limits<double>::infinity();

HostTensor of(DType t, Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(t, std::move(s), v);
}

TEST(Add, SameShapeValues) {
  const auto c = add(f32({2, 2}, {1, 2.5, -3, 1e30}), f32({2, 2}, {0.5, -2.5, -4, 1e30}));
  EXPECT_EQ(c.shape(), (Shape{2, 2}));
  EXPECT_EQ(c.toDoubles(), (std::vector<double>{1.5, 0, -7, static_cast<double>(1e30f + 1e30f)}));
  // float32 rounds once: 1 + 2^-24 is a tie between 1 and 1 + 2^-23 and goes to even (1).
  EXPECT_EQ(add(f32({1}, {1}), f32({1}, {0x1p-24})).at(0), 1.0);
  EXPECT_EQ(add(f32({1}, {1}), f32({1}, {0x1.8p-24})).at(0), 1.0 + 0x1p-23);
}

TEST(Add, BroadcastsBothWays) {
  // [3, 1] + [3] -> [3, 3] (ORT MultidirectionalAB): c[i][j] = a[i] + b[j].
  const auto c = add(f32({3, 1}, {3, 2, 1}), f32({3}, {1, 2, 3}));
  EXPECT_EQ(c.shape(), (Shape{3, 3}));
  EXPECT_EQ(c.toDoubles(), (std::vector<double>{4, 5, 6, 3, 4, 5, 2, 3, 4}));
  const auto d = add(f32({3}, {1, 2, 3}), f32({3, 1}, {3, 2, 1}));
  EXPECT_EQ(d.toDoubles(), (std::vector<double>{4, 5, 6, 3, 4, 5, 2, 3, 4}));
  // [2, 1, 4] + [1, 3, 1] -> [2, 3, 4].
  const auto e = add(f32({2, 1, 2}, {100, 101, 200, 201}), f32({1, 3, 1}, {10, 20, 30}));
  EXPECT_EQ(e.shape(), (Shape{2, 3, 2}));
  EXPECT_EQ(e.toDoubles(), (std::vector<double>{110, 111, 120, 121, 130, 131, 210, 211, 220, 221, 230, 231}));
}

TEST(Add, RankSevenAlternatingBroadcast) {
  // a [2,1,2,1,1,1,1] and b [1,2,1,2,1,1,1]: c[i,j,k,l] = a[i,k] + b[j,l].
  const auto a = f32({2, 1, 2, 1, 1, 1, 1}, {1000, 2000, 3000, 4000});
  const auto b = f32({1, 2, 1, 2, 1, 1, 1}, {1, 2, 3, 4});
  const auto c = add(a, b);
  EXPECT_EQ(c.shape(), (Shape{2, 2, 2, 2, 1, 1, 1}));
  std::vector<double> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l) want.push_back(1000.0 * (2 * i + k + 1) + (2 * j + l + 1));
  EXPECT_EQ(c.toDoubles(), want);
}

TEST(Add, RankZeroAndZeroSize) {
  const auto s = add(f32({}, {-1.25}), f32({}, {3.5}));
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(s.at(0), 2.25);
  EXPECT_EQ(add(f32({}, {10}), f32({1}, {2})).shape(), Shape{1});
  EXPECT_EQ(add(f32({}, {1.25}), f32({2, 3}, {0, 1, 2, 3, 4, 5})).toDoubles(),
            (std::vector<double>{1.25, 2.25, 3.25, 4.25, 5.25, 6.25}));
  // A dimension of 1 against 0 gives 0; the result has no elements.
  EXPECT_EQ(add(f32({3, 1}, {1, 2, 3}), f32({3, 0}, {})).shape(), (Shape{3, 0}));
  EXPECT_EQ(add(f32({2, 1, 2}, {1, 2, 3, 4}), f32({0, 2}, {})).shape(), (Shape{2, 0, 2}));
  EXPECT_EQ(add(f32({0, 2, 2}, {}), f32({1, 2}, {1, 2})).shape(), (Shape{0, 2, 2}));
  EXPECT_EQ(add(f32({}, {1}), f32({0}, {})).numel(), 0);
}

TEST(Add, Float16RoundsTheExactSumOnceAndOverflowsToInf) {
  EXPECT_EQ(add(f16({1}, {65504}), f16({1}, {65504})).at(0), kInf);
  // -65504 - 16 = -65520 is the tie between -65504 (odd significand) and -inf: to even, -inf.
  EXPECT_EQ(add(f16({1}, {-65504}), f16({1}, {-16})).at(0), -kInf);
  // -65504 - 8 = -65512 is below the tie: -65504.
  EXPECT_EQ(add(f16({1}, {-65504}), f16({1}, {-8})).at(0), -65504.0);
  EXPECT_EQ(add(f16({2}, {60000, 32768}), f16({2}, {10000, 32768})).at(0), kInf);
  EXPECT_EQ(add(f16({2}, {60000, 32768}), f16({2}, {10000, 32768})).at(1), kInf);
  // Ties to even: 1 + 2^-11 -> 1; 1 + 3 * 2^-11 -> 1 + 2^-9; 2048 + 1 -> 2048; 2048 + 3 -> 2052.
  EXPECT_EQ(add(f16({1}, {1}), f16({1}, {0x1p-11})).at(0), 1.0);
  EXPECT_EQ(add(f16({1}, {1 + 0x1p-10}), f16({1}, {0x1p-11})).at(0), 1.0 + 0x1p-9);
  EXPECT_EQ(add(f16({1}, {2048}), f16({1}, {1})).at(0), 2048.0);
  EXPECT_EQ(add(f16({1}, {2048}), f16({1}, {3})).at(0), 2052.0);
  // A tiny addend below half a step leaves the value (the f32 sum would not be exact here).
  EXPECT_EQ(add(f16({1}, {2048}), f16({1}, {0x1p-24})).at(0), 2048.0);
  // Subnormals: 2^-24 + 2^-24 = 2^-23; the smallest normal from two subnormals.
  EXPECT_EQ(add(f16({1}, {0x1p-24}), f16({1}, {0x1p-24})).at(0), 0x1p-23);
  EXPECT_EQ(add(f16({1}, {0x1p-15}), f16({1}, {0x1p-15})).at(0), 0x1p-14);
  EXPECT_EQ(add(f16({1}, {0.001}), f16({1}, {-0.001})).at(0), 0.0);
}

TEST(Add, NaNAndInfinities) {
  for (DType t : {DType::Float32, DType::Float16}) {
    SCOPED_TRACE(std::string(dtypeName(t)));
    const auto c =
        add(of(t, {5}, {std::nan(""), 1, kInf, kInf, -kInf}), of(t, {5}, {1, std::nan(""), 1, -kInf, -kInf}));
    EXPECT_TRUE(std::isnan(c.at(0)));
    EXPECT_TRUE(std::isnan(c.at(1)));
    EXPECT_EQ(c.at(2), kInf);
    EXPECT_TRUE(std::isnan(c.at(3)));
    EXPECT_EQ(c.at(4), -kInf);
  }
  // float32 overflow of finite operands.
  EXPECT_EQ(add(f32({1}, {3e38}), f32({1}, {3e38})).at(0), kInf);
  EXPECT_EQ(add(f32({1}, {-3e38}), f32({1}, {-3e38})).at(0), -kInf);
}

TEST(Add, Float32SubnormalsAreKept) {
  // The Hub's fixture (ORT Add_float): zero-add identity and exact cancellation of subnormals.
  const auto c = add(f32({4}, {1e-40, -1e-40, 0.0, 1e-39}), f32({4}, {0.0, 0.0, 1e-40, -1e-39}));
  EXPECT_EQ(c.toDoubles(), (std::vector<double>{static_cast<float>(1e-40), static_cast<float>(-1e-40),
                                                static_cast<float>(1e-40), 0.0}));
}

TEST(Add, IntegersWrapToTheirLogicalWidth) {
  EXPECT_EQ(
      add(of(DType::Int32, {2}, {2147483647, -2147483648.0}), of(DType::Int32, {2}, {1, -1})).toDoubles(),
      (std::vector<double>{-2147483648.0, 2147483647}));
  EXPECT_EQ(add(of(DType::Int32, {2}, {16777217, -123456789}), of(DType::Int32, {2}, {2, -10})).toDoubles(),
            (std::vector<double>{16777219, -123456799}));
  EXPECT_EQ(
      add(of(DType::Uint32, {2}, {4294967295.0, 7}), of(DType::Uint32, {2}, {1, 4294967295.0})).toDoubles(),
      (std::vector<double>{0, 6}));
  EXPECT_EQ(add(of(DType::Int8, {3}, {127, -128, 100}), of(DType::Int8, {3}, {1, -1, 30})).toDoubles(),
            (std::vector<double>{-128, 127, -126}));
  EXPECT_EQ(add(of(DType::Uint8, {3}, {255, 0, 200}), of(DType::Uint8, {3}, {1, 255, 100})).toDoubles(),
            (std::vector<double>{0, 255, 44}));
  const auto c = add(of(DType::Int8, {2, 2}, {120, 127, -128, -121}), of(DType::Int8, {2, 1}, {10, -10}));
  EXPECT_EQ(c.dtype(), DType::Int8);
  EXPECT_EQ(c.toDoubles(), (std::vector<double>{-126, -119, 118, 125}));
}

TEST(Add, RejectsBadArguments) {
  const ErrorCode c = ErrorCode::Contract;
  testutil::expectError(
      [] {
        add(f32({2, 3}, {0, 0, 0, 0, 0, 0}), f32({2}, {0, 0}));
      },
      c, {"shapes [2, 3] and [2] are not broadcast-compatible", "dimension 1: 3 vs 2"});
  testutil::expectError([] { add(f32({0}, {}), f32({2}, {0, 0})); }, c, {"not broadcast-compatible"});
  testutil::expectError([] { add(f32({1}, {0}), f16({1}, {0})); }, c, {"B must be float32", "float16"});
  testutil::expectError([] { add(HostTensor(DType::Int16, {1}), HostTensor(DType::Int16, {1})); }, c,
                        {"A must be float32, float16, int32, uint32, int8 or uint8", "int16"});
}

// Every output the package's test.json pins (the Hub's cases, ours with hand-worked values), the
// skipGpu ones included, is what the reference computes, exactly: the pinned values and the
// reference agree on subnormals, wrap-around and overflow.
TEST(Add, ReproducesEveryPinnedOutputOfTheTestFile) {
  const auto file = package::loadTestFile(std::string(WGK_SOURCE_DIR) +
                                          "/packages/webgpu-kernels/ai.onnx.Add/build/webgpu/test.json");
  int pinned = 0;
  for (const auto& c : file.cases) {
    const auto want = package::materializeExpected(c.outputs.at("c"));
    if (!want) continue;
    SCOPED_TRACE(c.name);
    const auto in = package::materializeInputs(c);
    const HostTensor got = add(in.at("a"), in.at("b"));
    Tolerance exact;
    exact.allowNaN = true;
    const CompareResult r = compareTensors(got, *want, exact);
    EXPECT_TRUE(r.pass) << r.summary();
    ++pinned;
  }
  EXPECT_GE(pinned, 3);
}

}  // namespace
}  // namespace wgk

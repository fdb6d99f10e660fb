#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "package/test_spec.h"
#include "ref_test_util.h"
#include "reference/compare.h"
#include "reference/ops.h"

namespace wgk {
namespace {
using reference::argMax;
using testutil::f16;
using testutil::f32;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

HostTensor of(DType t, Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(t, std::move(s), v);
}

TEST(ArgMax, EachAxisWithAndWithoutKeepdims) {
  // [2, 3]: rows {1, 5, 2} and {7, 0, 7}.
  const auto x = f32({2, 3}, {1, 5, 2, 7, 0, 7});
  const auto last = argMax(x, -1, 1, 0);
  EXPECT_EQ(last.dtype(), DType::Int64);
  EXPECT_EQ(last.shape(), (Shape{2, 1}));
  EXPECT_EQ(last.toDoubles(), (std::vector<double>{1, 0}));
  const auto first = argMax(x, 0, 0, 0);
  EXPECT_EQ(first.shape(), Shape{3});
  EXPECT_EQ(first.toDoubles(), (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(argMax(x, 0, 1, 0).shape(), (Shape{1, 3}));
  // A rank-1 input without keepdims gives a scalar.
  const auto s = argMax(f16({4}, {-1, -0.5, -3, -0.5}), 0, 0, 0);
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(s.at(0), 1);
  // The middle axis of [2, 3, 2]: each (outer, inner) pair reduces 3 elements inner apart.
  const auto m = argMax(f32({2, 3, 2}, {0, 9, 4, 1, 2, 3, 5, 0, 5, 8, 6, 8}), 1, 0, 0);
  EXPECT_EQ(m.shape(), (Shape{2, 2}));
  EXPECT_EQ(m.toDoubles(), (std::vector<double>{1, 0, 2, 1}));  // 6 beats 5, 5; 8 first of 0, 8, 8
}

TEST(ArgMax, TiesGiveTheFirstIndexOrTheLastWithSelectLastIndex) {
  const auto x = f32({6}, {3, -1, 3, 2, 3, 0});
  EXPECT_EQ(argMax(x, 0, 0, 0).at(0), 0);
  EXPECT_EQ(argMax(x, 0, 0, 1).at(0), 4);
  // -0 and +0 are equal.
  EXPECT_EQ(argMax(f32({3}, {-0.0, 0.0, -1}), 0, 0, 0).at(0), 0);
  EXPECT_EQ(argMax(f32({3}, {-0.0, 0.0, -1}), 0, 0, 1).at(0), 1);
  // All equal: the ends.
  EXPECT_EQ(argMax(of(DType::Int8, {4}, {-7, -7, -7, -7}), 0, 0, 0).at(0), 0);
  EXPECT_EQ(argMax(of(DType::Int8, {4}, {-7, -7, -7, -7}), 0, 0, 1).at(0), 3);
}

TEST(ArgMax, NaNIsAboveEverythingAsInNumpy) {
  const auto x = f32({5}, {1, kNaN, kInf, kNaN, 2});
  EXPECT_EQ(argMax(x, 0, 0, 0).at(0), 1);
  EXPECT_EQ(argMax(x, 0, 0, 1).at(0), 3);
  EXPECT_EQ(argMax(f16({3}, {-kInf, kInf, kInf}), 0, 0, 0).at(0), 1);
  EXPECT_EQ(argMax(f16({3}, {-kInf, -kInf, -kInf}), 0, 0, 1).at(0), 2);
  EXPECT_EQ(argMax(f16({3}, {kNaN, kInf, 0}), 0, 0, 1).at(0), 0);
}

TEST(ArgMax, IntegerDtypesCompareByValue) {
  EXPECT_EQ(argMax(of(DType::Int32, {3}, {-2147483648.0, 2147483647, -1}), 0, 0, 0).at(0), 1);
  EXPECT_EQ(argMax(of(DType::Uint32, {3}, {2147483648.0, 4294967295.0, 1}), 0, 0, 0).at(0), 1);
  EXPECT_EQ(argMax(of(DType::Uint8, {3}, {0, 255, 128}), 0, 0, 0).at(0), 1);
  EXPECT_EQ(argMax(of(DType::Int8, {3}, {-128, 127, -1}), 0, 0, 0).at(0), 1);
}

TEST(ArgMax, RejectsBadArguments) {
  const ErrorCode c = ErrorCode::Contract;
  const auto x = f32({2, 3}, {0, 0, 0, 0, 0, 0});
  testutil::expectError([&] { argMax(x, 2, 1, 0); }, c,
                        {"ArgMax: axis 2 is out of range for rank 2", "[-2, 1]"});
  testutil::expectError([&] { argMax(x, -3, 1, 0); }, c, {"axis -3 is out of range"});
  testutil::expectError([&] { argMax(x, 0, 2, 0); }, c, {"keepdims must be 0 or 1 (got 2)"});
  testutil::expectError([&] { argMax(x, 0, 1, -1); }, c, {"select_last_index must be 0 or 1 (got -1)"});
  testutil::expectError([] { argMax(f32({}, {1}), 0, 1, 0); }, c, {"rank >= 1"});
  testutil::expectError([] { argMax(f32({2, 0}, {}), 1, 1, 0); }, c, {"reduced axis 1 of [2, 0] is empty"});
  testutil::expectError([] { argMax(HostTensor(DType::Int64, {1}), 0, 1, 0); }, c,
                        {"data must be float32, float16, int32, uint32, int8 or uint8", "int64"});
  // An empty dimension elsewhere is fine: the output is empty.
  EXPECT_EQ(argMax(f32({0, 3}, {}), 1, 0, 0).shape(), Shape{0});
}

// Every output the package's test.json pins is what the reference computes.
TEST(ArgMax, ReproducesEveryPinnedOutputOfTheTestFile) {
  const auto file = package::loadTestFile(std::string(WGK_SOURCE_DIR) +
                                          "/packages/webgpu-kernels/ai.onnx.ArgMax/build/webgpu/test.json");
  int pinned = 0;
  for (const auto& c : file.cases) {
    const auto want = package::materializeExpected(c.outputs.at("y"));
    if (!want) continue;
    SCOPED_TRACE(c.name);
    const auto in = package::materializeInputs(c);
    auto attr = [&](const char* name, int64_t def) {
      auto it = c.attrs.find(name);
      return it == c.attrs.end() ? def : static_cast<int64_t>(it->second.asNumber());
    };
    const HostTensor got =
        argMax(in.at("x"), attr("axis", 0), attr("keepdims", 1), attr("select_last_index", 0));
    const CompareResult r = compareTensors(got, *want, Tolerance{});
    EXPECT_TRUE(r.pass) << r.summary();
    ++pinned;
  }
  EXPECT_GE(pinned, 3);
}

}  // namespace
}  // namespace wgk

#include <gtest/gtest.h>

#include <cstring>

#include "ref_test_util.h"
#include "reference/ops.h"
#include "reference/registry.h"

namespace wgk {
namespace {
using reference::gather;
using testutil::f16;
using testutil::f32;

HostTensor of(DType t, Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(t, std::move(s), v);
}

HostTensor i64(Shape s, const std::vector<int64_t>& v) {
  HostTensor t(DType::Int64, std::move(s));
  if (!v.empty()) std::memcpy(t.bytes().data(), v.data(), v.size() * 8);
  return t;
}

TEST(Gather, RowsOfTheFirstAxis) {
  // The embedding lookup: rows of a [4, 3] table by token id.
  const auto table = f32({4, 3}, {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32});
  const auto y = gather(table, i64({2}, {3, 1}), 0);
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{30, 31, 32, 10, 11, 12}));
  // A scalar index drops the axis; repeated indices repeat the row.
  const auto s = gather(table, i64({}, {2}), 0);
  EXPECT_EQ(s.shape(), Shape{3});
  EXPECT_EQ(s.toDoubles(), (std::vector<double>{20, 21, 22}));
  const auto twice = gather(table, of(DType::Int32, {2, 2}, {0, 0, 3, 0}), 0);
  EXPECT_EQ(twice.shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(twice.toDoubles(), (std::vector<double>{0, 1, 2, 0, 1, 2, 30, 31, 32, 0, 1, 2}));
}

TEST(Gather, InnerAndMiddleAxesKeepTheOtherDimensions) {
  // [2, 3, 2]: element (a, b, c) = 100a + 10b + c.
  std::vector<double> v;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 2; ++c) v.push_back(100 * a + 10 * b + c);
  const auto x = of(DType::Int32, {2, 3, 2}, v);
  const auto mid = gather(x, of(DType::Int32, {2}, {2, 0}), 1);
  EXPECT_EQ(mid.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(mid.toDoubles(), (std::vector<double>{20, 21, 0, 1, 120, 121, 100, 101}));
  // The last axis with a negative axis attribute and 2-D indices.
  const auto last = gather(x, i64({1, 2}, {1, 1}), -1);
  EXPECT_EQ(last.shape(), (Shape{2, 3, 1, 2}));
  EXPECT_EQ(last.toDoubles(), (std::vector<double>{1, 1, 11, 11, 21, 21, 101, 101, 111, 111, 121, 121}));
  // Swapping the halves of a [heads, 2, half, in] weight: axis 1, indices [1, 0].
  const auto w = of(DType::Uint32, {1, 2, 1, 2}, {1, 2, 3, 4});
  EXPECT_EQ(gather(w, i64({2}, {1, 0}), 1).toDoubles(), (std::vector<double>{3, 4, 1, 2}));
}

TEST(Gather, NegativeIndicesCountFromTheEndAndOutOfRangeGivesZeros) {
  const auto x = f16({5}, {1, 2, 3, 4, 5});
  EXPECT_EQ(gather(x, i64({4}, {-1, -5, 4, 0}), 0).toDoubles(), (std::vector<double>{5, 1, 5, 1}));
  EXPECT_EQ(gather(x, of(DType::Int32, {3}, {-2, -6, 5}), 0).toDoubles(), (std::vector<double>{4, 0, 0}));
  // int64 values beyond 32 bits are out of range, not wrapped: 2^32 + 1 is not 1, -2^32 - 1 not -1.
  EXPECT_EQ(gather(x, i64({4}, {(int64_t{1} << 32) + 1, -(int64_t{1} << 32) - 1, INT64_MIN, INT64_MAX}), 0)
                .toDoubles(),
            (std::vector<double>(4, 0)));
  // A zero slice for every out-of-range index of a row gather.
  const auto table = f32({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(gather(table, of(DType::Int32, {3}, {1, 2, -3}), 0).toDoubles(),
            (std::vector<double>{3, 4, 0, 0, 0, 0}));
  // An empty gathered axis: every index is out of range.
  EXPECT_EQ(gather(f32({0, 2}, {}), of(DType::Int32, {1}, {0}), 0).toDoubles(), (std::vector<double>{0, 0}));
}

TEST(Gather, CopiesBitsAndEmptyShapes) {
  // NaN payloads, -0 and subnormals pass through unchanged.
  HostTensor x(DType::Float16, {3});
  const uint16_t bits[3] = {0x7e01, 0x8000, 0x0001};
  std::memcpy(x.bytes().data(), bits, sizeof bits);
  const auto y = gather(x, i64({3}, {2, 1, 0}), 0);
  uint16_t got[3];
  std::memcpy(got, y.bytes().data(), sizeof got);
  EXPECT_EQ(got[0], 0x0001);
  EXPECT_EQ(got[1], 0x8000);
  EXPECT_EQ(got[2], 0x7e01);
  // Empty indices, an empty inner dimension.
  EXPECT_EQ(gather(f32({3, 2}, {0, 1, 2, 3, 4, 5}), i64({0}, {}), 0).shape(), (Shape{0, 2}));
  EXPECT_EQ(gather(f32({3, 0}, {}), i64({2}, {0, 2}), 0).shape(), (Shape{2, 0}));
  EXPECT_EQ(gather(f32({2, 3}, {0, 1, 2, 3, 4, 5}), i64({0, 4}, {}), 1).shape(), (Shape{2, 0, 4}));
}

TEST(Gather, RejectsWhatTheManifestRejects) {
  const auto x = f32({2, 2}, {1, 2, 3, 4});
  const auto idx = i64({1}, {0});
  testutil::expectError([&] { gather(f32({}, {1}), idx, 0); }, ErrorCode::Contract, {"rank >= 1"});
  testutil::expectError([&] { gather(x, idx, 2); }, ErrorCode::Contract,
                        {"axis 2 is out of range", "[-2, 1]"});
  testutil::expectError([&] { gather(x, idx, -3); }, ErrorCode::Contract, {"axis -3"});
  testutil::expectError([&] { gather(x, f32({1}, {0}), 0); }, ErrorCode::Contract,
                        {"indices must be int32 or int64"});
  testutil::expectError(
      [&] {
        gather(of(DType::Int8, {2}, {1, 2}), idx, 0);
      },
      ErrorCode::Contract, {"data must be float32, float16, int32 or uint32"});
}

TEST(Gather, RegistryNamesAndDefaults) {
  const auto x = f32({3, 2}, {0, 1, 2, 3, 4, 5});
  const auto idx = i64({2}, {2, 0});
  // Default axis 0.
  const auto out = reference::runReference("ai.onnx.Gather", {{"data", x}, {"indices", idx}}, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out.at("output").toDoubles(), gather(x, idx, 0).toDoubles());
  EXPECT_EQ(reference::runReference("ai.onnx.Gather", {{"data", x}, {"indices", idx}}, {{"axis", -1}})
                .at("output")
                .toDoubles(),
            gather(x, idx, -1).toDoubles());
}

}  // namespace
}  // namespace wgk

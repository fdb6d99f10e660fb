#include <gtest/gtest.h>

#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/half.h"
#include "ref_test_util.h"
#include "reference/ops.h"
#include "reference/registry.h"
#include "wgk/error.h"

namespace wgk {
namespace {
using reference::matmul;
using testutil::f16;
using testutil::f32;

HostTensor words(DType t, Shape s, std::vector<uint32_t> w) {
  std::vector<std::byte> b(w.size() * 4);
  if (!w.empty()) std::memcpy(b.data(), w.data(), b.size());
  return HostTensor(t, std::move(s), std::move(b));
}

std::vector<uint32_t> wordsOf(const HostTensor& t) {
  std::vector<uint32_t> w(static_cast<size_t>(t.numel()));
  if (!w.empty()) std::memcpy(w.data(), t.bytes().data(), w.size() * 4);
  return w;
}

TEST(MatMul, Rank2ByHand) {
  // [[1, 2, 3], [4, 5, 6]] @ [[1, 0], [0, 1], [2, -1]] = [[7, -1], [16, -1]]
  const auto y = matmul(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3, 2}, {1, 0, 0, 1, 2, -1}));
  EXPECT_EQ(y.shape(), (Shape{2, 2}));
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{7, -1, 16, -1}));
}

TEST(MatMul, VectorsArePromotedAndDropped) {
  EXPECT_EQ(matmul(f32({3}, {1, 2, 3}), f32({3}, {4, 5, 6})).shape(), Shape{});  // dot: rank 0
  EXPECT_EQ(matmul(f32({3}, {1, 2, 3}), f32({3}, {4, 5, 6})).at(0), 32);
  const auto vm = matmul(f32({2}, {1, 2}), f32({2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(vm.shape(), (Shape{3}));
  EXPECT_EQ(vm.toDoubles(), (std::vector<double>{9, 12, 15}));
  const auto mv = matmul(f32({2, 2}, {1, 2, 3, 4}), f32({2}, {1, -1}));
  EXPECT_EQ(mv.shape(), (Shape{2}));
  EXPECT_EQ(mv.toDoubles(), (std::vector<double>{-1, -1}));
  // A vector against a batch: [2] @ [3, 2, 1] -> [3, 1].
  EXPECT_EQ(matmul(f32({2}, {1, 1}), f32({3, 2, 1}, {1, 2, 3, 4, 5, 6})).toDoubles(),
            (std::vector<double>{3, 7, 11}));
}

TEST(MatMul, BatchDimensionsBroadcast) {
  // a [2, 1, 1, 2] @ b [3, 2, 1] -> [2, 3, 1, 1]: y[p][q] = a[p] . b[q].
  const auto y = matmul(f32({2, 1, 1, 2}, {1, 0, 0, 1}), f32({3, 2, 1}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(y.shape(), (Shape{2, 3, 1, 1}));
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{1, 3, 5, 2, 4, 6}));
}

TEST(MatMul, ZeroSizesAndEmptyK) {
  const auto k0 = matmul(f32({2, 0}, {}), f32({0, 3}, {}));
  EXPECT_EQ(k0.shape(), (Shape{2, 3}));
  EXPECT_EQ(k0.toDoubles(), std::vector<double>(6, 0.0));
  EXPECT_EQ(matmul(f32({0, 4}, {}), f32({4, 3}, std::vector<double>(12, 1))).shape(), (Shape{0, 3}));
  EXPECT_EQ(matmul(f32({2, 0, 4}, {}), f32({4, 3}, std::vector<double>(12, 1))).shape(), (Shape{2, 0, 3}));
}

TEST(MatMul, Float16RoundsOnceFromTheExactSum) {
  // 2048 + 1 + 1: f16 steps are 2 at 2048, so rounding after every addition would give 2048
  // (ties to even) twice; the exact sum 2050 is representable.
  const auto y = matmul(f16({1, 3}, {2048, 1, 1}), f16({3, 1}, {1, 1, 1}));
  EXPECT_EQ(y.at(0), 2050);
  // Overflow only when the rounded sum overflows: 60000 + 60000 - 60000 = 60000.
  EXPECT_EQ(matmul(f16({1, 3}, {60000, 60000, -60000}), f16({3, 1}, {1, 1, 1})).at(0),
            static_cast<double>(halfToFloat(floatToHalf(60000.f))));
  EXPECT_TRUE(std::isinf(matmul(f16({1, 2}, {60000, 60000}), f16({2, 1}, {1, 1})).at(0)));
}

TEST(MatMul, IntegersWrapModulo2To32) {
  // uint32: (2^32 - 1) * 2 + 3 = 2^33 + 1 = 1 mod 2^32.
  const auto u = matmul(words(DType::Uint32, {1, 2}, {0xFFFFFFFFu, 3}), words(DType::Uint32, {2, 1}, {2, 1}));
  EXPECT_EQ(wordsOf(u), (std::vector<uint32_t>{1}));
  // int32: INT32_MAX * 2 = -2 (two's complement), plus -5 * 3 = -17.
  const uint32_t imax = 0x7FFFFFFFu, m5 = static_cast<uint32_t>(-5);
  const auto i = matmul(words(DType::Int32, {1, 2}, {imax, m5}), words(DType::Int32, {2, 1}, {2, 3}));
  EXPECT_EQ(i.at(0), -17);
}

TEST(MatMul, ContractErrors) {
  EXPECT_THROW(matmul(f32({2, 3}, std::vector<double>(6)), f32({2, 3}, std::vector<double>(6))), Error);
  EXPECT_THROW(matmul(f32({2, 1, 2}, std::vector<double>(4)), f32({3, 2, 1}, std::vector<double>(6))), Error);
  EXPECT_THROW(matmul(f32({2}, {1, 2}), f16({2}, {1, 2})), Error);
  EXPECT_THROW(matmul(f32({}, {1}), f32({1}, {1})), Error);
  try {
    matmul(f32({2, 3}, std::vector<double>(6)), f32({4, 1}, std::vector<double>(4)));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Contract);
    EXPECT_NE(std::string(e.what()).find("do not agree on K (3 vs 4)"), std::string::npos) << e.what();
  }
}

TEST(MatMul, Registry) {
  auto out = reference::runReference("ai.onnx.MatMul", {{"a", f32({1, 2}, {1, 2})}, {"b", f32({2, 1}, {3, 4})}}, {});
  EXPECT_EQ(out.at("y").at(0), 11);
}

}  // namespace
}  // namespace wgk

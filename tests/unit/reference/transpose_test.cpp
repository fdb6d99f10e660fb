#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "package/test_spec.h"
#include "ref_test_util.h"
#include "reference/compare.h"
#include "reference/ops.h"
#include "reference/registry.h"

namespace wgk {
namespace {
using reference::transpose;
using testutil::f16;
using testutil::f32;

HostTensor iota(DType t, Shape s) {
  std::vector<double> v(static_cast<size_t>(numel(s)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return HostTensor::fromDoubles(t, std::move(s), v);
}

std::vector<int64_t> p(std::initializer_list<int64_t> v) {
  return v;
}

TEST(Transpose, MatrixAndDefaultPermReverseTheAxes) {
  // [2, 3] = {{0, 1, 2}, {3, 4, 5}} -> [3, 2] = {{0, 3}, {1, 4}, {2, 5}}.
  const auto x = iota(DType::Float32, {2, 3});
  const auto perm = p({1, 0});
  const auto y = transpose(x, &perm);
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(transpose(x, nullptr).toDoubles(), y.toDoubles());
  // Rank 3, no perm: [2, 3, 4] -> [4, 3, 2]; y[k, j, i] = x[i, j, k] = 12 i + 4 j + k.
  const auto r = transpose(iota(DType::Int32, {2, 3, 4}), nullptr);
  EXPECT_EQ(r.shape(), (Shape{4, 3, 2}));
  for (int64_t k = 0; k < 4; ++k)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t i = 0; i < 2; ++i) EXPECT_EQ(r.at(k * 6 + j * 2 + i), 12 * i + 4 * j + k);
}

TEST(Transpose, EveryPermutationOfRankFourAgreesWithTheIndexFormula) {
  const Shape s = {2, 3, 4, 5};
  const auto x = iota(DType::Int32, s);
  std::vector<int64_t> perm = {0, 1, 2, 3};
  int perms = 0;
  do {
    const auto y = transpose(x, &perm);
    Shape ys;
    for (int64_t a : perm) ys.push_back(s[static_cast<size_t>(a)]);
    ASSERT_EQ(y.shape(), ys);
    const int64_t stride[4] = {60, 20, 5, 1};
    for (int64_t o = 0; o < y.numel(); ++o) {
      int64_t rest = o, src = 0;
      for (int d = 3; d >= 0; --d) {
        src += (rest % ys[d]) * stride[perm[d]];
        rest /= ys[d];
      }
      ASSERT_EQ(y.at(o), src) << "output " << o;
    }
    ++perms;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_EQ(perms, 24);
}

TEST(Transpose, MovesBitsOfEveryDtype) {
  // float16 NaN payloads, -0 and a subnormal; float32 signalling NaN bits; int64 beyond 2^53.
  HostTensor h(DType::Float16, {2, 2});
  const uint16_t hb[4] = {0x7c01, 0x8000, 0x0001, 0xfe5a};
  std::memcpy(h.bytes().data(), hb, sizeof hb);
  uint16_t ht[4];
  std::memcpy(ht, transpose(h, nullptr).bytes().data(), sizeof ht);
  EXPECT_EQ(ht[0], 0x7c01);
  EXPECT_EQ(ht[1], 0x0001);
  EXPECT_EQ(ht[2], 0x8000);
  EXPECT_EQ(ht[3], 0xfe5a);
  HostTensor f(DType::Float32, {1, 2});
  const uint32_t fb[2] = {0x7f800001u, 0x80000000u};
  std::memcpy(f.bytes().data(), fb, sizeof fb);
  uint32_t ft[2];
  std::memcpy(ft, transpose(f, nullptr).bytes().data(), sizeof ft);
  EXPECT_EQ(ft[0], 0x7f800001u);
  EXPECT_EQ(ft[1], 0x80000000u);
  HostTensor l(DType::Int64, {2, 1});
  const int64_t lb[2] = {std::numeric_limits<int64_t>::min(), (int64_t{1} << 62) + 1};
  std::memcpy(l.bytes().data(), lb, sizeof lb);
  int64_t lt[2];
  const auto lT = transpose(l, nullptr);
  EXPECT_EQ(lT.shape(), (Shape{1, 2}));
  std::memcpy(lt, lT.bytes().data(), sizeof lt);
  EXPECT_EQ(lt[0], lb[0]);
  EXPECT_EQ(lt[1], lb[1]);
  for (DType t : {DType::Int8, DType::Uint8, DType::Int16, DType::Bool, DType::Uint32}) {
    SCOPED_TRACE(dtypeName(t));
    const auto x = HostTensor::fromDoubles(t, {3, 2}, std::vector<double>{1, 0, 1, 1, 0, 1});
    EXPECT_EQ(transpose(x, nullptr).toDoubles(), (std::vector<double>{1, 1, 0, 0, 1, 1}));
    EXPECT_EQ(transpose(x, nullptr).dtype(), t);
  }
}

TEST(Transpose, UnitZeroSizeAndRankZero) {
  // Moving only dimensions of 1 keeps the bytes.
  const auto x = iota(DType::Float32, {1, 5, 1, 3});
  const auto perm = p({2, 1, 3, 0});
  const auto y = transpose(x, &perm);
  EXPECT_EQ(y.shape(), (Shape{1, 5, 3, 1}));
  EXPECT_EQ(y.toDoubles(), x.toDoubles());
  const auto z = transpose(f16({3, 0, 2}, {}), nullptr);
  EXPECT_EQ(z.shape(), (Shape{2, 0, 3}));
  EXPECT_EQ(z.numel(), 0);
  const auto none = p({});
  const auto s = transpose(f32({}, {7.5}), &none);
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(s.at(0), 7.5);
}

TEST(Transpose, RejectsWhatIsNotAPermutation) {
  const ErrorCode c = ErrorCode::Contract;
  const auto x = f32({2, 3}, {0, 0, 0, 0, 0, 0});
  const auto shortPerm = p({0});
  testutil::expectError(
      [&] { transpose(x, &shortPerm); }, c,
      {"Transpose: perm [0] is not a permutation of the 2 axes of [2, 3]", "it has 1 entries"});
  const auto repeated = p({1, 1});
  testutil::expectError([&] { transpose(x, &repeated); }, c, {"perm [1, 1]", "1 appears twice"});
  const auto negative = p({-1, 0});
  testutil::expectError([&] { transpose(x, &negative); }, c, {"perm [-1, 0]", "-1 is outside [0, 2)"});
  const auto high = p({0, 2});
  testutil::expectError([&] { transpose(x, &high); }, c, {"2 is outside [0, 2)"});
}

TEST(Transpose, RegistryTakesPermAsAListAttribute) {
  const auto x = iota(DType::Float32, {2, 3});
  EXPECT_EQ(reference::runReference("ai.onnx.Transpose", {{"x", x}}, {}, {{"perm", {1, 0}}}).at("y").shape(),
            (Shape{3, 2}));
  EXPECT_EQ(reference::runReference("ai.onnx.Transpose", {{"x", x}}, {}).at("y").toDoubles(),
            (std::vector<double>{0, 3, 1, 4, 2, 5}));
  testutil::expectError(
      [&] {
        reference::runReference("ai.onnx.Transpose", {{"x", x}}, {}, {{"axes", {1, 0}}});
      },
      ErrorCode::Contract, {"unknown list attribute 'axes' (list attributes: perm)"});
  testutil::expectError(
      [&] {
        reference::runReference("ai.onnx.Mul", {{"a", x}, {"b", x}}, {}, {{"perm", {0}}});
      },
      ErrorCode::Contract, {"unknown list attribute 'perm' (list attributes: none)"});
}

// Every output the package's test.json pins is what the reference computes.
TEST(Transpose, ReproducesEveryPinnedOutputOfTheTestFile) {
  const auto file = package::loadTestFile(
      std::string(WGK_SOURCE_DIR) + "/packages/webgpu-kernels/ai.onnx.Transpose/build/webgpu/test.json");
  int pinned = 0;
  for (const auto& c : file.cases) {
    const auto want = package::materializeExpected(c.outputs.at("y"));
    if (!want) continue;
    SCOPED_TRACE(c.name);
    std::vector<int64_t> perm;
    auto it = c.attrs.find("perm");
    if (it != c.attrs.end())
      for (const auto& e : it->second.asList()) perm.push_back(e.asInt());
    const auto in = package::materializeInputs(c);
    Tolerance exact;
    exact.allowNaN = true;
    const CompareResult r =
        compareTensors(transpose(in.at("x"), it == c.attrs.end() ? nullptr : &perm), *want, exact);
    EXPECT_TRUE(r.pass) << r.summary();
    ++pinned;
  }
  EXPECT_GE(pinned, 3);
}

}  // namespace
}  // namespace wgk

#include <gtest/gtest.h>

#include <cmath>

#include "core/half.h"
#include "ref_test_util.h"
#include "reference/ops.h"

namespace wgk {
namespace {
using reference::rmsNormalization;
using reference::rmsNormalizationStashF16Tree;
using testutil::f16;
using testutil::f32;

TEST(RmsNormalization, HandComputedLastAxis) {
  // Row [3, 4], epsilon 0: mean(x^2) = (9 + 16) / 2 = 12.5, rms = 3.5355339059,
  // n = [0.8485281374, 1.1313708499]; scale [2, 0.5] -> [1.6970562748, 0.5656854249].
  const auto y = rmsNormalization(f32({1, 2}, {3, 4}), f32({2}, {2, 0.5}), -1, 0.0, 1);
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(y.shape(), (Shape{1, 2}));
  // Cast<T>(n) first, then the f32 product: f32(0.8485281374) * 2 and f32(1.1313708499) * 0.5.
  EXPECT_EQ(y.toFloats(), (std::vector<float>{0.848528137423857f * 2, 1.131370849898476f * 0.5f}));
  // Each row is normalised on its own.
  const auto y2 = rmsNormalization(f32({2, 2}, {3, 4, 30, 40}), f32({2}, {1, 1}), -1, 0.0, 1);
  EXPECT_EQ(y2.toFloats(), (std::vector<float>{0.848528137423857f, 1.131370849898476f, 0.848528137423857f,
                                               1.131370849898476f}));
}

TEST(RmsNormalization, EpsilonIsAFloat32Attribute) {
  // Row [1, 1]: rms = sqrt(1 + eps). With eps = 0.5: n = 1 / sqrt(1.5) = 0.8164965809.
  const auto y = rmsNormalization(f32({2}, {1, 1}), f32({}, {1}), 0, 0.5, 1);
  EXPECT_EQ(y.at(0), static_cast<double>(static_cast<float>(1 / std::sqrt(1.5))));
  // eps = 0.1 is used as float(0.1) = 0.100000001490116..., as the kernels see it.
  const auto y3 = rmsNormalization(f32({1}, {0}), f32({1}, {1}), -1, 0.1, 1);
  EXPECT_EQ(y3.at(0), 0.0);
  const auto y4 = rmsNormalization(f32({1}, {1e-4}), f32({1}, {1}), -1, 0.1, 1);
  const double xd = 1e-4f;
  EXPECT_EQ(y4.at(0),
            static_cast<double>(static_cast<float>(xd / std::sqrt(xd * xd + static_cast<double>(0.1f)))));
}

TEST(RmsNormalization, ZeroRowsGiveZeros) {
  for (DType t : {DType::Float32, DType::Float16})
    for (int stash : {1, 10}) {
      const auto y = rmsNormalization(HostTensor(t, {2, 4}), f32({4}, {1, 2, 3, 4}), -1, 1e-5, stash);
      for (double v : y.toDoubles()) EXPECT_EQ(v, 0.0) << dtypeName(t) << " stash " << stash;
    }
}

TEST(RmsNormalization, F16InputsAtTheMaximumDoNotOverflowWithStash1) {
  // 65504^2 overflows f16 but not an f32 (or double) accumulator: rms = 65504, n = 1, y = 1.
  const auto x = f16({1, 4}, {65504, -65504, 65504, -65504});
  const auto y = rmsNormalization(x, f16({4}, {1, 1, 1, 1}), -1, 1e-5, 1);
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{1, -1, 1, -1}));
  // With stash_type 10 the f16 square overflows to inf by definition: d = inf, n = x / inf = 0.
  const auto y10 = rmsNormalization(x, f16({4}, {1, 1, 1, 1}), -1, 1e-5, 10);
  for (double v : y10.toDoubles()) {
    EXPECT_FALSE(std::isnan(v));
    EXPECT_EQ(v, 0.0);
  }
}

TEST(RmsNormalization, SuffixAxes) {
  // X [2, 2, 2]: axis 1 (= -2) normalises the 4 trailing values of each outer index together.
  const auto x = f32({2, 2, 2}, {1, 1, 1, 1, 2, 2, 2, 2});
  const auto scale = f32({2, 2}, {1, 2, 3, 4});
  const auto a1 = rmsNormalization(x, scale, 1, 0.0, 1);
  EXPECT_EQ(a1.toFloats(), (std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4}));  // every row is all-equal: n = 1
  EXPECT_EQ(rmsNormalization(x, scale, -2, 0.0, 1).toDoubles(), a1.toDoubles());
  // axis 0: one row of 8, rms = sqrt((4 + 16) / 8) = sqrt(2.5); n = 1/1.5811388 and 2/1.5811388.
  const auto a0 = rmsNormalization(x, f32({1}, {1}), 0, 0.0, 1);
  const float lo = static_cast<float>(1 / std::sqrt(2.5)), hi = static_cast<float>(2 / std::sqrt(2.5));
  EXPECT_EQ(a0.toFloats(), (std::vector<float>{lo, lo, lo, lo, hi, hi, hi, hi}));
  // The same with an explicit last axis == -1.
  EXPECT_EQ(rmsNormalization(x, f32({2}, {1, 1}), 2, 0.0, 1).toDoubles(),
            rmsNormalization(x, f32({2}, {1, 1}), -1, 0.0, 1).toDoubles());
}

TEST(RmsNormalization, ScaleBroadcasts) {
  const auto x = f32({3, 4}, {1, 2, 3, 4, -1, 0, 5, 2, 0.5, 0.25, 8, 1});
  const auto flat = rmsNormalization(x, f32({4}, {1, 2, 3, 4}), -1, 1e-5, 1);
  EXPECT_EQ(rmsNormalization(x, f32({1, 4}, {1, 2, 3, 4}), -1, 1e-5, 1).toDoubles(), flat.toDoubles());
  // A full-shape scale applies its own value to each element: row r uses scale row r.
  const auto full = rmsNormalization(x, f32({3, 4}, {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4}), -1, 1e-5, 1);
  EXPECT_EQ(full.toDoubles(), flat.toDoubles());
  const auto perRow = rmsNormalization(x, f32({3, 1}, {1, 2, 4}), -1, 1e-5, 1);
  const auto unit = rmsNormalization(x, f32({}, {1}), -1, 1e-5, 1).toDoubles();
  for (int i = 0; i < 12; ++i) EXPECT_EQ(perRow.at(i), unit[i] * (i < 4 ? 1 : i < 8 ? 2 : 4)) << i;
  // Scale [N] with axis -2 on X [2, 3, 4]: broadcasts over the rows and the normalized dim 3.
  const auto x3 = HostTensor::fromDoubles(DType::Float32, {2, 3, 4}, std::vector<double>(24, 2.0));
  const auto y3 = rmsNormalization(x3, f32({4}, {1, 2, 3, 4}), -2, 0.0, 1);
  for (int i = 0; i < 24; ++i) EXPECT_EQ(y3.at(i), 1.0 + i % 4) << i;
}

TEST(RmsNormalization, MixedDTypesCastToTBeforeTheScale) {
  // T = f16, V = f32: n = 0.8485281374 is cast to f16 (0.8486328125) before the f32 product.
  const auto y = rmsNormalization(f16({2}, {3, 4}), f32({2}, {1, 1}), -1, 0.0, 1);
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(y.at(0), 0.8486328125);
  EXPECT_EQ(y.at(1), static_cast<double>(halfToFloat(doubleToHalf(1.131370849898476))));
  // T = f32, V = f16: f32(n) * f32(scale) rounded to f32, then to f16.
  const auto y2 = rmsNormalization(f32({2}, {3, 4}), f16({2}, {3, 3}), -1, 0.0, 1);
  EXPECT_EQ(y2.dtype(), DType::Float16);
  EXPECT_EQ(y2.at(0), static_cast<double>(halfToFloat(floatToHalf(0.848528137423857f * 3.0f))));
}

TEST(RmsNormalization, Stash10IsSerialF16) {
  // x = [1, 2, 3] f16, eps 1e-5: squares 1, 4, 9, acc = 14; mean = f16(14 / 3) = 4.66796875;
  // f16(eps) = 1.0013580322265625e-05 is lost in f16(mean + eps) = 4.66796875;
  // d = f16(sqrt(4.66796875) = 2.160548) = 2.16015625; n = f16(x / d) = [0.462890625,
  // 0.92578125, 1.388671875].
  const auto y = rmsNormalization(f16({3}, {1, 2, 3}), f16({3}, {1, 1, 1}), -1, 1e-5, 10);
  EXPECT_EQ(y.toDoubles(), (std::vector<double>{0.462890625, 0.92578125, 1.388671875}));
  // f32 input: xh = f16(x) first; scale in f32 keeps the f16 n exactly.
  const auto yf = rmsNormalization(f32({3}, {1, 2, 3}), f32({3}, {1, 1, 1}), -1, 1e-5, 10);
  EXPECT_EQ(yf.toDoubles(), (std::vector<double>{0.462890625, 0.92578125, 1.388671875}));
  // Index order matters: [1, 1, 1, 1, 64] accumulates 4 then 4100 (4 + 4096, exact in f16),
  // [64, 1, 1, 1, 1] accumulates 4096 then 4096 + 1 -> 4096 each time (spacing 4 at 4096):
  // mean 820 vs 819, d = 28.640625 vs 28.625.
  const auto a = rmsNormalization(f16({5}, {1, 1, 1, 1, 64}), f16({5}, {1, 1, 1, 1, 1}), -1, 1e-5, 10);
  const auto b = rmsNormalization(f16({5}, {64, 1, 1, 1, 1}), f16({5}, {1, 1, 1, 1, 1}), -1, 1e-5, 10);
  EXPECT_EQ(a.at(0), 0.034912109375);
  EXPECT_EQ(a.at(4), 2.234375);
  EXPECT_EQ(b.at(0), 2.236328125);
  EXPECT_EQ(b.at(1), 0.034942626953125);
}

TEST(RmsNormalization, Stash10TreeOrderOfTheParallelVariants) {
  // Up to 8 elements the tree is one slot whose lanes are added in lane order: index order.
  for (const auto& row : {std::vector<double>{1, 1, 1, 1, 64}, std::vector<double>{64, 1, 1, 1, 1}}) {
    const auto x = f16({5}, row), s = f16({5}, {1, 1, 1, 1, 1});
    EXPECT_EQ(rmsNormalizationStashF16Tree(x, s, -1, 1e-5).toDoubles(),
              rmsNormalization(x, s, -1, 1e-5, 10).toDoubles());
  }
  // [64, 1 x 15]: index order adds every 1 to 4096 and loses it (spacing 4): acc = 4096, d = 16,
  // n = [4, 0.0625 ...]. The tree adds the second word's eight 1s first (slot 1: 8), then 4096 + 8
  // = 4104: mean 256.5, d = f16(16.0156) = 16.015625, n = [3.99609375, 0.06243896484375 ...].
  std::vector<double> row(16, 1.0);
  row[0] = 64;
  const auto x = f16({16}, row), s = f16({16}, std::vector<double>(16, 1.0));
  const auto serial = rmsNormalization(x, s, -1, 1e-5, 10),
             tree = rmsNormalizationStashF16Tree(x, s, -1, 1e-5);
  EXPECT_EQ(serial.at(0), 4.0);
  EXPECT_EQ(serial.at(15), 0.0625);
  EXPECT_EQ(tree.at(0), 3.99609375);
  EXPECT_EQ(tree.at(15), 0.06243896484375);
  // 4096 ones: index order stops at 2048 (mean 0.5, n = 1.4140625); the tree adds exactly (n = 1).
  const auto ones = f16({4096}, std::vector<double>(4096, 1.0)),
             unit = f16({4096}, std::vector<double>(4096, 1.0));
  EXPECT_EQ(rmsNormalization(ones, unit, -1, 1e-5, 10).at(7), 1.4140625);
  EXPECT_EQ(rmsNormalizationStashF16Tree(ones, unit, -1, 1e-5).at(7), 1.0);
}

TEST(RmsNormalization, EmptyTensors) {
  EXPECT_EQ(rmsNormalization(f32({0, 4}, {}), f32({4}, {1, 2, 3, 4}), -1, 1e-5, 1).shape(), (Shape{0, 4}));
  EXPECT_EQ(rmsNormalization(f16({3, 0}, {}), f16({0}, {}), -1, 1e-5, 10).shape(), (Shape{3, 0}));
}

TEST(RmsNormalization, RejectsBadArguments) {
  const ErrorCode c = ErrorCode::Contract;
  const auto x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const auto s = f32({3}, {1, 1, 1});
  testutil::expectError([&] { rmsNormalization(x, s, 2, 1e-5, 1); }, c, {"axis 2", "rank 2", "-2 .. 1"});
  testutil::expectError([&] { rmsNormalization(x, s, -3, 1e-5, 1); }, c, {"axis -3"});
  testutil::expectError([&] { rmsNormalization(x, s, -1, 1e-5, 2); }, c, {"stash_type 2", "1, 10"});
  testutil::expectError([&] { rmsNormalization(x, s, -1, -1.0, 1); }, c, {"epsilon must be >= 0", "-1"});
  testutil::expectError([&] { rmsNormalizationStashF16Tree(x, s, -1, -1e-9); }, c, {"epsilon must be >= 0"});
  testutil::expectError(
      [&] {
        rmsNormalization(x, f32({2}, {1, 1}), -1, 1e-5, 1);
      },
      c, {"scale shape [2]", "[2, 3]"});
  testutil::expectError(
      [&] {
        rmsNormalization(x, f32({1, 2, 3}, {1, 1, 1, 1, 1, 1}), -1, 1e-5, 1);
      },
      c, {"broadcast"});
  testutil::expectError([&] { rmsNormalization(f32({}, {1}), f32({}, {1}), -1, 1e-5, 1); }, c, {"rank >= 1"});
  testutil::expectError([&] { rmsNormalization(HostTensor(DType::Int8, {3}), s, -1, 1e-5, 1); }, c,
                        {"X", "int8"});
  testutil::expectError([&] { rmsNormalization(x, HostTensor(DType::Uint32, {3}), -1, 1e-5, 1); }, c,
                        {"scale", "uint32"});
}

}  // namespace
}  // namespace wgk

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "ref_test_util.h"
#include "reference/compare.h"

namespace wgk {
namespace {
using testutil::f16;
using testutil::f32;
constexpr double kInf = std::numeric_limits<double>::infinity();

Tolerance absTol(double a) {
  return Tolerance{a, std::nullopt, std::nullopt, false};
}
Tolerance ulpTol(double u) {
  return Tolerance{std::nullopt, std::nullopt, u, false};
}

TEST(Compare, UlpDistanceCountsRepresentableValues) {
  EXPECT_EQ(ulpDistance(DType::Float16, 1.0, 1.0 + 0x1p-10), 1);
  EXPECT_EQ(ulpDistance(DType::Float16, 1.0, 1.0 - 0x1p-11), 1);  // across a binade
  EXPECT_EQ(ulpDistance(DType::Float16, 1.0, 2.0), 1024);
  EXPECT_EQ(ulpDistance(DType::Float16, 0.0, -0.0), 0);
  EXPECT_EQ(ulpDistance(DType::Float16, 0x1p-24, -0x1p-24), 2);  // across zero: +sub, 0, -sub
  EXPECT_EQ(ulpDistance(DType::Float16, 65504, kInf), 1);
  EXPECT_EQ(ulpDistance(DType::Float32, 1.0, 1.0 + 0x1p-23), 1);
  EXPECT_EQ(ulpDistance(DType::Float32, 0x1p-149, -0x1p-149), 2);
  EXPECT_EQ(ulpDistance(DType::Float32, -1.0, -1.0 - 0x1p-22), 2);
  EXPECT_EQ(ulpDistance(DType::Int32, 5, -3), 8);
  EXPECT_EQ(ulpDistance(DType::Float32, std::nan(""), 1.0), kInf);
}

TEST(Compare, AbsRelAndUlpTolerances) {
  const auto want = f32({3}, {1, 100, -2});
  const auto got = f32({3}, {1.0005, 100.05, -2});
  auto r = compareTensors(got, want, absTol(0.01));
  EXPECT_FALSE(r.pass);  // 100.05 is 0.05 away
  EXPECT_EQ(r.failedCount, 1);
  EXPECT_EQ(r.firstFailIndex, 1);
  EXPECT_NEAR(r.gotAtFail, 100.05, 1e-5);
  EXPECT_EQ(r.wantAtFail, 100);
  EXPECT_NEAR(r.maxAbsError, 0.05, 1e-5);
  EXPECT_TRUE(compareTensors(got, want, Tolerance{0.002, 0.0005, std::nullopt, false})
                  .pass);  // 0.05 <= 0.002 + 0.0005 * 100
  EXPECT_TRUE(compareTensors(got, want, Tolerance{std::nullopt, 0.001, std::nullopt, false}).pass);
  EXPECT_FALSE(compareTensors(got, want, Tolerance{std::nullopt, 0.0004, std::nullopt, false}).pass);
  // ulp: f16 values one and two ulps apart.
  const auto w16 = f16({2}, {1, 1});
  const auto g16 = f16({2}, {1 + 0x1p-10, 1 - 0x1p-10});  // 1 ulp above, 2 ulps below (finer binade)
  auto u1 = compareTensors(g16, w16, ulpTol(1));
  EXPECT_FALSE(u1.pass);
  EXPECT_EQ(u1.firstFailIndex, 1);
  EXPECT_EQ(u1.maxUlpError, 2);
  EXPECT_TRUE(compareTensors(g16, w16, ulpTol(2)).pass);
  // Either criterion suffices: abs fails for index 1 but ulp 2 passes it.
  EXPECT_TRUE(compareTensors(g16, w16, Tolerance{0.0, std::nullopt, 2.0, false}).pass);
  EXPECT_FALSE(compareTensors(g16, w16, Tolerance{0.0, std::nullopt, 1.0, false}).pass);
}

TEST(Compare, NoToleranceMeansExactAndZerosAreEqual) {
  EXPECT_TRUE(compareTensors(f32({2}, {0.0, 1}), f32({2}, {-0.0, 1}), Tolerance{}).pass);
  auto r = compareTensors(f32({2}, {1, 1 + 0x1p-23}), f32({2}, {1, 1}), Tolerance{});
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.maxUlpError, 1);
  EXPECT_EQ(r.count, 2);
}

TEST(Compare, NaNAndInfinities) {
  const auto want = f16({3}, {std::nan(""), kInf, -kInf});
  EXPECT_FALSE(compareTensors(want, want, absTol(1)).pass);  // NaN needs allowNaN
  Tolerance allow = absTol(1);
  allow.allowNaN = true;
  auto ok = compareTensors(want, want, allow);
  EXPECT_TRUE(ok.pass) << ok.summary();
  EXPECT_EQ(ok.maxAbsError, 0);
  // NaN where a number is expected fails even with allowNaN; and reports an infinite error.
  auto r = compareTensors(f16({1}, {std::nan("")}), f16({1}, {1}), allow);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.maxAbsError, kInf);
  EXPECT_EQ(r.maxUlpError, kInf);
  // A number where NaN is expected fails.
  EXPECT_FALSE(compareTensors(f16({1}, {1}), f16({1}, {std::nan("")}), allow).pass);
  // inf must be the same inf, whatever the tolerance (65504 is one f16 ulp below inf).
  EXPECT_FALSE(compareTensors(f16({1}, {65504}), f16({1}, {kInf}), Tolerance{1e9, 1.0, 5.0, true}).pass);
  EXPECT_FALSE(compareTensors(f16({1}, {kInf}), f16({1}, {65504}), Tolerance{1e9, 1.0, 5.0, true}).pass);
  EXPECT_FALSE(compareTensors(f16({1}, {-kInf}), f16({1}, {kInf}), Tolerance{1e9, 1.0, 5.0, true}).pass);
  EXPECT_TRUE(compareTensors(f32({1}, {-kInf}), f32({1}, {-kInf}), Tolerance{}).pass);
}

TEST(Compare, MismatchedTensorsFailWithAReason) {
  auto r = compareTensors(f32({2}, {1, 2}), f16({2}, {1, 2}), absTol(1));
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.reason.find("dtype differs: got float32, want float16"), std::string::npos) << r.reason;
  auto s = compareTensors(f32({2, 1}, {1, 2}), f32({2}, {1, 2}), absTol(1));
  EXPECT_FALSE(s.pass);
  EXPECT_NE(s.reason.find("shape differs: got [2, 1], want [2]"), std::string::npos) << s.reason;
  EXPECT_NE(s.summary().find("shape differs"), std::string::npos);
  // Empty tensors of equal shape pass.
  EXPECT_TRUE(compareTensors(f32({0, 3}, {}), f32({0, 3}, {}), Tolerance{}).pass);
  EXPECT_THROW(compareTensors(f32({1}, {1}), f32({1}, {1}), absTol(-1)), Error);
}

TEST(Compare, SummaryNamesTheFirstFailure) {
  auto r = compareTensors(f32({3}, {1, 5, 9}), f32({3}, {1, 2, 3}), absTol(0.5));
  const std::string s = r.summary();
  EXPECT_NE(s.find("fail"), std::string::npos) << s;
  EXPECT_NE(s.find("2 failed, first at index 1 (got 5, want 2)"), std::string::npos) << s;
  EXPECT_NE(s.find("max abs error 6"), std::string::npos) << s;
  EXPECT_EQ(compareTensors(f32({1}, {1}), f32({1}, {1}), Tolerance{}).summary().rfind("pass", 0), 0u);
}

TEST(Compare, ParsesToleranceJson) {
  const auto t =
      parseTolerance(nlohmann::json::parse(R"({"abs": 0.001, "rel": 0.01, "ulp": 2, "allowNaN": true})"));
  EXPECT_EQ(t.abs, 0.001);
  EXPECT_EQ(t.rel, 0.01);
  EXPECT_EQ(t.ulp, 2);
  EXPECT_TRUE(t.allowNaN);
  const auto e = parseTolerance(nlohmann::json::object());
  EXPECT_FALSE(e.abs || e.rel || e.ulp || e.allowNaN);
  testutil::expectError([] { parseTolerance(nlohmann::json::parse(R"({"abs": -1})")); }, ErrorCode::Manifest,
                        {"abs", "non-negative"});
  testutil::expectError([] { parseTolerance(nlohmann::json::parse(R"({"ulp": "2"})")); }, ErrorCode::Manifest,
                        {"ulp"});
  testutil::expectError([] { parseTolerance(nlohmann::json::parse(R"({"atol": 1})")); }, ErrorCode::Manifest,
                        {"unknown tolerance field 'atol'"});
  testutil::expectError([] { parseTolerance(nlohmann::json::parse(R"({"allowNaN": 1})")); },
                        ErrorCode::Manifest, {"allowNaN"});
  testutil::expectError([] { parseTolerance(nlohmann::json::parse("[1]")); }, ErrorCode::Manifest,
                        {"object"});
}

}  // namespace
}  // namespace wgk

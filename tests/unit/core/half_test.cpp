// binary16 conversions against independent oracles: a decoder written from the IEEE 754 definition,
// and the compiler's own _Float16 conversions (GCC/Clang on x86-64), which round correctly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/half.h"

namespace wgk {
namespace {

double decodeByDefinition(uint16_t h) {
  const int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v;
  if (e == 0)
    v = std::ldexp(m, -24);
  else if (e == 31)
    v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(1024 + m, e - 25);
  return sign ? -v : v;
}

uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

#ifdef __FLT16_MAX__
uint16_t oracle(float f) {
  const _Float16 h = static_cast<_Float16>(f);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
uint16_t oracleD(double d) {
  const _Float16 h = static_cast<_Float16>(d);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
#endif

TEST(Half, DecodesEveryPatternByDefinition) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const double want = decodeByDefinition(static_cast<uint16_t>(h));
    const float got = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << h;
      ASSERT_EQ(bitsOf(got) >> 31, h >> 15) << "NaN sign kept for " << std::hex << h;
    } else {
      ASSERT_EQ(static_cast<double>(got), want) << std::hex << h;
      ASSERT_EQ(std::signbit(got), (h >> 15) != 0) << std::hex << h;
    }
  }
}

TEST(Half, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      const uint16_t back = floatToHalf(f);
      ASSERT_EQ(back & 0x7c00, 0x7c00) << std::hex << h;
      ASSERT_NE(back & 0x3ff, 0) << "NaN must stay NaN, not become inf: " << std::hex << h;
      ASSERT_EQ(back & 0x8000, h & 0x8000);
    } else {
      ASSERT_EQ(floatToHalf(f), h) << std::hex << h;
    }
  }
}

// Between every two adjacent finite halves: the midpoint ties to the even one, and the floats one
// ulp either side of it go to the nearer one. Covers subnormals, the normal/subnormal seam and overflow.
TEST(Half, RoundsToNearestTiesToEvenAtEveryBoundary) {
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    const float lo = halfToFloat(static_cast<uint16_t>(h)), hi = halfToFloat(static_cast<uint16_t>(h + 1));
    const float mid = (lo + hi) / 2;  // exact: 12 significant bits
    ASSERT_EQ(static_cast<double>(mid) * 2, static_cast<double>(lo) + hi);
    const uint16_t even = (h & 1) ? static_cast<uint16_t>(h + 1) : static_cast<uint16_t>(h);
    ASSERT_EQ(floatToHalf(mid), even) << "tie at " << mid;
    ASSERT_EQ(floatToHalf(-mid), even | 0x8000) << "negative tie at " << mid;
    ASSERT_EQ(floatToHalf(std::nextafter(mid, 0.0f)), h) << "just below " << mid;
    ASSERT_EQ(floatToHalf(std::nextafter(mid, 1e9f)), h + 1) << "just above " << mid;
  }
}

TEST(Half, EdgeCases) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.996f), 0x7bff);  // below the tie with 65536 (virtual next value)
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);    // tie: rounds to even, which is the inf pattern
  EXPECT_EQ(floatToHalf(-65520.0f), 0xfc00);
  EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);   // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);   // half of it: tie to even (zero)
  EXPECT_EQ(floatToHalf(-std::ldexp(1.0f, -25)), 0x8000);  // keeps the sign
  EXPECT_EQ(floatToHalf(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(floatToHalf(3 * std::ldexp(1.0f, -25)), 0x0002);  // 1.5 subnormal ulps: tie -> even 2
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);      // smallest normal
  EXPECT_EQ(floatToHalf(std::ldexp(1023.5f, -24)), 0x0400);   // rounds up across the seam
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::denorm_min()), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);      // tie between 1 and 1+2^-10 -> 1
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie -> even mantissa 2
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(nan))));
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(floatOf(0x7f800001u)))));  // signalling NaN, low bits only
  EXPECT_EQ(roundToHalf(0.1f), halfToFloat(0x2e66));
}

#ifdef __FLT16_MAX__
TEST(Half, MatchesCompilerConversionOnSampledFloats) {
  // Every 997th bit pattern (4.3M floats): all exponents, many mantissas, both signs, NaNs.
  for (uint64_t b = 0; b < 0x100000000ull; b += 997) {
    const float f = floatOf(static_cast<uint32_t>(b));
    const uint16_t got = floatToHalf(f), want = oracle(f);
    if (std::isnan(f)) {
      ASSERT_TRUE((got & 0x7c00) == 0x7c00 && (got & 0x3ff) != 0) << std::hex << b;
      continue;
    }
    ASSERT_EQ(got, want) << "float bits " << std::hex << b;
  }
}

TEST(Half, DoubleToHalfRoundsOnce) {
  // A double just above a half tie whose float rounding lands exactly on the tie: the direct
  // conversion must round up, a double -> float -> half path would wrongly tie to even.
  const double tie = 1.0 + std::ldexp(1.0, -11);
  EXPECT_EQ(floatToHalf(static_cast<float>(tie + std::ldexp(1.0, -40))), 0x3c00);  // the double rounding
  EXPECT_EQ(doubleToHalf(tie + std::ldexp(1.0, -40)), 0x3c01);
  EXPECT_EQ(doubleToHalf(tie - std::ldexp(1.0, -40)), 0x3c00);
  const double oddTie = 1.0 + 3 * std::ldexp(1.0, -11);  // between 0x3c01 and 0x3c02
  EXPECT_EQ(doubleToHalf(oddTie - std::ldexp(1.0, -40)), 0x3c01);
  EXPECT_EQ(doubleToHalf(oddTie), 0x3c02);
  EXPECT_EQ(doubleToHalf(65519.99999999), 0x7bff);
  EXPECT_EQ(doubleToHalf(65520.0), 0x7c00);
  EXPECT_EQ(doubleToHalf(1e300), 0x7c00);
  EXPECT_EQ(doubleToHalf(-1e-300), 0x8000);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -25) + std::ldexp(1.0, -60)), 0x0001);  // just above the tie
  EXPECT_TRUE(std::isnan(halfToFloat(doubleToHalf(std::nan("")))));
  // Sampled doubles, including ones near every half tie, against the compiler's direct conversion.
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const double lo = halfToFloat(static_cast<uint16_t>(h));
    const double hi = h == 0x7bff ? 65536.0 : halfToFloat(static_cast<uint16_t>(h + 1));
    const double mid = (lo + hi) / 2;
    for (double d : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e9), mid + (hi - lo) * 1e-9,
                     mid - (hi - lo) * 1e-9, lo + (hi - lo) * 0.3}) {
      ASSERT_EQ(doubleToHalf(d), oracleD(d)) << d;
      ASSERT_EQ(doubleToHalf(-d), oracleD(-d)) << -d;
    }
  }
}
#endif

}  // namespace
}  // namespace wgk

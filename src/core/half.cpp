#include "core/half.h"

#include <cmath>
#include <cstring>

namespace wgk {

uint16_t floatToHalf(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t absf = f & 0x7fffffffu;
  if (absf >= 0x7f800000u) {  // inf or NaN: keep NaN quiet and non-zero
    return static_cast<uint16_t>(sign | 0x7c00u |
                                 (absf > 0x7f800000u ? 0x200u | ((absf >> 13) & 0x3ffu) : 0u));
  }
  const int32_t exp = static_cast<int32_t>(absf >> 23) - 127 + 15;
  uint32_t mant = absf & 0x7fffffu;
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (exp <= 0) {
    // Subnormal or zero in half: shift the implicit bit in, round to nearest even.
    if (exp < -10) return static_cast<uint16_t>(sign);  // below half the smallest subnormal
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t h = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: correct
  return static_cast<uint16_t>(sign | h);
}

uint16_t doubleToHalf(double value) {
  // Round to float with "round to odd" (keep the lowest bit set when inexact), then to half: float's
  // 24 bits exceed half's 11 + 2, so the second rounding is then exactly the direct one.
  float f = static_cast<float>(value);  // nearest even
  if (std::isfinite(f) && static_cast<double>(f) != value && !std::isnan(value)) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    // f is one of the two floats around value; if its last bit is even, the odd one is the other.
    if ((bits & 1u) == 0) f = std::nextafter(f, static_cast<float>(value > f ? INFINITY : -INFINITY));
  }
  return floatToHalf(f);
}

float halfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits >> 15) << 31;
  uint32_t exp = (bits >> 10) & 0x1fu;
  uint32_t mant = bits & 0x3ffu;
  uint32_t f;
  if (exp == 0) {
    if (mant == 0) {
      f = sign;
    } else {
      exp = 127 - 15 + 1;
      while (!(mant & 0x400u)) {
        mant <<= 1;
        --exp;
      }
      f = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    f = sign | 0x7f800000u | (mant << 13);
  } else {
    f = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float out;
  std::memcpy(&out, &f, 4);
  return out;
}

}  // namespace wgk

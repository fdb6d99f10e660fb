// IEEE 754 binary16 <-> binary32 conversions, exact (round to nearest even, subnormals, inf, NaN).
#pragma once

#include <cstdint>

namespace wgk {

uint16_t floatToHalf(float value);  // round to nearest, ties to even; overflow gives +-inf
float halfToFloat(uint16_t bits);   // exact
// Rounds a double straight to binary16 (nearest, ties to even) with no intermediate float rounding,
// so values just off a binary16 tie are not double-rounded; used for reference results and data.
uint16_t doubleToHalf(double value);
// Rounds a float to the nearest representable binary16 value and widens it back.
inline float roundToHalf(float value) {
  return halfToFloat(floatToHalf(value));
}

}  // namespace wgk

// IEEE 754 binary16 <-> binary32 conversions, exact (round to nearest even, subnormals, inf, NaN).
#pragma once

#include <cstdint>

namespace wgk {

uint16_t floatToHalf(float value);    // round to nearest, ties to even; overflow gives +-inf
float halfToFloat(uint16_t bits);     // exact
// Rounds a float to the nearest representable binary16 value and widens it back.
inline float roundToHalf(float value) { return halfToFloat(floatToHalf(value)); }

}  // namespace wgk

// Argument checks and rounding helpers shared by the reference ops (internal to src/reference).
#pragma once

#include <string>
#include <string_view>

#include "core/shape_text.h"
#include "core/half.h"
#include "wgk/tensor.h"

namespace wgk::reference::detail {

// Throws Error(Contract) "<op>: <what> must be float32 or float16 (got int32)".
void requireFloat(std::string_view op, std::string_view what, const HostTensor& t);
void requireDType(std::string_view op, std::string_view what, const HostTensor& t, DType want);
void requireRank(std::string_view op, std::string_view what, const HostTensor& t, size_t rank);
[[noreturn]] void contractError(std::string_view op, const std::string& message);

// Rounds to binary16 and back (exact widening), the "f16(...)" of the numeric contract.
inline float f16(float v) {
  return halfToFloat(floatToHalf(v));
}
// Rounds a double once to a float dtype (float32 or float16) and widens it back.
inline double roundTo(DType t, double v) {
  return t == DType::Float16 ? static_cast<double>(halfToFloat(doubleToHalf(v)))
                             : static_cast<double>(static_cast<float>(v));
}

}  // namespace wgk::reference::detail

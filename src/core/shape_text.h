// core/shape_text.h — how wgk writes a shape: the one copy for messages, reports and file headers.
#pragma once

#include <string>
#include <string_view>

#include "wgk/dtype.h"

namespace wgk {

// The dimensions joined by `sep`: "2, 8" (default), "2x8" with "x"; "" for a scalar.
std::string joinDims(const Shape& shape, std::string_view sep = ", ");
// "[2, 8]" (a scalar: "[]"), as messages and reports write a shape.
std::string shapeText(const Shape& shape);

}  // namespace wgk

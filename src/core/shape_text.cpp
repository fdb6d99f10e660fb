#include "core/shape_text.h"

namespace wgk {

std::string joinDims(const Shape& shape, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += sep;
    out += std::to_string(shape[i]);
  }
  return out;
}

std::string shapeText(const Shape& shape) { return "[" + joinDims(shape) + "]"; }

}  // namespace wgk

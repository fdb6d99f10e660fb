#include "reference/checks.h"

#include "core/shape_text.h"
#include "wgk/error.h"

namespace wgk::reference::detail {

void contractError(std::string_view op, const std::string& message) {
  throw Error(ErrorCode::Contract, std::string(op) + ": " + message);
}

void requireFloat(std::string_view op, std::string_view what, const HostTensor& t) {
  if (t.dtype() != DType::Float32 && t.dtype() != DType::Float16)
    contractError(op, std::string(what) + " must be float32 or float16 (got " +
                          std::string(dtypeName(t.dtype())) + ")");
}

void requireDType(std::string_view op, std::string_view what, const HostTensor& t, DType want) {
  if (t.dtype() != want)
    contractError(op, std::string(what) + " must be " + std::string(dtypeName(want)) + " (got " +
                          std::string(dtypeName(t.dtype())) + ")");
}

void requireRank(std::string_view op, std::string_view what, const HostTensor& t, size_t rank) {
  if (t.shape().size() != rank)
    contractError(op, std::string(what) + " must have rank " + std::to_string(rank) + " (got shape " +
                          shapeText(t.shape()) + ")");
}

}  // namespace wgk::reference::detail

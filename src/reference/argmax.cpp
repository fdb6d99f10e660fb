#include <cmath>
#include <cstdint>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

namespace {
constexpr std::string_view kArgMaxOp = "ArgMax";

// numpy.argmax's order, which ONNX's reference implementation uses: NaN is above every number
// (and equal to every NaN), -0 equals +0. True when v beats the current best m.
bool above(double v, double m) {
  if (std::isnan(m)) return false;
  if (std::isnan(v)) return true;
  return v > m;
}

void requireFlag(const char* name, int64_t v) {
  if (v != 0 && v != 1)
    contractError(kArgMaxOp, std::string(name) + " must be 0 or 1 (got " + std::to_string(v) + ")");
}
}  // namespace

HostTensor argMax(const HostTensor& x, int64_t axis, int64_t keepdims, int64_t selectLastIndex) {
  const DType t = x.dtype();
  if (t != DType::Float32 && t != DType::Float16 && t != DType::Int32 && t != DType::Uint32 &&
      t != DType::Int8 && t != DType::Uint8)
    contractError(kArgMaxOp, "data must be float32, float16, int32, uint32, int8 or uint8 (got " +
                                 std::string(dtypeName(t)) + ")");
  requireFlag("keepdims", keepdims);
  requireFlag("select_last_index", selectLastIndex);
  const Shape& s = x.shape();
  const int64_t rank = static_cast<int64_t>(s.size());
  if (rank == 0) contractError(kArgMaxOp, "data must have rank >= 1 (got a scalar)");
  if (axis < -rank || axis >= rank)
    contractError(kArgMaxOp, "axis " + std::to_string(axis) + " is out of range for rank " +
                                 std::to_string(rank) + " (allowed [" + std::to_string(-rank) + ", " +
                                 std::to_string(rank - 1) + "])");
  const size_t a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
  const int64_t n = s[a];
  if (n == 0)
    contractError(kArgMaxOp, "the reduced axis " + std::to_string(a) + " of " + shapeText(s) + " is empty");
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < a; ++d) outer *= s[d];
  for (size_t d = a + 1; d < s.size(); ++d) inner *= s[d];
  Shape y;
  for (size_t d = 0; d < s.size(); ++d)
    if (d != a)
      y.push_back(s[d]);
    else if (keepdims)
      y.push_back(1);
  const std::vector<double> in = x.toDoubles();
  std::vector<double> out(static_cast<size_t>(outer * inner));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const double* row = in.data() + o * n * inner + i;
      int64_t best = 0;
      for (int64_t k = 1; k < n; ++k) {
        const double v = row[k * inner], m = row[best * inner];
        // A tie (v == m, or both NaN) moves the answer only for select_last_index.
        const bool tie = v == m || (std::isnan(v) && std::isnan(m));
        if (above(v, m) || (selectLastIndex && tie)) best = k;
      }
      out[static_cast<size_t>(o * inner + i)] = static_cast<double>(best);
    }
  return HostTensor::fromDoubles(DType::Int64, y, out);
}

}  // namespace wgk::reference

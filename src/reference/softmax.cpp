#include <cmath>
#include <cstdint>
#include <limits>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

namespace {
constexpr std::string_view kSoftmaxOp = "Softmax";

// One softmax row of n elements a stride apart, from in to out (doubles of the tensor's values).
// exp(x - max) / sum(exp(x - max)) in double, rounded once to the dtype by the caller. A row with
// no finite maximum (all -inf), or with a NaN or +inf entry, is all NaN: numpy's x - max meets
// -inf - -inf or inf - inf there, which is what ONNX's reference implementation computes.
void softmaxRow(const double* in, double* out, int64_t n, int64_t stride) {
  double m = -std::numeric_limits<double>::infinity();
  bool poisoned = false;
  for (int64_t k = 0; k < n; ++k) {
    const double v = in[k * stride];
    if (std::isnan(v) || v == std::numeric_limits<double>::infinity()) poisoned = true;
    m = std::max(m, v);
  }
  if (poisoned || !std::isfinite(m)) {
    for (int64_t k = 0; k < n; ++k) out[k * stride] = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  // Values are float32 or float16: x - m cannot overflow in double, and x - m <= 0 keeps exp <= 1.
  double sum = 0;
  for (int64_t k = 0; k < n; ++k) sum += std::exp(in[k * stride] - m);
  for (int64_t k = 0; k < n; ++k) out[k * stride] = std::exp(in[k * stride] - m) / sum;
}
}  // namespace

HostTensor softmax(const HostTensor& x, int64_t axis) {
  const DType t = x.dtype();
  requireFloat(kSoftmaxOp, "input", x);
  const Shape& s = x.shape();
  const int64_t rank = static_cast<int64_t>(s.size());
  if (rank == 0) contractError(kSoftmaxOp, "input must have rank >= 1 (got a scalar)");
  if (axis < -rank || axis >= rank)
    contractError(kSoftmaxOp, "axis " + std::to_string(axis) + " is out of range for rank " +
                                  std::to_string(rank) + " (allowed [" + std::to_string(-rank) + ", " +
                                  std::to_string(rank - 1) + "])");
  const size_t a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < a; ++d) outer *= s[d];
  for (size_t d = a + 1; d < s.size(); ++d) inner *= s[d];
  const int64_t n = s[a];
  const std::vector<double> in = x.toDoubles();
  std::vector<double> out(in.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const size_t base = static_cast<size_t>(o * n * inner + i);
      softmaxRow(in.data() + base, out.data() + base, n, inner);
    }
  for (double& v : out) v = roundTo(t, v);
  return HostTensor::fromDoubles(t, s, out);
}

}  // namespace wgk::reference

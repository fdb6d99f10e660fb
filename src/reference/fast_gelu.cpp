#include <cmath>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

HostTensor fastGelu(const HostTensor& x, const HostTensor* bias) {
  constexpr std::string_view op = "FastGelu";
  requireFloat(op, "X", x);
  const bool f16In = x.dtype() == DType::Float16;
  std::vector<double> b;
  int64_t last = 1;
  if (bias) {
    requireDType(op, "bias", *bias, x.dtype());
    requireRank(op, "bias", *bias, 1);
    if (x.shape().empty()) contractError(op, "X must have rank >= 1 when a bias is given");
    last = x.shape().back();
    if (bias->shape()[0] != last)
      contractError(op, "bias length " + std::to_string(bias->shape()[0]) +
                            " must equal X's last dimension " + std::to_string(last) + " (X shape " +
                            shapeText(x.shape()) + ")");
    b = bias->toDoubles();
  }
  const std::vector<double> xs = x.toDoubles();
  std::vector<double> ys(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    double xb = xs[i];
    if (bias) {
      // The bias is added in X's dtype: an f32 sum, rounded to f16 for f16 (exactly the f16 sum).
      const float sum = static_cast<float>(xb) + static_cast<float>(b[i % static_cast<size_t>(last)]);
      xb = f16In ? f16(sum) : sum;
    }
    // 0.5 xb (1 + tanh(z)) == xb / (1 + exp(-2z)); this form keeps full relative accuracy where
    // tanh(z) is near -1 and saturates cleanly (exp -> inf gives -0, exp -> 0 gives xb).
    const double z = 0.7978845608 * xb + 0.0356774081 * xb * xb * xb;
    ys[i] = xb / (1.0 + std::exp(-2.0 * z));
  }
  return HostTensor::fromDoubles(x.dtype(), x.shape(), ys);  // one rounding to X's dtype
}

}  // namespace wgk::reference

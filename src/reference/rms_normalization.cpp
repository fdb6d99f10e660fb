#include <cmath>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;
namespace {
constexpr std::string_view kRMSNormalizationOp = "RMSNormalization";

// For each element of X (C order), the index of the scale element it uses under numpy broadcasting.
std::vector<size_t> broadcastIndex(const Shape& xs, const Shape& ss) {
  const size_t r = xs.size(), sr = ss.size();
  std::vector<int64_t> stride(r, 0);  // stride of scale along each X dim; 0 where broadcast
  int64_t st = 1;
  for (size_t j = 0; j < sr; ++j) {
    const size_t sd = sr - 1 - j, xd = r - 1 - j;
    if (ss[sd] != 1) stride[xd] = st;
    st *= ss[sd];
  }
  std::vector<size_t> out(static_cast<size_t>(numel(xs)));
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t rem = static_cast<int64_t>(i), idx = 0;
    for (size_t d = r; d-- > 0;) {
      idx += (rem % xs[d]) * stride[d];
      rem /= xs[d];
    }
    out[i] = static_cast<size_t>(idx);
  }
  return out;
}

// stash_type 10: the f16 sum of one row's f16 squares sq[0..n), each addition rounded to f16.
// In index order: variant stash_f16_serial.
float serialSum(const std::vector<float>& sq) {
  float acc = 0;
  for (float t : sq) acc = f16(acc + t);
  return acc;
}

// In the order of the parallel variants stash_f16_rows*: words of 8 elements (the last padded
// with +0), slot t of 256 owns the words t, t + 256, ..., keeping 8 lane sums; a slot's partial
// adds its lane sums in lane order; then a halving tree over the slots (p_t += p_{t+n} for
// n = 128, ..., 1). Slots without words hold +0, so fewer than 256 of them give the same sum.
float treeSum(const std::vector<float>& sq) {
  constexpr size_t kSlots = 256, kLanes = 8;
  const size_t words = (sq.size() + kLanes - 1) / kLanes;
  std::vector<float> part(kSlots, 0.0f);
  for (size_t t = 0; t < kSlots && t < words; ++t) {
    float lane[kLanes] = {};
    for (size_t w = t; w < words; w += kSlots)
      for (size_t i = 0; i < kLanes; ++i) {
        const size_t j = w * kLanes + i;
        lane[i] = f16(lane[i] + (j < sq.size() ? sq[j] : 0.0f));
      }
    float p = lane[0];
    for (size_t i = 1; i < kLanes; ++i) p = f16(p + lane[i]);
    part[t] = p;
  }
  for (size_t n = kSlots / 2; n > 0; n /= 2)
    for (size_t t = 0; t < n; ++t) part[t] = f16(part[t] + part[t + n]);
  return part[0];
}

using StashSum = float (*)(const std::vector<float>&);

HostTensor compute(const HostTensor& x, const HostTensor& scale, int64_t axis, double epsilon,
                   int64_t stashType, StashSum stashSum) {
  requireFloat(kRMSNormalizationOp, "X", x);
  requireFloat(kRMSNormalizationOp, "scale", scale);
  const Shape& xs = x.shape();
  const Shape& ss = scale.shape();
  const int64_t r = static_cast<int64_t>(xs.size());
  if (r < 1) contractError(kRMSNormalizationOp, "X must have rank >= 1 (got a scalar)");
  if (axis < -r || axis >= r)
    contractError(kRMSNormalizationOp, "axis " + std::to_string(axis) + " is out of range for X of rank " +
                                           std::to_string(r) + " (allowed: " + std::to_string(-r) + " .. " +
                                           std::to_string(r - 1) + ")");
  if (stashType != 1 && stashType != 10)
    contractError(kRMSNormalizationOp,
                  "stash_type " + std::to_string(stashType) + " is not supported (allowed: 1, 10)");
  if (!(epsilon >= 0))
    contractError(kRMSNormalizationOp, "epsilon must be >= 0 (got " + std::to_string(epsilon) + ")");
  bool broadcastOk = ss.size() <= xs.size();
  for (size_t j = 0; broadcastOk && j < ss.size(); ++j) {
    const int64_t s = ss[ss.size() - 1 - j], d = xs[xs.size() - 1 - j];
    broadcastOk = s == d || s == 1;
  }
  if (!broadcastOk)
    contractError(
        kRMSNormalizationOp,
        "scale shape " + shapeText(ss) + " does not broadcast unidirectionally to X shape " + shapeText(xs));

  const size_t a = static_cast<size_t>(axis < 0 ? axis + r : axis);
  int64_t rows = 1, n = 1;
  for (size_t d = 0; d < xs.size(); ++d) (d < a ? rows : n) *= xs[d];
  const DType T = x.dtype();
  const std::vector<double> xv = x.toDoubles();
  const std::vector<double> sv = scale.toDoubles();
  const std::vector<size_t> sIdx = broadcastIndex(xs, ss);
  // ONNX float attributes are float32: the kernels see epsilon as f32.
  const float eps = static_cast<float>(epsilon);
  std::vector<double> y(xv.size());

  for (int64_t row = 0; row < rows && n > 0; ++row) {
    const size_t base = static_cast<size_t>(row * n);
    auto finish = [&](size_t i, double normalized) {
      const float nT = static_cast<float>(roundTo(T, normalized));      // Cast<T>(n)
      y[i] = static_cast<float>(nT * static_cast<float>(sv[sIdx[i]]));  // f32 product, then V below
    };
    if (stashType == 1) {
      double sumSq = 0;  // exact enough: f16 inputs up to 65504 cannot overflow a double
      for (int64_t j = 0; j < n; ++j) sumSq += xv[base + j] * xv[base + j];
      const double rms = std::sqrt(sumSq / static_cast<double>(n) + static_cast<double>(eps));
      for (int64_t j = 0; j < n; ++j) finish(base + j, xv[base + j] / rms);
    } else {
      // Every step rounded to f16 (overflow to inf is intended); the sum in stashSum's order.
      std::vector<float> sq(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j) {
        const float xh = f16(static_cast<float>(xv[base + j]));
        sq[static_cast<size_t>(j)] = f16(xh * xh);
      }
      const float acc = stashSum(sq);
      const float mean = f16(acc / f16(static_cast<float>(n)));
      const float d = f16(std::sqrt(f16(mean + f16(eps))));
      for (int64_t j = 0; j < n; ++j) {
        const float xh = f16(static_cast<float>(xv[base + j]));
        finish(base + j, f16(xh / d));
      }
    }
  }
  return HostTensor::fromDoubles(scale.dtype(), xs, y);  // V(...): exact from the f32 product
}
}  // namespace

HostTensor rmsNormalization(const HostTensor& x, const HostTensor& scale, int64_t axis, double epsilon,
                            int64_t stashType) {
  return compute(x, scale, axis, epsilon, stashType, serialSum);
}

HostTensor rmsNormalizationStashF16Tree(const HostTensor& x, const HostTensor& scale, int64_t axis,
                                        double epsilon) {
  return compute(x, scale, axis, epsilon, 10, treeSum);
}

}  // namespace wgk::reference

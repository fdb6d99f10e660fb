#include <cmath>
#include <cstdint>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

namespace {
constexpr std::string_view kOp = "Add";

// numpy's multidirectional rule: shapes aligned at the right, each dimension pair equal or one
// of them 1 (a 1 against a 0 gives 0).
Shape broadcastShapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape c(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      contractError(kOp, "shapes " + shapeText(a) + " and " + shapeText(b) +
                             " are not broadcast-compatible (output dimension " + std::to_string(i) + ": " +
                             std::to_string(da) + " vs " + std::to_string(db) + ")");
    c[i] = da == 1 ? db : da;
  }
  return c;
}

// Element strides of `s` seen through the output shape `c`: 0 along broadcast dimensions.
std::vector<int64_t> broadcastStrides(const Shape& s, const Shape& c) {
  std::vector<int64_t> st(c.size(), 0);
  int64_t stride = 1;
  for (size_t k = 0; k < s.size(); ++k) {
    const size_t i = s.size() - 1 - k, o = c.size() - 1 - k;
    if (s[i] != 1) st[o] = stride;
    stride *= s[i];
  }
  return st;
}

// The sum in the tensor dtype: floats rounded once (float32 by the float addition itself, float16
// from the exact double sum of two binary16 values), integers wrapped to their logical width.
double sumIn(DType t, double x, double y) {
  switch (t) {
    case DType::Float32:
      return static_cast<double>(static_cast<float>(x) + static_cast<float>(y));
    case DType::Float16:
      return static_cast<double>(halfToFloat(doubleToHalf(x + y)));
    case DType::Int32:
      return static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(x) + static_cast<int64_t>(y)));
    case DType::Uint32:
      return static_cast<uint32_t>(static_cast<int64_t>(x) + static_cast<int64_t>(y));
    case DType::Int8:
      return static_cast<int8_t>(static_cast<uint8_t>(static_cast<int64_t>(x) + static_cast<int64_t>(y)));
    case DType::Uint8:
      return static_cast<uint8_t>(static_cast<int64_t>(x) + static_cast<int64_t>(y));
    default:
      contractError(kOp, "A must be float32, float16, int32, uint32, int8 or uint8 (got " +
                             std::string(dtypeName(t)) + ")");
  }
}
}  // namespace

HostTensor add(const HostTensor& a, const HostTensor& b) {
  const DType t = a.dtype();
  sumIn(t, 0, 0);  // rejects a dtype outside T before any work
  requireDType(kOp, "B", b, t);
  const Shape c = broadcastShapes(a.shape(), b.shape());
  const std::vector<int64_t> sa = broadcastStrides(a.shape(), c), sb = broadcastStrides(b.shape(), c);
  const std::vector<double> xa = a.toDoubles(), xb = b.toDoubles();
  const int64_t n = numel(c);
  std::vector<double> out(static_cast<size_t>(n));
  // Walk the output in C order with an odometer over its multi-index, moving both input offsets.
  std::vector<int64_t> idx(c.size(), 0);
  int64_t oa = 0, ob = 0;
  for (int64_t i = 0; i < n; ++i) {
    out[static_cast<size_t>(i)] = sumIn(t, xa[static_cast<size_t>(oa)], xb[static_cast<size_t>(ob)]);
    for (size_t d = c.size(); d-- > 0;) {
      oa += sa[d], ob += sb[d];
      if (++idx[d] < c[d]) break;
      oa -= sa[d] * c[d], ob -= sb[d] * c[d];
      idx[d] = 0;
    }
  }
  return HostTensor::fromDoubles(t, c, out);
}

}  // namespace wgk::reference

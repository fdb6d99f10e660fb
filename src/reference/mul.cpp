#include <cmath>
#include <cstdint>

#include "reference/broadcast.h"
#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

namespace {
constexpr std::string_view kMulOp = "Mul";

// The product in the tensor dtype. float32: the float multiplication itself (IEEE, correctly
// rounded, inf and NaN included). float16: the product of two binary16 values is exact in double
// (22 significant bits), so one rounding to binary16 gives the correctly rounded product.
// Integers: the product modulo 2^32 (computed in 64 bits, exact before the wrap), then wrapped to
// the logical width as two's complement.
double productIn(DType t, double x, double y) {
  switch (t) {
    case DType::Float32:
      return static_cast<double>(static_cast<float>(x) * static_cast<float>(y));
    case DType::Float16:
      return static_cast<double>(halfToFloat(doubleToHalf(x * y)));
    case DType::Int32:
      return static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(x) * static_cast<int64_t>(y)));
    case DType::Uint32:
      return static_cast<uint32_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
    case DType::Int8:
      return static_cast<int8_t>(static_cast<uint8_t>(static_cast<int64_t>(x) * static_cast<int64_t>(y)));
    case DType::Uint8:
      return static_cast<uint8_t>(static_cast<int64_t>(x) * static_cast<int64_t>(y));
    default:
      contractError(kMulOp, "A must be float32, float16, int32, uint32, int8 or uint8 (got " +
                                std::string(dtypeName(t)) + ")");
  }
}
}  // namespace

HostTensor mul(const HostTensor& a, const HostTensor& b) {
  const DType t = a.dtype();
  productIn(t, 0, 0);  // rejects a dtype outside T before any work
  requireDType(kMulOp, "B", b, t);
  const Shape c = broadcastShapes(kMulOp, a.shape(), b.shape());
  const std::vector<double> xa = a.toDoubles(), xb = b.toDoubles();
  std::vector<double> out(static_cast<size_t>(numel(c)));
  walkBroadcast(c, broadcastStrides(a.shape(), c), broadcastStrides(b.shape(), c),
                [&](int64_t i, int64_t oa, int64_t ob) {
                  out[static_cast<size_t>(i)] =
                      productIn(t, xa[static_cast<size_t>(oa)], xb[static_cast<size_t>(ob)]);
                });
  return HostTensor::fromDoubles(t, c, out);
}

}  // namespace wgk::reference

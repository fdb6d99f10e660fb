#include <cstdint>
#include <cstring>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

namespace {
constexpr std::string_view kGatherOp = "Gather";

// indices[j] as an exact int64 (toDoubles would round int64 values beyond 2^53).
int64_t indexAt(const HostTensor& indices, int64_t j) {
  const std::byte* p = indices.bytes().data();
  if (indices.dtype() == DType::Int64) {
    int64_t v;
    std::memcpy(&v, p + 8 * j, sizeof v);
    return v;
  }
  int32_t v;
  std::memcpy(&v, p + 4 * j, sizeof v);
  return v;
}
}  // namespace

HostTensor gather(const HostTensor& data, const HostTensor& indices, int64_t axis) {
  const DType t = data.dtype();
  if (t != DType::Float32 && t != DType::Float16 && t != DType::Int32 && t != DType::Uint32)
    contractError(kGatherOp,
                  "data must be float32, float16, int32 or uint32 (got " + std::string(dtypeName(t)) + ")");
  if (indices.dtype() != DType::Int32 && indices.dtype() != DType::Int64)
    contractError(kGatherOp,
                  "indices must be int32 or int64 (got " + std::string(dtypeName(indices.dtype())) + ")");
  const Shape& s = data.shape();
  const int64_t rank = static_cast<int64_t>(s.size());
  if (rank == 0) contractError(kGatherOp, "data must have rank >= 1 (got a scalar)");
  if (axis < -rank || axis >= rank)
    contractError(kGatherOp, "axis " + std::to_string(axis) + " is out of range for rank " +
                                 std::to_string(rank) + " (allowed [" + std::to_string(-rank) + ", " +
                                 std::to_string(rank - 1) + "])");
  const size_t a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
  const int64_t n = s[a];
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < a; ++d) outer *= s[d];
  for (size_t d = a + 1; d < s.size(); ++d) inner *= s[d];
  Shape y(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(a));
  y.insert(y.end(), indices.shape().begin(), indices.shape().end());
  y.insert(y.end(), s.begin() + static_cast<std::ptrdiff_t>(a) + 1, s.end());
  HostTensor out(t, y);  // zero-filled: out-of-range slices stay zero
  const int64_t count = indices.numel();
  const size_t rowBytes = static_cast<size_t>(inner) * dtypeBytes(t);
  const std::byte* src = data.bytes().data();
  std::byte* dst = out.bytes().data();
  for (int64_t j = 0; j < count; ++j) {
    int64_t k = indexAt(indices, j);
    if (k < -n || k >= n) continue;  // ONNX leaves it undefined (an error); wgk writes zeros
    if (k < 0) k += n;
    for (int64_t o = 0; o < outer; ++o)
      if (rowBytes > 0)
        std::memcpy(dst + static_cast<size_t>(o * count + j) * rowBytes,
                    src + static_cast<size_t>(o * n + k) * rowBytes, rowBytes);
  }
  return out;
}

}  // namespace wgk::reference

#include <cstdint>
#include <cstring>
#include <vector>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

namespace {
constexpr std::string_view kTransposeOp = "Transpose";

std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// perm as ONNX's shape inference accepts it: one entry per dimension, each in [0, rank), none twice.
std::vector<size_t> checkedPerm(const std::vector<int64_t>& perm, const Shape& s) {
  const size_t rank = s.size();
  const auto fail = [&](const std::string& why) {
    contractError(kTransposeOp, "perm " + listText(perm) + " is not a permutation of the " +
                                    std::to_string(rank) + " axes of " + shapeText(s) + ": " + why);
  };
  if (perm.size() != rank) fail("it has " + std::to_string(perm.size()) + " entries");
  std::vector<size_t> out;
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank))
      fail(std::to_string(p) + " is outside [0, " + std::to_string(rank) + ")");
    if (seen[static_cast<size_t>(p)]) fail(std::to_string(p) + " appears twice");
    seen[static_cast<size_t>(p)] = true;
    out.push_back(static_cast<size_t>(p));
  }
  return out;
}
}  // namespace

HostTensor transpose(const HostTensor& x, const std::vector<int64_t>* perm) {
  const Shape& s = x.shape();
  const size_t rank = s.size();
  std::vector<int64_t> reversed;
  for (size_t i = rank; i-- > 0;) reversed.push_back(static_cast<int64_t>(i));
  const std::vector<size_t> p = checkedPerm(perm ? *perm : reversed, s);
  Shape outShape(rank);
  for (size_t i = 0; i < rank; ++i) outShape[i] = s[p[i]];
  HostTensor y(x.dtype(), outShape);
  const int64_t n = y.numel();
  if (n == 0) return y;
  // Input strides (elements) of the output's dimensions; the output is walked in C order with an
  // odometer, so each element costs one increment and an occasional carry.
  std::vector<int64_t> inStride(rank, 1), stride(rank);
  for (size_t d = rank; d-- > 1;) inStride[d - 1] = inStride[d] * s[d];
  for (size_t i = 0; i < rank; ++i) stride[i] = inStride[p[i]];
  const size_t bytes = dtypeBytes(x.dtype());
  const std::byte* src = x.bytes().data();
  std::byte* dst = y.bytes().data();
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t o = 0; o < n; ++o) {
    std::memcpy(dst + static_cast<size_t>(o) * bytes, src + static_cast<size_t>(offset) * bytes, bytes);
    for (size_t d = rank; d-- > 0;) {
      offset += stride[d];
      if (++index[d] < outShape[d]) break;
      offset -= stride[d] * outShape[d];
      index[d] = 0;
    }
  }
  return y;
}

}  // namespace wgk::reference

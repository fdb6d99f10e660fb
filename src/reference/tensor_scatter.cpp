#include <cstdint>
#include <cstring>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

namespace {
constexpr std::string_view kTensorScatterOp = "TensorScatter";

std::string dimText(int64_t v) {
  return std::to_string(v);
}
}  // namespace

HostTensor tensorScatter(const HostTensor& pastCache, const HostTensor& update,
                         const HostTensor* writeIndices, int64_t axis, bool circular) {
  if (update.dtype() != pastCache.dtype())
    contractError(kTensorScatterOp, "update must have past_cache's dtype " +
                                        std::string(dtypeName(pastCache.dtype())) + " (got " +
                                        std::string(dtypeName(update.dtype())) + ")");
  const Shape& c = pastCache.shape();
  const Shape& u = update.shape();
  const int64_t rank = static_cast<int64_t>(c.size());
  if (rank < 2)
    contractError(kTensorScatterOp, "past_cache must have rank >= 2 (got shape " + shapeText(c) + ")");
  if (axis < -rank || axis >= rank)
    contractError(kTensorScatterOp, "axis " + dimText(axis) + " is out of range for rank " + dimText(rank) +
                                        " (allowed [" + dimText(-rank) + ", " + dimText(rank - 1) + "])");
  const size_t a = static_cast<size_t>(axis < 0 ? axis + rank : axis);
  if (a == 0) contractError(kTensorScatterOp, "axis " + dimText(axis) + " is the batch axis 0");
  if (u.size() != c.size())
    contractError(kTensorScatterOp, "update must have past_cache's rank " + dimText(rank) + " (got shape " +
                                        shapeText(u) + ")");
  for (size_t d = 0; d < c.size(); ++d)
    if (d != a && u[d] != c[d])
      contractError(kTensorScatterOp, "update " + shapeText(u) + " must equal past_cache " + shapeText(c) +
                                          " in every dimension but axis " + dimText(static_cast<int64_t>(a)));
  const int64_t maxSeq = c[a], seqLen = u[a];
  if (seqLen > maxSeq)
    contractError(kTensorScatterOp, "update's sequence length " + dimText(seqLen) +
                                        " exceeds max_sequence_length " + dimText(maxSeq));
  const int64_t batch = c[0];
  if (writeIndices) {
    requireDType(kTensorScatterOp, "write_indices", *writeIndices, DType::Int64);
    if (writeIndices->shape() != Shape{batch})
      contractError(kTensorScatterOp, "write_indices must have shape [" + dimText(batch) + "] (got " +
                                          shapeText(writeIndices->shape()) + ")");
  }
  int64_t outer = 1, row = 1;
  for (size_t d = 0; d < a; ++d) outer *= c[d];
  for (size_t d = a + 1; d < c.size(); ++d) row *= c[d];
  const int64_t outerPerBatch = batch ? outer / batch : 0;
  const size_t rowBytes = static_cast<size_t>(row) * dtypeBytes(pastCache.dtype());

  HostTensor present = pastCache;
  std::byte* dst = present.bytes().data();
  const std::byte* src = update.bytes().data();
  for (int64_t o = 0; o < outer; ++o) {
    int64_t w = 0;
    if (writeIndices) std::memcpy(&w, writeIndices->bytes().data() + 8 * (o / outerPerBatch), 8);
    for (int64_t s = 0; s < seqLen; ++s) {
      int64_t p;
      if (circular) {
        p = ((w % maxSeq) + maxSeq) % maxSeq;  // numpy's non-negative remainder
        p = (p + s) % maxSeq;
      } else {
        // ONNX requires write_indices[b] + sequence_length <= max_sequence_length; a position
        // outside [0, max_sequence_length) is not written (as the kernels do: they cannot raise).
        if (w >= maxSeq) break;  // every later position is past the end too (and w + s cannot overflow)
        p = w + s;
        if (p < 0) continue;
        if (p >= maxSeq) break;
      }
      std::memcpy(dst + static_cast<size_t>(o * maxSeq + p) * rowBytes,
                  src + static_cast<size_t>(o * seqLen + s) * rowBytes, rowBytes);
    }
  }
  return present;
}

}  // namespace wgk::reference

// CPU references for the embedded kernels' ops, written from the specification (SPEC.md §6) and
// the shared numeric contract, with exact binary16 rounding. They define the expected outputs that
// `wgk test` compares GPU results with, so they favour accuracy: math in double, one rounding to
// the output dtype, except where the contract fixes an intermediate rounding (f16 sums/products).
// Bad shapes or dtypes throw Error(Contract) naming the tensor and the rule.
//
//   wgk::HostTensor y = wgk::reference::fastGelu(x, &bias);
//   auto [out1, out2] = wgk::reference::gemmaRotaryEmbedding(emb, q, qRot, k, kRot);
//   wgk::HostTensor c = wgk::reference::add(a, b);
//   wgk::HostTensor c = wgk::reference::mul(a, b);
//   wgk::HostTensor i = wgk::reference::argMax(x, /*axis=*/-1, /*keepdims=*/1, /*selectLastIndex=*/0);
//   wgk::HostTensor e = wgk::reference::gather(table, tokenIds, /*axis=*/0);
//   wgk::HostTensor y = wgk::reference::softmax(x, -1);
//   wgk::HostTensor y = wgk::reference::matmul(a, b);
//   wgk::HostTensor c = wgk::reference::tensorScatter(cache, update, &w, /*axis=*/-2, false);
#pragma once

#include <cstdint>
#include <utility>

#include "wgk/tensor.h"

namespace wgk::reference {

// com.microsoft.FastGelu. X float32 or float16 (rank >= 1 when a bias is given); bias same dtype,
// 1-D, length = X's last dim. xb = X + bias rounded to X's dtype (for f16: f16(f32(x) + f32(b)));
// y = 0.5 xb (1 + tanh(0.7978845608 xb + 0.0356774081 xb^3)), evaluated in double in the equivalent
// form xb / (1 + exp(-2 (..))) (no cancellation for negative xb, no overflow for large |xb|), then
// rounded to X's dtype. Finite inputs never give NaN; x = +inf gives +inf, x = -inf and NaN give NaN.
HostTensor fastGelu(const HostTensor& x, const HostTensor* bias);

// ai.onnx.RMSNormalization (opset 23). X: T, scale: V (each float32 or float16); scale broadcasts
// unidirectionally (numpy rules, trailing-aligned) to X; axis in [-rank, rank); stashType 1 or 10;
// epsilon is used as a float32 (ONNX float attribute). Output has X's shape and scale's dtype.
//  stashType 1: per row (dims axis..rank-1): rms = sqrt(mean(x^2) + eps) in double;
//    n = T(x / rms); y = V(f32(n) * f32(scale)) with the product rounded to f32 first.
//  stashType 10 (serial f16): xh = f16(x); acc = f16(acc + f16(xh*xh)) in index order;
//    mean = f16(acc / f16(N)); d = f16(sqrt(f16(mean + f16(eps)))); n = f16(xh / d); y as above.
// A negative (or NaN) epsilon is a contract error.
HostTensor rmsNormalization(const HostTensor& x, const HostTensor& scale, int64_t axis, double epsilon,
                            int64_t stashType);
// stashType 10 with the f16 squares added in the order of the parallel variants stash_f16_rows*
// (words of 8, 256 slots of 8 lane sums, a halving tree: docs/tolerances.md) instead of index
// order; every other operation as above. Tests check those variants against it bit for bit.
HostTensor rmsNormalizationStashF16Tree(const HostTensor& x, const HostTensor& scale, int64_t axis,
                                        double epsilon);

// com.microsoft.GemmaRotaryEmbedding. emb float32 [b, s, d]; q, qRot, k, kRot float16 [b, h, s, d].
// c = f16(cos(emb)), s = f16(sin(emb)) from the float32 angle (cos/sin in double, accurate for any
// angle); out1 = f16(f16(q c) + f16(qRot s)), out2 = f16(f16(k c) + f16(kRot s)).
std::pair<HostTensor, HostTensor> gemmaRotaryEmbedding(const HostTensor& emb, const HostTensor& q,
                                                       const HostTensor& qRot, const HostTensor& k,
                                                       const HostTensor& kRot);

// ai.onnx.Add (opset 14). A and B of one dtype T in float32, float16, int32, uint32, int8, uint8;
// multidirectional (numpy) broadcasting, any rank (0 included), zero-size dimensions (1 against 0
// gives 0). C = A + B in T: float32 correctly rounded (overflow to +-inf, NaN propagates);
// float16 the exact sum rounded once to binary16 (nearest even, so 65504 + 16 gives inf);
// integers wrap to their logical width (127 + 1 = -128 in int8, 255 + 1 = 0 in uint8).
HostTensor add(const HostTensor& a, const HostTensor& b);

// ai.onnx.Mul (opset 14). A and B of one dtype T in float32, float16, int32, uint32, int8, uint8;
// broadcasting as for add. C = A * B in T: float32 correctly rounded (IEEE: overflow to +-inf,
// 0 * inf = NaN, NaN propagates, signed zeros); float16 the exact product rounded once to binary16
// (nearest even, 256 * 256 gives inf); integers wrap to their logical width (16 * 8 = -128 in
// int8, 16 * 16 = 0 in uint8, 65536 * 65536 = 0 in int32).
HostTensor mul(const HostTensor& a, const HostTensor& b);

// ai.onnx.ArgMax (opset 13). X in float32, float16, int32, uint32, int8, uint8, rank >= 1, axis in
// [-rank, rank), keepdims and selectLastIndex 0 or 1, the reduced axis not empty. Output int64: the
// index along axis of the largest element, the axis kept as 1 (keepdims) or dropped. Ties give the
// first index, or the last with selectLastIndex. Order of numpy.argmax (ONNX's reference): NaN is
// above every number, so the first (last) NaN wins; -0 and +0 tie.
HostTensor argMax(const HostTensor& x, int64_t axis, int64_t keepdims, int64_t selectLastIndex);

// ai.onnx.Gather (opset 13). data in float32, float16, int32, uint32, rank >= 1; indices int32 or
// int64, any rank (0 included); axis in [-r, r-1]. Output shape data.shape[:axis] + indices.shape +
// data.shape[axis+1:], output[o, j..., i] = data[o, indices[j...], i], the elements copied as bits.
// A negative index counts from the end (k + data.shape[axis]). An index outside [-s, s-1] (s =
// data.shape[axis]), which ONNX leaves an error, gives a slice of zeros, as the kernels write.
HostTensor gather(const HostTensor& data, const HostTensor& indices, int64_t axis);

// ai.onnx.Softmax (opset 13). X float32 or float16, rank >= 1, axis in [-rank, rank). Along axis:
// y = exp(x - max) / sum(exp(x - max)) in double, rounded once to X's dtype; -inf entries give 0,
// large values never overflow (x - max <= 0). A row with no finite maximum (every entry -inf, a
// fully masked causal row) or with a NaN or +inf entry is all NaN, as ONNX's reference computes.
// Zero-size dimensions give an empty output.
HostTensor softmax(const HostTensor& x, int64_t axis);

// ai.onnx.Transpose (opset 21). x of any dtype and rank (0 included); perm (nullptr: the reversed
// axes) must hold each of 0..rank-1 once, as ONNX's shape inference requires (a negative, repeated
// or missing axis, or a length other than the rank, is Error(Contract)). y.shape[i] =
// x.shape[perm[i]], y[i_0, ..., i_{r-1}] = x at index j with j[perm[k]] = i_k: the elements
// copied as bits.
HostTensor transpose(const HostTensor& x, const std::vector<int64_t>* perm);

// ai.onnx.MatMul (opset 13): numpy.matmul. A and B of one dtype T in float32, float16, int32,
// uint32, rank >= 1. A 1-D A is a row [1, K], a 1-D B a column [K, 1], and that dimension is
// dropped from Y; batch dimensions broadcast multidirectionally (numpy rules, aligned at the
// right). Floats: each product exact in double, the K products summed in double in index order,
// then one rounding to T (so f16 overflows to inf only when the rounded sum does). Integers: the
// sum of products modulo 2^32 (int32 two's complement), the GPU's wrapping arithmetic. K = 0
// gives zeros; a zero-size M, N or batch dimension gives an empty Y.
HostTensor matmul(const HostTensor& a, const HostTensor& b);

// ai.onnx.TensorScatter (opset 24). pastCache of any dtype, rank >= 2; update of its dtype and
// shape but seqLen <= maxSeq along axis (in [-rank, rank), not the batch axis 0); writeIndices
// (nullptr: all zeros) int64 [batch]. The cache with, for each index o over the dims before axis
// (batch b = o's first coordinate) and update position s, the row update[o, s, ...] copied as bits
// to cache position w + s (linear; w = writeIndices[b]) or (w mod maxSeq + s) mod maxSeq (circular,
// non-negative remainder, the sequence coordinate alone: onnx/onnx#8353). Linear positions outside
// [0, maxSeq), which ONNX makes an error, are not written, as the kernels do.
HostTensor tensorScatter(const HostTensor& pastCache, const HostTensor& update,
                         const HostTensor* writeIndices, int64_t axis, bool circular);

}  // namespace wgk::reference

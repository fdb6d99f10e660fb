#include <cstdint>
#include <cstring>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

namespace {
constexpr std::string_view kMatMulOp = "MatMul";

// numpy.matmul's shapes: a 1-D A is [1, K] and a 1-D B is [K, 1] for the product, and the
// prepended/appended 1 is removed from the result; the batch dimensions (all but the last two)
// broadcast multidirectionally, aligned at the right.
struct Geometry {
  Shape batch;           // broadcast batch shape of the output
  Shape aBatch, bBatch;  // each operand's batch dims, left-padded with 1 to batch.size()
  int64_t M = 0, K = 0, N = 0;
  Shape y;  // the output shape
};

Geometry geometry(const Shape& a, const Shape& b) {
  if (a.empty() || b.empty())
    contractError(kMatMulOp,
                  "A and B must have rank >= 1 (got " + shapeText(a) + " and " + shapeText(b) + ")");
  Geometry g;
  const Shape a2 = a.size() == 1 ? Shape{1, a[0]} : a;
  const Shape b2 = b.size() == 1 ? Shape{b[0], 1} : b;
  g.M = a2[a2.size() - 2];
  g.K = a2.back();
  g.N = b2.back();
  if (b2[b2.size() - 2] != g.K)
    contractError(kMatMulOp, "A " + shapeText(a) + " and B " + shapeText(b) + " do not agree on K (" +
                                 std::to_string(g.K) + " vs " + std::to_string(b2[b2.size() - 2]) + ")");
  const Shape ab(a2.begin(), a2.end() - 2), bb(b2.begin(), b2.end() - 2);
  const size_t rank = std::max(ab.size(), bb.size());
  g.batch.resize(rank);
  g.aBatch.assign(rank, 1);
  g.bBatch.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    if (i >= rank - ab.size()) g.aBatch[i] = ab[i - (rank - ab.size())];
    if (i >= rank - bb.size()) g.bBatch[i] = bb[i - (rank - bb.size())];
    const int64_t da = g.aBatch[i], db = g.bBatch[i];
    if (da != db && da != 1 && db != 1)
      contractError(kMatMulOp, "the batch dimensions of A " + shapeText(a) + " and B " + shapeText(b) +
                                   " do not broadcast (" + std::to_string(da) + " vs " + std::to_string(db) +
                                   ")");
    g.batch[i] = da == 1 ? db : da;
  }
  g.y = g.batch;
  if (a.size() > 1) g.y.push_back(g.M);
  if (b.size() > 1) g.y.push_back(g.N);
  return g;
}

// The offset of batch `flat` (C order over g.batch) in an operand with batch dims `own`.
int64_t batchOffset(int64_t flat, const Shape& batch, const Shape& own, int64_t matrixElems) {
  int64_t off = 0, stride = matrixElems;
  for (size_t d = batch.size(); d-- > 0;) {
    const int64_t i = flat % batch[d];
    flat /= batch[d];
    if (own[d] != 1) off += i * stride;
    stride *= own[d];
  }
  return off;
}

// Integers: the exact product sum modulo 2^32, as the GPU's wrapping 32-bit arithmetic computes
// it (signed and unsigned share the bits of a two's-complement multiply-add).
std::vector<uint32_t> wordsOf(const HostTensor& t) {
  std::vector<uint32_t> w(static_cast<size_t>(t.numel()));
  if (!w.empty()) std::memcpy(w.data(), t.bytes().data(), w.size() * sizeof(uint32_t));
  return w;
}
}  // namespace

HostTensor matmul(const HostTensor& a, const HostTensor& b) {
  const DType t = a.dtype();
  if (t != DType::Float32 && t != DType::Float16 && t != DType::Int32 && t != DType::Uint32)
    contractError(kMatMulOp,
                  "A must be float32, float16, int32 or uint32 (got " + std::string(dtypeName(t)) + ")");
  requireDType(kMatMulOp, "B", b, t);
  const Geometry g = geometry(a.shape(), b.shape());
  const int64_t batches = numel(g.batch), M = g.M, K = g.K, N = g.N;
  const int64_t outElems = batches * M * N;
  const bool integer = t == DType::Int32 || t == DType::Uint32;
  std::vector<double> out(static_cast<size_t>(outElems));
  std::vector<uint32_t> words(integer ? static_cast<size_t>(outElems) : 0);
  const std::vector<double> xa = integer ? std::vector<double>{} : a.toDoubles();
  const std::vector<double> xb = integer ? std::vector<double>{} : b.toDoubles();
  const std::vector<uint32_t> wa = integer ? wordsOf(a) : std::vector<uint32_t>{};
  const std::vector<uint32_t> wb = integer ? wordsOf(b) : std::vector<uint32_t>{};
  for (int64_t p = 0; p < batches; ++p) {
    const int64_t oa = batchOffset(p, g.batch, g.aBatch, M * K),
                  ob = batchOffset(p, g.batch, g.bBatch, K * N);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        const size_t o = static_cast<size_t>((p * M + i) * N + j);
        if (integer) {
          uint32_t acc = 0;
          for (int64_t k = 0; k < K; ++k)
            acc += wa[static_cast<size_t>(oa + i * K + k)] * wb[static_cast<size_t>(ob + k * N + j)];
          words[o] = acc;
        } else {
          // Products of two binary16 or binary32 values are exact in double; the sum is rounded
          // in double (53 bits) and then once to T.
          double acc = 0;
          for (int64_t k = 0; k < K; ++k)
            acc += xa[static_cast<size_t>(oa + i * K + k)] * xb[static_cast<size_t>(ob + k * N + j)];
          out[o] = acc;
        }
      }
  }
  if (integer) {
    std::vector<std::byte> bytes(words.size() * sizeof(uint32_t));
    if (!bytes.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
    return HostTensor(t, g.y, std::move(bytes));
  }
  return HostTensor::fromDoubles(t, g.y, out);
}

}  // namespace wgk::reference

#include <cmath>

#include "reference/checks.h"
#include "reference/ops.h"

namespace wgk::reference {
using namespace detail;

std::pair<HostTensor, HostTensor> gemmaRotaryEmbedding(const HostTensor& emb, const HostTensor& q,
                                                       const HostTensor& qRot, const HostTensor& k,
                                                       const HostTensor& kRot) {
  constexpr std::string_view op = "GemmaRotaryEmbedding";
  requireDType(op, "emb", emb, DType::Float32);
  requireRank(op, "emb", emb, 3);
  requireDType(op, "q", q, DType::Float16);
  requireRank(op, "q", q, 4);
  const std::pair<const char*, const HostTensor*> others[] = {{"q_rot", &qRot}, {"k", &k}, {"k_rot", &kRot}};
  for (const auto& [name, t] : others) {
    requireDType(op, name, *t, DType::Float16);
    if (t->shape() != q.shape())
      contractError(op, std::string(name) + " shape " + shapeText(t->shape()) + " must equal q's shape " +
                            shapeText(q.shape()));
  }
  const Shape& qs = q.shape();  // [b, h, s, d]
  const Shape& es = emb.shape();
  if (es[0] != qs[0] || es[1] != qs[2] || es[2] != qs[3])
    contractError(op, "emb shape " + shapeText(es) + " must be [batch, seq_len, dim] = [" +
                          std::to_string(qs[0]) + ", " + std::to_string(qs[2]) + ", " +
                          std::to_string(qs[3]) + "] for q shape " + shapeText(qs));
  const int64_t B = qs[0], H = qs[1], S = qs[2], D = qs[3];

  // cos and sin of each angle, rounded to f16 once; shared by every head.
  const std::vector<double> angles = emb.toDoubles();
  std::vector<float> c(angles.size()), s(angles.size());
  for (size_t i = 0; i < angles.size(); ++i) {
    c[i] = halfToFloat(doubleToHalf(std::cos(angles[i])));
    s[i] = halfToFloat(doubleToHalf(std::sin(angles[i])));
  }
  const std::vector<float> qv = q.toFloats(), qr = qRot.toFloats(), kv = k.toFloats(), kr = kRot.toFloats();
  std::vector<float> o1(qv.size()), o2(qv.size());
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t p = 0; p < S * D; ++p) {
        const size_t i = static_cast<size_t>(((b * H + h) * S) * D + p);
        const size_t e = static_cast<size_t>(b * S * D + p);
        // f16 products and sum: each f32 op on f16 values, rounded to f16, is the exact f16 op.
        o1[i] = f16(f16(qv[i] * c[e]) + f16(qr[i] * s[e]));
        o2[i] = f16(f16(kv[i] * c[e]) + f16(kr[i] * s[e]));
      }
  return {HostTensor::fromFloats(DType::Float16, qs, o1), HostTensor::fromFloats(DType::Float16, qs, o2)};
}

}  // namespace wgk::reference

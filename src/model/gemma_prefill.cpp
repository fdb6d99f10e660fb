// Prompt prefill: a block of T prompt tokens as one batch of calls with T rows, so the weights are
// read once per block by matrix products (not T times by matrix-vector products). The layout
// differs from the decode step where T rows need it: blocks of the fused projections are columns
// of [T, rows] here, taken with Gather along axis 1; rotary runs on [T, heads, 1, hd] (batch T,
// sequence 1) with T positions; keys and values are transposed into the caches' layouts and
// written at the block's start by one TensorScatter each; attention of the block's rows runs
// against the whole cache with a causal mask.
#include <cstring>

#include "model/gemma_impl.h"
#include "wgk/error.h"

namespace wgk {
using namespace model;

namespace {
CallOptions perm(std::vector<int64_t> p) {
  return withAttrs({{"perm", std::move(p)}});
}
}  // namespace

void GemmaImpl::prefillBlock(const std::vector<int64_t>& prompt, int64_t begin, int64_t end) {
  Batch batch = rt->batch();
  BatchRecorder to(batch);
  recordPrefill(to, prompt, begin, end);
  batch.submit();
}

void GemmaImpl::recordPrefill(Recorder& b, const std::vector<int64_t>& prompt, int64_t begin, int64_t end) {
  const int64_t T = end - begin, H = cfg.numHeads, KV = cfg.numKvHeads, hd = cfg.headDim;
  const int64_t G = H / KV;
  const CallOptions rms = rmsOptions();
  const CallOptions axis0 = withAttrs({{"axis", int64_t{0}}}), axis1 = withAttrs({{"axis", int64_t{1}}});
  auto matmul = [&](const TensorRef& a, const TensorRef& w) {
    return b.call(k.matmul, {{"a", a}, {"b", w}}).at("y");
  };
  auto add = [&](const TensorRef& a, const TensorRef& c) {
    return b.call(k.add, {{"a", a}, {"b", c}}).at("c");
  };
  auto gather = [&](const TensorRef& data, const TensorRef& idx, const CallOptions& o) {
    return b.call(k.gather, {{"data", data}, {"indices", idx}}, o).at("output");
  };
  auto transpose = [&](const GpuTensor& t, std::vector<int64_t> p) {
    return b.call(k.transpose, {{"x", t}}, perm(std::move(p))).at("y");
  };

  // Host inputs of the block: its token ids, positions, cache write index and causal mask.
  const HostTensor ids = int64Values(std::vector<int64_t>(prompt.begin() + begin, prompt.begin() + end));
  HostTensor positions(DType::Float32, {T, 1, 1});
  for (int64_t t = 0; t < T; ++t) {
    const float p = static_cast<float>(begin + t);
    std::memcpy(positions.bytes().data() + 4 * t, &p, 4);
  }
  const HostTensor start = int64Values({begin});
  HostTensor causal(dt, {T, maxLen});
  auto* m = reinterpret_cast<uint16_t*>(causal.bytes().data());
  for (int64_t t = 0; t < T; ++t)
    for (int64_t j = 0; j < maxLen; ++j) m[t * maxLen + j] = j <= begin + t ? uint16_t{0} : uint16_t{0xfc00};

  DeviceTensor x = gather(embed, ids, axis0);                                    // [T, D]
  DeviceTensor emb = b.call(k.mul, {{"a", positions}, {"b", invFreq}}).at("c");  // float32 [T, 1, hd]
  for (const Layer& L : layers) {
    DeviceTensor a = b.call(k.rmsNorm, {{"x", x}, {"scale", L.inputNorm}}, rms).at("y");
    DeviceTensor y = matmul(a, L.qkvT);  // [T, qkv.rows]
    auto column = [&](int i) { return gather(y, blockIndex[i], axis1); };
    auto rotate = [&](int plain, int rotated, int64_t heads) {
      const DeviceTensor p = column(plain), q = column(rotated);
      const GpuTensor pv = viewOf(p, 0, {T, heads, 1, hd}), qv = viewOf(q, 0, {T, heads, 1, hd});
      return b.call(k.rotary, {{"embT", emb}, {"qT", pv}, {"qRotT", qv}, {"kT", pv}, {"kRotT", qv}})
          .at("output1T");
    };
    DeviceTensor q = rotate(kQ, kQRot, H), key = rotate(kK, kKRot, KV);
    DeviceTensor keyT = transpose(viewOf(key, 0, {T, KV, hd}), {1, 2, 0});  // [KV, hd, T]
    b.call(k.scatter,
           {{"cache", L.keyT}, {"update", viewOf(keyT, 0, {1, KV, hd, T})}, {"write_indices", start}},
           withAttrs({{"axis", int64_t{-1}}}));
    DeviceTensor v = transpose(viewOf(column(kV), 0, {T, KV, hd}), {1, 0, 2});  // [KV, T, hd]
    b.call(k.scatter,
           {{"cache", L.value}, {"update", viewOf(v, 0, {1, KV, T, hd})}, {"write_indices", start}},
           withAttrs({{"axis", int64_t{-2}}}));
    DeviceTensor qg = transpose(viewOf(q, 0, {T, KV, G, hd}), {1, 2, 0, 3});  // [KV, G, T, hd]
    DeviceTensor scores = matmul(viewOf(qg, 0, {1, KV, G * T, hd}), L.keyT);  // [1, KV, G * T, max]
    DeviceTensor masked = add(viewOf(scores, 0, {KV, G, T, maxLen}), causal);
    DeviceTensor probs = b.call(k.softmax, {{"x", masked}}, withAttrs({{"axis", int64_t{-1}}})).at("y");
    DeviceTensor o = matmul(viewOf(probs, 0, {1, KV, G * T, maxLen}), L.value);  // [1, KV, G * T, hd]
    DeviceTensor rows = transpose(viewOf(o, 0, {H, T, hd}), {1, 0, 2});          // [T, H, hd]
    DeviceTensor x2 = add(x, matmul(viewOf(rows, 0, {T, H * hd}), L.oT));
    DeviceTensor mm = b.call(k.rmsNorm, {{"x", x2}, {"scale", L.postNorm}}, rms).at("y");
    DeviceTensor gu = matmul(mm, L.gateUpT);  // [T, mlp.rows]
    DeviceTensor g = b.call(k.gelu, {{"X", gather(gu, mlpIndex[kGate], axis1)}}).at("Y");
    DeviceTensor h = b.call(k.mul, {{"a", g}, {"b", gather(gu, mlpIndex[kUp], axis1)}}).at("c");
    x = add(x2, matmul(h, L.downT));
  }
  // Only the block's last row predicts a token.
  recordHead(b, gather(x, int64Values({T - 1}), axis0));  // [1, D]
}

}  // namespace wgk

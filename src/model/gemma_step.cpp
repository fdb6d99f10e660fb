// One Gemma decode step as kernel calls, captured once as a graph. Per layer: RMSNorm -> one
// fused q|k|v|q_rot|k_rot GEMV -> two GemmaRotaryEmbedding calls (q heads, k heads) ->
// TensorScatter of k into the transposed key cache and of v into the value cache at the
// position -> scores (MatMul with the key cache) + mask (Add) -> Softmax -> MatMul with the
// value cache -> o_proj GEMV -> residual Add -> RMSNorm -> fused gate|up GEMV -> FastGelu(gate)
// * up (Mul) -> down GEMV -> residual Add. Then the final RMSNorm, the tied lm_head and ArgMax,
// which writes the next token where the next step's embedding Gather reads it.
#include <cstring>
#include <limits>

#include "core/half.h"
#include "model/gemma_impl.h"
#include "wgk/error.h"

namespace wgk {
using namespace model;

CallOptions GemmaImpl::rmsOptions() const {
  return withAttrs({{"epsilon", cfg.rmsNormEps}, {"axis", int64_t{-1}}, {"stash_type", int64_t{1}}});
}

void GemmaImpl::recordHead(Recorder& b, const DeviceTensor& x) {
  DeviceTensor f = b.call(k.rmsNorm, {{"x", x}, {"scale", finalNorm}}, rmsOptions()).at("y");
  CallOptions head;
  head.outputs = {{"y", logits.view()}};
  b.call(k.matmul, {{"a", f}, {"b", embedT}}, head);
  CallOptions pick =
      withAttrs({{"axis", int64_t{-1}}, {"keepdims", int64_t{1}}, {"select_last_index", int64_t{0}}});
  pick.outputs = {{"y", retyped(tokenBuf, DType::Int64, {1, 1})}};
  b.call(k.argmax, {{"x", logits}}, pick);
}

void GemmaImpl::recordDecodeStep(Recorder& b) {
  const int64_t H = cfg.numHeads, KV = cfg.numKvHeads, hd = cfg.headDim;
  const int64_t G = H / KV, F = cfg.intermediateSize;
  const CallOptions rms = rmsOptions();
  const CallOptions axis0 = withAttrs({{"axis", int64_t{0}}});
  const CallOptions lastAxis = withAttrs({{"axis", int64_t{-1}}});
  const CallOptions keyWrite = withAttrs({{"axis", int64_t{-1}}});
  const CallOptions valueWrite = withAttrs({{"axis", int64_t{-2}}});
  auto matmul = [&](const TensorRef& a, const TensorRef& w) {
    return b.call(k.matmul, {{"a", a}, {"b", w}}).at("y");
  };
  auto add = [&](const TensorRef& a, const TensorRef& c) {
    return b.call(k.add, {{"a", a}, {"b", c}}).at("c");
  };

  // The token ArgMax wrote (int64 stored as one int32 word) indexes the embedding rows.
  DeviceTensor x =
      b.call(k.gather, {{"data", embed}, {"indices", retyped(tokenBuf, DType::Int32, {1})}}, axis0)
          .at("output");
  DeviceTensor emb = b.call(k.mul, {{"a", position}, {"b", invFreq}}).at("c");  // float32 [1, 1, hd]
  for (const Layer& L : layers) {
    DeviceTensor a = b.call(k.rmsNorm, {{"x", x}, {"scale", L.inputNorm}}, rms).at("y");
    DeviceTensor y = matmul(a, L.qkvT);  // [1, qkv.rows]
    auto block = [&](int i, int64_t heads) { return viewOf(y, qkv.start[i], {1, heads, 1, hd}); };
    // GemmaRotaryEmbedding rotates a q and a k of one shape: q heads and k heads are two calls.
    auto rotate = [&](int plain, int rotated, int64_t heads) {
      return b
          .call(k.rotary, {{"embT", emb},
                           {"qT", block(plain, heads)},
                           {"qRotT", block(rotated, heads)},
                           {"kT", block(plain, heads)},
                           {"kRotT", block(rotated, heads)}})
          .at("output1T");
    };
    DeviceTensor q = rotate(kQ, kQRot, H);
    DeviceTensor key = rotate(kK, kKRot, KV);
    b.call(k.scatter,
           {{"cache", L.keyT}, {"update", viewOf(key, 0, {1, KV, hd, 1})}, {"write_indices", writeIndex}},
           keyWrite);
    b.call(k.scatter,
           {{"cache", L.value},
            {"update", viewOf(y, qkv.start[kV], {1, KV, 1, hd})},
            {"write_indices", writeIndex}},
           valueWrite);
    // Query head h attends with kv head h / G: q as [1, KV, G, hd] against [1, KV, hd, max].
    DeviceTensor scores = matmul(viewOf(q, 0, {1, KV, G, hd}), L.keyT);
    DeviceTensor probs = b.call(k.softmax, {{"x", add(scores, mask)}}, lastAxis).at("y");
    DeviceTensor attn = matmul(probs, L.value);  // [1, KV, G, hd] = [1, H * hd]
    DeviceTensor x2 = add(x, matmul(viewOf(attn, 0, {1, H * hd}), L.oT));
    DeviceTensor m = b.call(k.rmsNorm, {{"x", x2}, {"scale", L.postNorm}}, rms).at("y");
    DeviceTensor gu = matmul(m, L.gateUpT);  // [1, mlp.rows]
    DeviceTensor g = b.call(k.gelu, {{"X", viewOf(gu, mlp.start[kGate], {1, F})}}).at("Y");
    DeviceTensor h = b.call(k.mul, {{"a", g}, {"b", viewOf(gu, mlp.start[kUp], {1, F})}}).at("c");
    x = add(x2, matmul(h, L.downT));
  }
  recordHead(b, x);
  // The picked token also goes to the history at the position, so that several steps can run
  // before the host reads their tokens back (GenerateOptions::readbackEvery).
  b.call(k.scatter,
         {{"cache", history},
          {"update", retyped(tokenBuf, DType::Int32, {1, 1})},
          {"write_indices", writeIndex}},
         lastAxis);
}

void GemmaImpl::buildDecode() {
  Runtime& r = *rt;
  tokenBuf = r.allocate(DType::Int64, {1});
  r.write(tokenBuf, HostTensor(DType::Int64, {1}));
  position = r.allocate(DType::Float32, {1, 1, 1});
  writeIndex = r.allocate(DType::Int64, {1});
  mask = r.allocate(dt, {1, 1, 1, maxLen});
  logits = r.allocate(dt, {1, cfg.vocabSize});
  history = r.allocate(DType::Int32, {1, maxLen});
  maskHost = HostTensor(dt, {1, 1, 1, maxLen});
  writeStepInputs(0);
  if (opt.captureGraph) {
    graph = withContext("while capturing the decode step", [&] {
      return r.capture([&](Batch& b) {
        BatchRecorder to(b);
        recordDecodeStep(to);
      });
    });
    stepCalls = graph.calls();
    stepDispatches = graph.dispatches();
  } else {
    Batch b = r.batch();
    BatchRecorder to(b);
    recordDecodeStep(to);
    stepCalls = b.size();
    stepDispatches = 0;  // known only to a graph
  }
}

void GemmaImpl::writeStepInputs(int64_t pos) {
  Runtime& r = *rt;
  HostTensor p(DType::Float32, {1, 1, 1});
  const float pf = static_cast<float>(pos);
  std::memcpy(p.bytes().data(), &pf, 4);
  r.write(position, p);
  HostTensor w(DType::Int64, {1});
  std::memcpy(w.bytes().data(), &pos, 8);
  r.write(writeIndex, w);
  auto* m = reinterpret_cast<uint16_t*>(maskHost.bytes().data());
  for (int64_t j = 0; j < maxLen; ++j) m[j] = j <= pos ? uint16_t{0} : uint16_t{0xfc00};  // -inf
  r.write(mask, maskHost);
}

void GemmaImpl::runDecodeStep() {
  if (graph) {
    graph.replay();
    return;
  }
  Batch b = rt->batch();
  BatchRecorder to(b);
  recordDecodeStep(to);
  b.submit();
}

void GemmaImpl::writeToken(int64_t token) {
  HostTensor t(DType::Int32, {1});
  const int32_t v = static_cast<int32_t>(token);
  std::memcpy(t.bytes().data(), &v, 4);
  rt->write(retyped(tokenBuf, DType::Int32, {1}), t);
}

int64_t GemmaImpl::readToken() {
  const HostTensor t = rt->download(retyped(tokenBuf, DType::Int32, {1}));
  int32_t v;
  std::memcpy(&v, t.bytes().data(), 4);
  return v;
}

std::vector<int64_t> GemmaImpl::readHistory(int64_t first, int64_t n) {
  // Only the group's entries: whole int32 words, so any element offset is a valid copy.
  const HostTensor t = rt->download(viewOf(history, first, {1, n}));
  const auto* v = reinterpret_cast<const int32_t*>(t.bytes().data());
  return std::vector<int64_t>(v, v + n);
}

std::vector<float> GemmaImpl::readLogits() {
  return rt->download(logits).toFloats();
}

}  // namespace wgk

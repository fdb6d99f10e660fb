// Loading a Gemma checkpoint onto the GPU. Every transformation of the weights is a kernel call:
// the embedding scale (Mul), 1 + norm weight (Add), the attention scale folded into q_proj (Mul,
// exact for the power-of-two head dims of Gemma), the half-rotated q/k projections (Gather of the
// halves, Mul by the sign), the fused blocks (calls writing into views) and [out, in] -> [in, out]
// (Transpose). The host only reads files and narrows bfloat16/float32 to float16.
#include <cmath>
#include <cstring>

#include "core/half.h"
#include "model/gemma_checkpoint.h"
#include "model/gemma_impl.h"
#include "wgk/error.h"

namespace wgk {
namespace model {

Kernels Kernels::load(Runtime& rt) {
  auto get = [&](const char* op) { return rt.load(std::string("webgpu-kernels/") + op); };
  Kernels k;
  k.gather = get("ai.onnx.Gather");
  k.mul = get("ai.onnx.Mul");
  k.add = get("ai.onnx.Add");
  k.transpose = get("ai.onnx.Transpose");
  k.matmul = get("ai.onnx.MatMul");
  k.rmsNorm = get("ai.onnx.RMSNormalization");
  k.rotary = get("com.microsoft.GemmaRotaryEmbedding");
  k.scatter = get("ai.onnx.TensorScatter");
  k.softmax = get("ai.onnx.Softmax");
  k.gelu = get("com.microsoft.FastGelu");
  k.argmax = get("ai.onnx.ArgMax");
  return k;
}

int64_t Blocks::add(int64_t n, int64_t alignRows) {
  const int64_t at = (rows + alignRows - 1) / alignRows * alignRows;
  start.push_back(at);
  size.push_back(n);
  rows = at + n;
  return static_cast<int64_t>(start.size()) - 1;
}

bool Blocks::padded() const {
  int64_t end = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    if (start[i] != end) return true;
    end = start[i] + size[i];
  }
  return false;
}

GpuTensor viewOf(const DeviceTensor& t, int64_t elementOffset, Shape shape) {
  GpuTensor g = t.view();
  g.offset += static_cast<uint64_t>(elementOffset) * dtypeBytes(g.dtype);
  g.shape = std::move(shape);
  return g;
}

GpuTensor retyped(const DeviceTensor& t, DType dtype, Shape shape) {
  GpuTensor g = t.view();
  g.dtype = dtype;
  g.shape = std::move(shape);
  return g;
}

CallOptions withAttrs(std::map<std::string, Attribute> attrs) {
  CallOptions o;
  o.attrs = std::move(attrs);
  return o;
}

HostTensor scalarF16(double v, Shape shape = {1}) {
  HostTensor t(DType::Float16, std::move(shape));
  const uint16_t h = doubleToHalf(v);
  for (int64_t i = 0; i < t.numel(); ++i) std::memcpy(t.bytes().data() + 2 * i, &h, 2);
  return t;
}

HostTensor int64Values(const std::vector<int64_t>& v) {
  HostTensor t(DType::Int64, {static_cast<int64_t>(v.size())});
  std::memcpy(t.bytes().data(), v.data(), v.size() * 8);
  return t;
}

}  // namespace model

using namespace model;

namespace {

CallOptions into(const char* port, const GpuTensor& view) {
  CallOptions o;
  o.placement = OutputPlacement::Device;
  o.outputs = {{port, view}};
  return o;
}
CallOptions onDevice() {
  CallOptions o;
  o.placement = OutputPlacement::Device;
  return o;
}

// A weight read as float16 and uploaded.
DeviceTensor weight(Runtime& rt, const Checkpoint& ck, const std::string& name, const Shape& shape) {
  return withContext("while loading '" + name + "'", [&] { return rt.upload(ck.readFloat16(name, shape)); });
}

// [rows, cols] -> [cols, rows]
DeviceTensor transposed(Kernels& k, const DeviceTensor& w) {
  CallOptions o = onDevice();
  o.attrs = {{"perm", std::vector<int64_t>{1, 0}}};
  return k.transpose.call({{"x", w}}, o).device.at("y");
}

// 1 + weight (Gemma's RMSNorm scale).
DeviceTensor onePlus(Kernels& k, const DeviceTensor& w) {
  return k.add.call({{"a", w}, {"b", scalarF16(1.0)}}, onDevice()).device.at("c");
}

}  // namespace

void GemmaImpl::loadWeights(const std::string& modelDir) {
  const Checkpoint ck =
      withContext("while opening the checkpoint in " + modelDir, [&] { return Checkpoint::open(modelDir); });
  const int64_t D = cfg.hiddenSize, V = cfg.vocabSize, F = cfg.intermediateSize;
  const int64_t H = cfg.numHeads, KV = cfg.numKvHeads, hd = cfg.headDim;
  // Every tensor the model needs, checked before the first upload (a 5 GB model fails in
  // milliseconds, not after minutes of loading).
  ck.check("model.embed_tokens.weight", {V, D});
  ck.check("model.norm.weight", {D});
  if (ck.has("lm_head.weight")) ck.check("lm_head.weight", {V, D});
  for (int64_t l = 0; l < cfg.numLayers; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".";
    for (const char* n : {"input_layernorm.weight", "post_attention_layernorm.weight"}) ck.check(p + n, {D});
    ck.check(p + "self_attn.q_proj.weight", {H * hd, D});
    ck.check(p + "self_attn.k_proj.weight", {KV * hd, D});
    ck.check(p + "self_attn.v_proj.weight", {KV * hd, D});
    ck.check(p + "self_attn.o_proj.weight", {D, H * hd});
    ck.check(p + "mlp.gate_proj.weight", {F, D});
    ck.check(p + "mlp.up_proj.weight", {F, D});
    ck.check(p + "mlp.down_proj.weight", {D, F});
  }
  if (ck.has("model.embed_tokens.weight")) {
    const std::string& s = ck.storedDtype("model.embed_tokens.weight");
    cfg.weightDtype = s == "F16" ? "float16" : s == "BF16" ? "bfloat16" : s == "F32" ? "float32" : s;
  }
  Runtime& r = *rt;
  const uint64_t align = r.device().limits.count("minStorageBufferOffsetAlignment")
                             ? r.device().limits.at("minStorageBufferOffsetAlignment")
                             : 256;
  const int64_t alignRows =
      static_cast<int64_t>(std::max<uint64_t>(align / 2, 1));  // float16 rows of a [1, n] output
  qkv = Blocks{};
  for (int64_t n : {H * hd, KV * hd, KV * hd, H * hd, KV * hd}) qkv.add(n, alignRows);
  mlp = Blocks{};
  mlp.add(F, alignRows);
  mlp.add(F, alignRows);

  // Embedding: scaled copy for the lookup (Hugging Face multiplies by sqrt(hidden) rounded to the
  // model dtype), and its transpose for the tied lm_head.
  {
    DeviceTensor e = weight(r, ck, "model.embed_tokens.weight", {V, D});
    embed = k.mul.call({{"a", e}, {"b", scalarF16(std::sqrt(static_cast<double>(D)))}}, onDevice())
                .device.at("c");
    DeviceTensor head = ck.has("lm_head.weight") ? weight(r, ck, "lm_head.weight", {V, D}) : e;
    embedT = transposed(k, head);
  }
  finalNorm = onePlus(k, weight(r, ck, "model.norm.weight", {D}));

  const double qScale = 1.0 / std::sqrt(static_cast<double>(hd));
  const HostTensor halfSwap = int64Values({1, 0});
  layers.clear();
  for (int64_t l = 0; l < cfg.numLayers; ++l) {
    withContext("while preparing layer " + std::to_string(l), [&] {
      const std::string p = "model.layers." + std::to_string(l) + ".";
      Layer L;
      L.inputNorm = onePlus(k, weight(r, ck, p + "input_layernorm.weight", {D}));
      L.postNorm = onePlus(k, weight(r, ck, p + "post_attention_layernorm.weight", {D}));
      // Fused q | k | v | q_rot | k_rot rows, then one transpose.
      DeviceTensor fused = r.allocate(dt, {qkv.rows, D});
      if (qkv.padded()) r.write(fused, HostTensor(dt, {qkv.rows, D}));  // padding rows are zero
      auto block = [&](int b, const Shape& shape) { return viewOf(fused, qkv.start[b] * D, shape); };
      auto project = [&](const DeviceTensor& w, int64_t heads, double scale, int plain, int rotated) {
        k.mul.call({{"a", w}, {"b", scalarF16(scale)}}, into("c", block(plain, {heads * hd, D})));
        // rotate_half(x) = concat(-x2, x1): rows of the second half, negated, then the first.
        const GpuTensor halves = viewOf(w, 0, {heads, 2, hd / 2, D});
        CallOptions g = onDevice();
        g.attrs = {{"axis", int64_t{1}}};
        DeviceTensor swapped =
            k.gather.call({{"data", halves}, {"indices", halfSwap}}, g).device.at("output");
        HostTensor sign(dt, {1, 2, 1, 1});
        const uint16_t neg = doubleToHalf(-scale), pos = doubleToHalf(scale);
        std::memcpy(sign.bytes().data(), &neg, 2);
        std::memcpy(sign.bytes().data() + 2, &pos, 2);
        k.mul.call({{"a", swapped}, {"b", sign}}, into("c", block(rotated, {heads, 2, hd / 2, D})));
      };
      project(weight(r, ck, p + "self_attn.q_proj.weight", {H * hd, D}), H, qScale, kQ, kQRot);
      project(weight(r, ck, p + "self_attn.k_proj.weight", {KV * hd, D}), KV, 1.0, kK, kKRot);
      k.mul.call({{"a", weight(r, ck, p + "self_attn.v_proj.weight", {KV * hd, D})}, {"b", scalarF16(1.0)}},
                 into("c", block(kV, {KV * hd, D})));
      L.qkvT = transposed(k, fused);
      L.oT = transposed(k, weight(r, ck, p + "self_attn.o_proj.weight", {D, H * hd}));
      DeviceTensor gu = r.allocate(dt, {mlp.rows, D});
      if (mlp.padded()) r.write(gu, HostTensor(dt, {mlp.rows, D}));
      k.mul.call({{"a", weight(r, ck, p + "mlp.gate_proj.weight", {F, D})}, {"b", scalarF16(1.0)}},
                 into("c", viewOf(gu, mlp.start[kGate] * D, {F, D})));
      k.mul.call({{"a", weight(r, ck, p + "mlp.up_proj.weight", {F, D})}, {"b", scalarF16(1.0)}},
                 into("c", viewOf(gu, mlp.start[kUp] * D, {F, D})));
      L.gateUpT = transposed(k, gu);
      L.downT = transposed(k, weight(r, ck, p + "mlp.down_proj.weight", {D, F}));
      L.keyT = r.allocate(dt, {1, KV, hd, maxLen});
      L.value = r.allocate(dt, {1, KV, maxLen, hd});
      r.write(L.keyT, HostTensor(dt, {1, KV, hd, maxLen}));  // finite: masked positions multiply by 0
      r.write(L.value, HostTensor(dt, {1, KV, maxLen, hd}));
      layers.push_back(std::move(L));
      r.waitIdle();  // bounds the memory the uploads and temporaries hold
    });
  }
  // What one decode step streams: every layer's matrices, the lm_head, one embedding row.
  const uint64_t perLayer = static_cast<uint64_t>(D) * (qkv.rows + mlp.rows) +
                            static_cast<uint64_t>(H * hd) * D + static_cast<uint64_t>(F) * D;
  weightBytes = 2 * (perLayer * cfg.numLayers + static_cast<uint64_t>(V) * D + D);

  // RoPE frequencies, float32 as Hugging Face computes them: 1 / theta^(2i / head_dim), twice.
  HostTensor inv(DType::Float32, {1, 1, hd});
  auto* f = reinterpret_cast<float*>(inv.bytes().data());
  for (int64_t i = 0; i < hd / 2; ++i) {
    const float e = static_cast<float>(2 * i) / static_cast<float>(hd);
    f[i] = f[i + hd / 2] = 1.0f / std::pow(static_cast<float>(cfg.ropeTheta), e);
  }
  invFreq = r.upload(inv);
  for (int b = 0; b < 5; ++b) {
    std::vector<int64_t> idx(qkv.size[b]);
    for (int64_t i = 0; i < qkv.size[b]; ++i) idx[i] = qkv.start[b] + i;
    blockIndex[b] = r.upload(int64Values(idx));
  }
  for (int b = 0; b < 2; ++b) {
    std::vector<int64_t> idx(mlp.size[b]);
    for (int64_t i = 0; i < mlp.size[b]; ++i) idx[i] = mlp.start[b] + i;
    mlpIndex[b] = r.upload(int64Values(idx));
  }
}

}  // namespace wgk

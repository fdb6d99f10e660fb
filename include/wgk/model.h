// wgk/model.h — a Gemma decoder on wgk's kernels: load a Hugging Face checkpoint, generate greedy
// token ids. No tokenizer: token ids in, token ids out.
//
//   auto rt = wgk::Runtime::create();
//   wgk::Gemma model = wgk::Gemma::load(rt, "path/to/gemma-2b");   // config.json + *.safetensors
//   wgk::GenerateResult r = model.generate({2, 651, 6037}, {.maxNew = 16});
//   for (int64_t t : r.tokens) std::printf("%lld ", (long long)t);  // the 16 new token ids
//   // r.tokenMs[i]: wall time of decode step i; r.prefillMs: the prompt.
//
// What it runs: Hugging Face's GemmaForCausalLM ("model_type": "gemma") as stored on the Hub:
// config.json plus model.safetensors, or shards named by model.safetensors.index.json; weights
// in float16, bfloat16 or float32. Every computation is a kernel call of a package in
// packages/webgpu-kernels (Gather, Mul, Add, Transpose, MatMul, RMSNormalization,
// GemmaRotaryEmbedding, TensorScatter, Softmax, FastGelu, ArgMax); the model code only plans
// buffers and calls. Activations and the KV cache are float16 (GemmaRotaryEmbedding is a float16
// kernel): bfloat16 and float32 weights are rounded to float16 once when they are loaded, and a
// bfloat16 weight outside float16's range is an error naming the tensor.
//
// Shapes stay fixed per token: the KV cache is a static buffer of GemmaOptions::maxLength
// positions on the GPU, written in place by TensorScatter, attention masked to the current
// position, so one decode step is captured once as a wgk::Graph and replayed for every token.
// The prompt is prefilled in blocks of up to GemmaOptions::prefillBlock tokens, each block one
// batch of calls with M = block rows (matrix products, not matrix-vector products).
//
// Errors: a model folder that is not a Gemma checkpoint wgk can run (missing or malformed
// config.json, a value out of range, a missing tensor, a wrong shape or dtype, a truncated file)
// throws wgk::Error(InvalidArgument / NotFound / Io) naming the file and the tensor; the
// runtime stays usable.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wgk/export.h"
#include "wgk/runtime.h"

namespace wgk {

// The architecture as config.json states it (what wgk read, after checks).
struct GemmaConfig {
  int64_t vocabSize = 0, hiddenSize = 0, intermediateSize = 0, numLayers = 0;
  int64_t numHeads = 0, numKvHeads = 0, headDim = 0, maxPositionEmbeddings = 0;
  double rmsNormEps = 1e-6, ropeTheta = 10000.0;
  std::string weightDtype;  // as stored: "float16", "bfloat16" or "float32"
};

struct GemmaOptions {
  // KV-cache positions (prompt + generated tokens); 0: min(max_position_embeddings, 4096).
  int64_t maxLength = 0;
  // Prompt tokens per prefill block (a batch of matrix products); 0: 128. 1 feeds the prompt
  // token by token through the decode graph.
  int64_t prefillBlock = 0;
  // Replay one captured graph per token (true) or record the step as a fresh batch each token.
  bool captureGraph = true;
};

struct GenerateOptions {
  int64_t maxNew = 32;              // new tokens to produce
  std::vector<int64_t> stopTokens;  // stop after producing one of these (it is returned)
  bool returnLogits = false;        // fill GenerateResult::logits (a readback per step)
  // Decode steps submitted between two readbacks of the picked tokens: the GPU runs up to this
  // many steps ahead of the host, so encoding a step overlaps the GPU running the one before.
  // A stop token is noticed at the readback (the steps after it in the same group are dropped:
  // their tokens are never returned). 1 reads back every step; returnLogits implies 1.
  int64_t readbackEvery = 8;
  // Called after each new token (step from 0, the token, that step's wall time in ms), in order,
  // when its readback group arrives.
  std::function<void(int64_t step, int64_t token, double ms)> onToken;
};

struct GenerateResult {
  std::vector<int64_t> tokens;  // the new tokens (the prompt is not repeated)
  // float32 [tokens.size(), vocab] when asked: row i is the distribution token i was picked from
  // (row 0 follows the prompt; row i follows new token i - 1).
  HostTensor logits;
  double prefillMs = 0;  // the prompt: from its first call to the first new token
  // Per new token after the first: wall time of one decode step (the mean over its readback
  // group: GenerateOptions::readbackEvery).
  std::vector<double> tokenMs;
};

// One kernel call of a profile: its package, the variant that ran, and its GPU time.
struct ProfiledCall {
  std::string op;       // "ai.onnx.MatMul"
  std::string variant;  // the variant that ran
  double gpuUs = 0;     // timestamp-query time of its passes (-1 where the device has none)
};

// Gemma::profile: every call of one decode step and of one prefill block, each run alone.
struct GemmaProfile {
  std::vector<ProfiledCall> decodeStep;    // in call order
  std::vector<ProfiledCall> prefillBlock;  // the prompt's first block (up to prefillBlock rows)
};

class GemmaImpl;

class WGK_API Gemma {
 public:
  Gemma() = default;
  // Reads and checks the folder, loads the kernels, uploads and prepares the weights, captures
  // the decode graph.
  static Gemma load(std::shared_ptr<Runtime> runtime, const std::string& modelDir,
                    const GemmaOptions& options = {});

  // Greedy decoding from the prompt's token ids (each in [0, vocab)); the cache starts empty on
  // every call. prompt.size() + maxNew - 1 must fit GemmaOptions::maxLength.
  GenerateResult generate(const std::vector<int64_t>& prompt, const GenerateOptions& options = {});

  // Where the GPU time goes: the prompt's first prefill block, then one decode step, as single
  // calls with timestamps (each waits; the sum leaves out the gaps between dispatches that a
  // replay pays). Overwrites cache entries, like a generation does.
  //   for (const auto& c : model.profile(prompt).decodeStep) std::cout << c.op << " " << c.gpuUs;
  GemmaProfile profile(const std::vector<int64_t>& prompt);

  const GemmaConfig& config() const;
  int64_t maxLength() const;
  uint64_t weightBytes() const;     // bytes of weights one decode step reads
  size_t decodeCalls() const;       // kernel calls per decode step
  size_t decodeDispatches() const;  // compute dispatches per decode step (graph replay)
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  std::shared_ptr<GemmaImpl> impl_;
};

}  // namespace wgk

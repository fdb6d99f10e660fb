// Internals of wgk::Gemma (include/wgk/model.h): the kernels, the prepared weights, the static
// per-token buffers and the captured decode graph.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "wgk/batch.h"
#include "wgk/model.h"

namespace wgk {

namespace model {

// The kernels a Gemma step calls: every computation of the model is one of these.
struct Kernels {
  Kernel gather, mul, add, transpose, matmul, rmsNorm, rotary, scatter, softmax, gelu, argmax;
  static Kernels load(Runtime& rt);
};

// Row blocks of a fused projection weight W [rows, in] (Hugging Face's [out, in] blocks stacked,
// each starting at a row whose byte offset in a [1, rows] output is a multiple of the storage
// offset alignment, so each block of the product is a bindable view).
struct Blocks {
  std::vector<int64_t> start, size;
  int64_t rows = 0;
  int64_t add(int64_t n, int64_t alignRows);  // returns the block's index
  bool padded() const;                        // rows between blocks exist (they must be zero)
};

struct Layer {
  DeviceTensor inputNorm, postNorm;  // 1 + weight, [hidden]
  DeviceTensor qkvT;                 // [hidden, qkv.rows]: blocks q, k, v, q_rot, k_rot
  DeviceTensor oT;                   // [heads * head_dim, hidden]
  DeviceTensor gateUpT;              // [hidden, mlp.rows]: blocks gate, up
  DeviceTensor downT;                // [intermediate, hidden]
  DeviceTensor keyT, value;          // caches [1, kv, head_dim, max] and [1, kv, max, head_dim]
};
enum QkvBlock { kQ = 0, kK, kV, kQRot, kKRot };
enum MlpBlock { kGate = 0, kUp };

// Where the decode step and the prefill send their kernel calls: a Batch (or a graph capture) in
// normal use, single timed calls for a profile (GemmaImpl::profile).
class Recorder {
 public:
  virtual ~Recorder() = default;
  virtual std::map<std::string, DeviceTensor> call(const Kernel& kernel,
                                                   const std::map<std::string, TensorRef>& inputs,
                                                   const CallOptions& options = {}) = 0;
};

class BatchRecorder final : public Recorder {
 public:
  explicit BatchRecorder(Batch& b) : b_(b) {}
  std::map<std::string, DeviceTensor> call(const Kernel& kernel,
                                           const std::map<std::string, TensorRef>& inputs,
                                           const CallOptions& options = {}) override {
    return b_.call(kernel, inputs, options);
  }

 private:
  Batch& b_;
};

// Shared by the load, decode and prefill code (gemma_weights.cpp).
GpuTensor viewOf(const DeviceTensor& t, int64_t elementOffset, Shape shape);  // elements, not bytes
GpuTensor retyped(const DeviceTensor& t, DType dtype, Shape shape);           // same bytes, another view
HostTensor int64Values(const std::vector<int64_t>& v);
CallOptions withAttrs(std::map<std::string, Attribute> attrs);

}  // namespace model

class GemmaImpl {
 public:
  GemmaImpl(std::shared_ptr<Runtime> rt, GemmaConfig config, const GemmaOptions& options);
  void loadWeights(const std::string& modelDir);  // gemma_weights.cpp
  void buildDecode();                             // gemma_step.cpp: buffers + graph
  GenerateResult generate(const std::vector<int64_t>& prompt, const GenerateOptions& options);
  void checkPrompt(const std::vector<int64_t>& prompt) const;  // non-empty, ids in the vocabulary

  // One decode step for the token in tokenBuf at position `pos` (the per-token inputs are written
  // before): recorded into `b` (a graph capture, a batch or a profile).
  void recordDecodeStep(model::Recorder& b);
  // The model's tail on one hidden row `x` [1, hidden]: final RMSNorm, tied lm_head into `logits`,
  // ArgMax into tokenBuf (the next step's embedding index).
  void recordHead(model::Recorder& b, const DeviceTensor& x);
  CallOptions rmsOptions() const;
  // Sets position, write index and mask for a decode step at `pos`.
  void writeStepInputs(int64_t pos);
  // Prefill of prompt[begin, end) at positions begin..end-1 (gemma_prefill.cpp): one batch; its
  // last row's greedy token lands in tokenBuf and its logits in `logits`.
  void prefillBlock(const std::vector<int64_t>& prompt, int64_t begin, int64_t end);
  void recordPrefill(model::Recorder& b, const std::vector<int64_t>& prompt, int64_t begin, int64_t end);
  // One decode step at `pos` and one prefill block of `prompt`, each call run alone with GPU
  // timestamps (gemma_profile.cpp). Overwrites cache entries: run between generations.
  GemmaProfile profile(const std::vector<int64_t>& prompt);
  void runDecodeStep();
  void writeToken(int64_t token);  // into tokenBuf, for prompt tokens
  int64_t readToken();             // waits for the queue
  // The tokens the decode steps at positions [first, first + n) picked (waits for the queue).
  std::vector<int64_t> readHistory(int64_t first, int64_t n);
  std::vector<float> readLogits();

  std::shared_ptr<Runtime> rt;
  GemmaConfig cfg;
  GemmaOptions opt;
  int64_t maxLen = 0, block = 128;
  DType dt = DType::Float16;
  uint64_t weightBytes = 0;
  model::Kernels k;
  model::Blocks qkv, mlp;
  std::vector<model::Layer> layers;
  DeviceTensor embed;          // [vocab, hidden], scaled by sqrt(hidden) (the embedding scale)
  DeviceTensor embedT;         // [hidden, vocab]: the tied lm_head
  DeviceTensor finalNorm;      // 1 + weight
  DeviceTensor invFreq;        // float32 [1, 1, head_dim]: concat(inv_freq, inv_freq)
  DeviceTensor blockIndex[5];  // int64 column indices of the qkv blocks (prefill's Gather)
  DeviceTensor mlpIndex[2];
  // Per-token inputs of the decode graph (written before each replay) and its token feedback.
  DeviceTensor tokenBuf;    // int64 [1]; ArgMax writes the next token here, Gather reads it
  DeviceTensor position;    // float32 [1, 1, 1]
  DeviceTensor writeIndex;  // int64 [1]
  DeviceTensor mask;        // float16 [1, 1, 1, max]: 0 up to the position, -inf after
  DeviceTensor logits;      // float16 [1, vocab] of the latest step
  DeviceTensor history;     // int32 [1, max]: the token the decode step at position p picked, at p
  HostTensor maskHost;
  Graph graph;
  size_t stepCalls = 0, stepDispatches = 0;
};

}  // namespace wgk

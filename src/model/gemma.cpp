// wgk::Gemma (include/wgk/model.h): loading, and greedy generation on the prefill batches and the
// replayed decode graph.
#include <algorithm>
#include <chrono>

#include "model/gemma_config.h"
#include "model/gemma_impl.h"
#include "wgk/error.h"

namespace wgk {

GemmaImpl::GemmaImpl(std::shared_ptr<Runtime> runtime, GemmaConfig config, const GemmaOptions& options)
    : rt(std::move(runtime)), cfg(std::move(config)), opt(options) {
  if (opt.maxLength < 0) throw Error(ErrorCode::InvalidArgument, "maxLength must not be negative");
  if (opt.prefillBlock < 0) throw Error(ErrorCode::InvalidArgument, "prefillBlock must not be negative");
  maxLen = opt.maxLength ? opt.maxLength : std::min<int64_t>(cfg.maxPositionEmbeddings, 4096);
  if (maxLen > cfg.maxPositionEmbeddings)
    throw Error(ErrorCode::InvalidArgument, "maxLength " + std::to_string(maxLen) +
                                                " exceeds the model's max_position_embeddings (" +
                                                std::to_string(cfg.maxPositionEmbeddings) + ")");
  // The mask is written whole per token, in 4-byte words: an even number of float16 positions.
  maxLen += maxLen % 2;
  block = opt.prefillBlock ? opt.prefillBlock : 128;
  k = model::Kernels::load(*rt);
}

void GemmaImpl::checkPrompt(const std::vector<int64_t>& prompt) const {
  if (prompt.empty())
    throw Error(ErrorCode::InvalidArgument, "the prompt is empty: give at least one token id");
  for (size_t i = 0; i < prompt.size(); ++i)
    if (prompt[i] < 0 || prompt[i] >= cfg.vocabSize)
      throw Error(ErrorCode::InvalidArgument,
                  "prompt token " + std::to_string(i) + " is " + std::to_string(prompt[i]) +
                      ", outside the vocabulary [0, " + std::to_string(cfg.vocabSize) + ")");
}

GenerateResult GemmaImpl::generate(const std::vector<int64_t>& prompt, const GenerateOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  checkPrompt(prompt);
  if (o.maxNew < 0) throw Error(ErrorCode::InvalidArgument, "maxNew must not be negative");
  if (o.readbackEvery < 1)
    throw Error(ErrorCode::InvalidArgument,
                "readbackEvery is " + std::to_string(o.readbackEvery) + ": it must be at least 1");
  const int64_t P = static_cast<int64_t>(prompt.size());
  if (P + std::max<int64_t>(o.maxNew, 1) - 1 > maxLen)
    throw Error(ErrorCode::InvalidArgument,
                "the prompt (" + std::to_string(P) + " tokens) plus " + std::to_string(o.maxNew) +
                    " new tokens needs " + std::to_string(P + o.maxNew - 1) +
                    " cache positions; the cache holds " + std::to_string(maxLen) +
                    " (GemmaOptions::maxLength, --max-length)");
  GenerateResult res;
  if (o.maxNew == 0) return res;
  if (o.returnLogits) res.logits = HostTensor(DType::Float32, {o.maxNew, cfg.vocabSize});
  int64_t row = 0;
  auto keepLogits = [&] {
    if (!o.returnLogits) return;
    const std::vector<float> l = readLogits();
    std::copy(l.begin(), l.end(), reinterpret_cast<float*>(res.logits.bytes().data()) + row * cfg.vocabSize);
  };

  const auto t0 = Clock::now();
  if (block == 1) {
    for (int64_t i = 0; i < P; ++i) {
      writeToken(prompt[i]);
      writeStepInputs(i);
      runDecodeStep();
    }
  } else {
    for (int64_t b = 0; b < P; b += block) prefillBlock(prompt, b, std::min(P, b + block));
  }
  int64_t token = readToken();
  res.prefillMs = ms(t0, Clock::now());
  keepLogits();
  res.tokens.push_back(token);
  if (o.onToken) o.onToken(0, token, res.prefillMs);
  auto stop = [&](int64_t t) {
    return std::find(o.stopTokens.begin(), o.stopTokens.end(), t) != o.stopTokens.end();
  };
  // Steps go out in groups of `every` without waiting: the token each picks stays on the GPU
  // (ArgMax wrote it where the next step's Gather reads it) and in the history, read once per
  // group. Positions P + i - 1 for new token i.
  const int64_t every = o.returnLogits ? 1 : o.readbackEvery;  // checked >= 1 above
  bool stopped = stop(token);
  for (int64_t i = 1; i < o.maxNew && !stopped;) {
    const int64_t n = std::min(every, o.maxNew - i);
    const auto s = Clock::now();
    for (int64_t j = 0; j < n; ++j) {
      writeStepInputs(P + i + j - 1);
      runDecodeStep();
    }
    const std::vector<int64_t> picked = readHistory(P + i - 1, n);
    const double t = ms(s, Clock::now()) / static_cast<double>(n);
    for (int64_t j = 0; j < n && !stopped; ++j, ++i) {
      token = picked[static_cast<size_t>(j)];
      ++row;
      keepLogits();
      res.tokens.push_back(token);
      res.tokenMs.push_back(t);
      if (o.onToken) o.onToken(i, token, t);
      stopped = stop(token);
    }
  }
  if (o.returnLogits && row + 1 < o.maxNew) {  // stopped early: keep the rows produced
    HostTensor cut(DType::Float32, {row + 1, cfg.vocabSize});
    std::copy_n(res.logits.bytes().data(), cut.byteSize(), cut.bytes().data());
    res.logits = std::move(cut);
  }
  return res;
}

// ---- public facade -------------------------------------------------------------------------

Gemma Gemma::load(std::shared_ptr<Runtime> runtime, const std::string& modelDir,
                  const GemmaOptions& options) {
  if (!runtime) throw Error(ErrorCode::InvalidArgument, "Gemma::load: the runtime is null");
  return withContext("while loading the Gemma model in " + modelDir, [&] {
    auto impl = std::make_shared<GemmaImpl>(runtime, model::readGemmaConfig(modelDir), options);
    impl->loadWeights(modelDir);
    impl->buildDecode();
    Gemma g;
    g.impl_ = std::move(impl);
    return g;
  });
}

GenerateResult Gemma::generate(const std::vector<int64_t>& prompt, const GenerateOptions& options) {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "generate on an empty Gemma (use Gemma::load)");
  return withContext("while generating", [&] { return impl_->generate(prompt, options); });
}

GemmaProfile Gemma::profile(const std::vector<int64_t>& prompt) {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "profile on an empty Gemma (use Gemma::load)");
  return withContext("while profiling the model", [&] { return impl_->profile(prompt); });
}

const GemmaConfig& Gemma::config() const {
  return impl_->cfg;
}
int64_t Gemma::maxLength() const {
  return impl_->maxLen;
}
uint64_t Gemma::weightBytes() const {
  return impl_->weightBytes;
}
size_t Gemma::decodeCalls() const {
  return impl_->stepCalls;
}
size_t Gemma::decodeDispatches() const {
  return impl_->stepDispatches;
}

}  // namespace wgk

#include "model/gemma_config.h"

#include <filesystem>

#include "core/json_read.h"
#include "wgk/error.h"

namespace wgk::model {
namespace {

[[noreturn]] void bad(const std::string& what) {
  throw Error(ErrorCode::InvalidArgument, "config.json: " + what);
}

// An integer field in [lo, hi]; `fallback` < 0 means required.
int64_t intField(const nlohmann::json& j, const char* name, int64_t lo, int64_t hi, int64_t fallback = -1) {
  if (!j.contains(name) || j[name].is_null()) {
    if (fallback >= 0) return fallback;
    bad(std::string("missing field '") + name + "'");
  }
  const auto& v = j[name];
  if (!v.is_number_integer()) bad(std::string("'") + name + "' must be an integer, not " + jsonExcerpt(v));
  const int64_t x = v.get<int64_t>();
  if (x < lo || x > hi)
    bad(std::string("'") + name + "' is " + std::to_string(x) + ", outside [" + std::to_string(lo) + ", " +
        std::to_string(hi) + "]");
  return x;
}

double numberField(const nlohmann::json& j, const char* name, double lo, double hi, double fallback) {
  if (!j.contains(name) || j[name].is_null()) return fallback;
  const auto& v = j[name];
  if (!v.is_number()) bad(std::string("'") + name + "' must be a number, not " + jsonExcerpt(v));
  const double x = v.get<double>();
  if (!(x > lo && x < hi))
    bad(std::string("'") + name + "' is " + jsonExcerpt(v) + ", outside (" + std::to_string(lo) + ", " +
        std::to_string(hi) + ")");
  return x;
}

std::string stringField(const nlohmann::json& j, const char* name) {
  if (!j.contains(name) || j[name].is_null()) return {};
  if (!j[name].is_string()) bad(std::string("'") + name + "' must be a string, not " + jsonExcerpt(j[name]));
  return j[name].get<std::string>();
}

}  // namespace

GemmaConfig parseGemmaConfig(const nlohmann::json& j) {
  if (!j.is_object()) bad("expected a JSON object");
  const std::string type = stringField(j, "model_type");
  if (type != "gemma")
    bad("model_type is '" + type +
        "'; wgk runs Gemma 1 checkpoints (model_type \"gemma\", GemmaForCausalLM)" +
        (type.rfind("gemma", 0) == 0 ? ": " + type + " adds attention features wgk does not implement" : ""));
  // Gemma 1 names its activation hidden_activation (gelu_pytorch_tanh); older configs say
  // hidden_act "gelu" and Hugging Face still runs the tanh approximation for them.
  for (const char* key : {"hidden_activation", "hidden_act"}) {
    const std::string act = stringField(j, key);
    if (!act.empty() && act != "gelu_pytorch_tanh" && act != "gelu" && act != "gelu_tanh")
      bad(std::string("'") + key + "' is '" + act +
          "'; the Gemma MLP here is gelu with the tanh approximation");
  }
  GemmaConfig c;
  // Limits: generous for real models (Gemma 7B: hidden 3072, vocab 256000, 28 layers) and small
  // enough that products such as vocab x hidden x 4 bytes stay far inside 64 bits.
  c.vocabSize = intField(j, "vocab_size", 1, int64_t{1} << 22);
  c.hiddenSize = intField(j, "hidden_size", 1, 1 << 16);
  c.intermediateSize = intField(j, "intermediate_size", 1, 1 << 20);
  c.numLayers = intField(j, "num_hidden_layers", 1, 1024);
  c.numHeads = intField(j, "num_attention_heads", 1, 1024);
  c.numKvHeads = intField(j, "num_key_value_heads", 1, 1024, c.numHeads);
  if (c.numHeads % c.numKvHeads != 0)
    bad("num_key_value_heads (" + std::to_string(c.numKvHeads) + ") must divide num_attention_heads (" +
        std::to_string(c.numHeads) + ")");
  const int64_t defaultHeadDim = c.hiddenSize % c.numHeads == 0 ? c.hiddenSize / c.numHeads : -1;
  c.headDim = intField(j, "head_dim", 2, 1024, defaultHeadDim);
  if (c.headDim % 2 != 0) bad("head_dim (" + std::to_string(c.headDim) + ") must be even (rotary halves)");
  c.maxPositionEmbeddings = intField(j, "max_position_embeddings", 1, int64_t{1} << 20, 8192);
  c.rmsNormEps = numberField(j, "rms_norm_eps", 0.0, 1.0, 1e-6);
  c.ropeTheta = numberField(j, "rope_theta", 0.0, 1e12, 10000.0);
  if (j.contains("attn_logit_softcapping") && !j["attn_logit_softcapping"].is_null())
    bad("attn_logit_softcapping is set; that is Gemma 2, which wgk does not implement");
  const std::string dtype = stringField(j, "torch_dtype");
  if (!dtype.empty() && dtype != "float16" && dtype != "bfloat16" && dtype != "float32")
    bad("torch_dtype is '" + dtype + "'; wgk reads float16, bfloat16 or float32 weights");
  c.weightDtype = dtype;  // the tensors' own dtype decides; this is what the config claims
  return c;
}

GemmaConfig readGemmaConfig(const std::string& modelDir) {
  const std::string file = (std::filesystem::path(modelDir) / "config.json").string();
  std::error_code ec;
  if (!std::filesystem::is_directory(modelDir, ec))
    throw Error(ErrorCode::NotFound, "model folder '" + modelDir + "' does not exist or is not a folder");
  if (!std::filesystem::is_regular_file(file, ec))
    throw Error(ErrorCode::NotFound,
                "no config.json in '" + modelDir + "' (a Hugging Face model folder has one)");
  return loadJsonFile(file, [](const nlohmann::json& j) { return parseGemmaConfig(j); });
}

}  // namespace wgk::model

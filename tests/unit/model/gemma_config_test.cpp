#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/gemma_config.h"
#include "wgk/error.h"

namespace wgk::model {
namespace {

nlohmann::json tiny() {
  return {{"model_type", "gemma"},
          {"vocab_size", 512},
          {"hidden_size", 64},
          {"intermediate_size", 128},
          {"num_hidden_layers", 2},
          {"num_attention_heads", 4},
          {"num_key_value_heads", 1},
          {"head_dim", 16},
          {"rms_norm_eps", 1e-6},
          {"rope_theta", 10000.0},
          {"max_position_embeddings", 64},
          {"hidden_activation", "gelu_pytorch_tanh"},
          {"torch_dtype", "float16"}};
}

std::string errorOf(const nlohmann::json& j) {
  try {
    parseGemmaConfig(j);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    return e.message();
  }
  return "(no error)";
}

TEST(GemmaConfig, ReadsTheFields) {
  const GemmaConfig c = parseGemmaConfig(tiny());
  EXPECT_EQ(c.vocabSize, 512);
  EXPECT_EQ(c.hiddenSize, 64);
  EXPECT_EQ(c.numKvHeads, 1);
  EXPECT_EQ(c.headDim, 16);
  EXPECT_EQ(c.maxPositionEmbeddings, 64);
  EXPECT_DOUBLE_EQ(c.rmsNormEps, 1e-6);
}

TEST(GemmaConfig, DefaultsFollowHuggingFace) {
  nlohmann::json j = tiny();
  j.erase("head_dim");
  j.erase("num_key_value_heads");
  j.erase("rope_theta");
  const GemmaConfig c = parseGemmaConfig(j);
  EXPECT_EQ(c.headDim, 16);    // hidden / heads
  EXPECT_EQ(c.numKvHeads, 4);  // multi-head attention
  EXPECT_DOUBLE_EQ(c.ropeTheta, 10000.0);
}

TEST(GemmaConfig, RefusesWhatItCannotRun) {
  auto with = [](const char* key, nlohmann::json v) {
    nlohmann::json j = tiny();
    j[key] = std::move(v);
    return j;
  };
  EXPECT_NE(errorOf(with("model_type", "gemma2")).find("model_type is 'gemma2'"), std::string::npos);
  EXPECT_NE(errorOf(with("model_type", "llama")).find("Gemma 1"), std::string::npos);
  EXPECT_NE(errorOf(with("num_key_value_heads", 3)).find("must divide num_attention_heads"),
            std::string::npos);
  EXPECT_NE(errorOf(with("head_dim", 15)).find("must be even"), std::string::npos);
  EXPECT_NE(errorOf(with("vocab_size", 0)).find("'vocab_size' is 0, outside"), std::string::npos);
  EXPECT_NE(errorOf(with("hidden_size", "64")).find("must be an integer"), std::string::npos);
  EXPECT_NE(errorOf(with("num_hidden_layers", 100000)).find("outside [1, 1024]"), std::string::npos);
  EXPECT_NE(errorOf(with("rms_norm_eps", -1.0)).find("rms_norm_eps"), std::string::npos);
  EXPECT_NE(errorOf(with("hidden_activation", "relu")).find("tanh approximation"), std::string::npos);
  EXPECT_NE(errorOf(with("attn_logit_softcapping", 50.0)).find("Gemma 2"), std::string::npos);
  EXPECT_NE(errorOf(with("torch_dtype", "int8")).find("torch_dtype"), std::string::npos);
  nlohmann::json j = tiny();
  j.erase("vocab_size");
  EXPECT_NE(errorOf(j).find("missing field 'vocab_size'"), std::string::npos);
  EXPECT_NE(errorOf(nlohmann::json::array()).find("expected a JSON object"), std::string::npos);
}

TEST(GemmaConfig, MissingFolderAndFile) {
  try {
    readGemmaConfig("/nonexistent/model");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::NotFound);
  }
  try {
    readGemmaConfig(WGK_SOURCE_DIR "/src");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::NotFound);
    EXPECT_NE(e.message().find("no config.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace wgk::model

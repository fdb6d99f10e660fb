// Every expression string in the three seed manifests parses, and the derive chains evaluate
// against a representative request.
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace wgk::expr {
namespace {

// ordered_json: derive blocks are evaluated in declaration order.
nlohmann::ordered_json loadSeed(const std::string& file) {
  std::ifstream in(std::string(WGK_SEEDS_DIR) + "/" + file);
  EXPECT_TRUE(in.good()) << file;
  return nlohmann::ordered_json::parse(in);
}

const char* kSeeds[] = {"ai.onnx.RMSNormalization.manifest.json", "com.microsoft.FastGelu.manifest.json",
                        "com.microsoft.GemmaRotaryEmbedding.manifest.json"};

// Collects (json pointer, text) for every string that the manifest dialect treats as an expression.
void collect(const nlohmann::ordered_json& j, const std::string& path, bool isExpr,
             std::vector<std::pair<std::string, std::string>>& out) {
  if (j.is_string()) {
    if (isExpr) out.emplace_back(path, j.get<std::string>());
    return;
  }
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) collect(j[i], path + "/" + std::to_string(i), isExpr, out);
    return;
  }
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    std::string p = path + "/" + k;
    bool childExpr = isExpr;
    if (k == "derive" || k == "when" || k == "demoteWhen" || k == "constants" || k == "dispatch")
      childExpr = true;
    if (k == "value" && path.find("/fields/") != std::string::npos) childExpr = true;
    if (k == "shape" &&
        (path.find("/intermediates/") != std::string::npos || path.find("/outputs/") != std::string::npos))
      childExpr = true;
    if (k == "rank" && path.find("/outputs/") != std::string::npos) childExpr = true;
    if (k == "inputs" && path.ends_with("/source")) childExpr = true;
    if (k == "description") childExpr = false;
    collect(it.value(), p, childExpr, out);
  }
}

TEST(Seeds, EveryExpressionParses) {
  size_t total = 0;
  for (const char* seed : kSeeds) {
    std::vector<std::pair<std::string, std::string>> exprs;
    collect(loadSeed(seed), "", false, exprs);
    EXPECT_GT(exprs.size(), 20u) << seed;
    for (const auto& [path, text] : exprs) {
      try {
        Expression::parse(text);
      } catch (const Error& e) {
        ADD_FAILURE() << seed << path << ": " << e.what();
      }
    }
    total += exprs.size();
  }
  EXPECT_GT(total, 150u);
}

// The seed's derive block evaluated in declaration order against an H200-like device.
TEST(Seeds, RmsNormDeriveChainEvaluates) {
  auto manifest = loadSeed(kSeeds[0]);
  Scope scope(&builtins());
  scope.set("device", Map{{"limits", Map{{"maxComputeInvocationsPerWorkgroup", 1024},
                                         {"maxComputeWorkgroupSizeX", 1024},
                                         {"maxComputeWorkgroupsPerDimension", 65535},
                                         {"maxStorageBufferBindingSize", int64_t{1} << 31},
                                         {"maxBufferSize", int64_t{1} << 32}}},
                          {"features", List{"shader-f16", "subgroups"}},
                          {"wgslLanguageFeatures", List{"subgroup_id"}},
                          {"adapterInfo", Map{{"subgroupMinSize", 32}, {"subgroupMaxSize", 32}}}});
  scope.set("shapes", Map{{"X", List{2, 8, 64}}, {"scale", List{64}}, {"Y", List{2, 8, 64}}});
  scope.set("ranks", Map{{"X", 3}, {"scale", 1}, {"Y", 3}});
  scope.set("dtypes", Map{{"T", "f16"}, {"V", "f16"}});
  scope.set("attrs", Map{{"axis", -1}, {"epsilon", 1e-05}, {"stash_type", 1}});
  scope.set("tunables", Value::fromJson(nlohmann::json::parse(manifest["tunables"].dump())));
  Scope derived(&scope);
  for (auto it = manifest["derive"].begin(); it != manifest["derive"].end(); ++it)
    derived.set(it.key(), Expression::parse(it.value().get<std::string>()).evaluate(derived));
  EXPECT_EQ(derived.lookup("axisNorm")->asInt(), 2);
  EXPECT_EQ(derived.lookup("normalizedRows")->asInt(), 16);
  EXPECT_EQ(derived.lookup("normalizedHidden")->asInt(), 64);
  EXPECT_TRUE(derived.lookup("wave32Adapter")->asBool());
  EXPECT_TRUE(derived.lookup("hasSubgroupId")->asBool());
  EXPECT_TRUE(derived.lookup("baseOk")->asBool());
  EXPECT_TRUE(derived.lookup("lastAxisOk")->asBool());
  EXPECT_FALSE(derived.lookup("suffixAxisOk")->asBool());
}

}  // namespace
}  // namespace wgk::expr

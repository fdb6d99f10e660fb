// Manifest parsing: the three seeds load unchanged; schema errors name their JSON path.
#include <gtest/gtest.h>

#include "package/manifest.h"
#include "support/expect_error.h"
#include "wgk/error.h"

using namespace wgk;
using namespace wgk::package;

namespace {
const std::string kSeeds = WGK_SEEDS_DIR;

Json seed(const std::string& name) {
  return wgk::readOrderedJsonFile(kSeeds + "/" + name + ".manifest.json");
}

// Expects parseManifest to fail with Error(Manifest) whose text contains every fragment.
void expectSchemaError(const Json& j, std::initializer_list<std::string> fragments) {
  test_support::expectError([&] { parseManifest(j); }, ErrorCode::Manifest,
                            std::vector<std::string>(fragments));
}
}  // namespace

TEST(Manifest, RmsSeedLoads) {
  Manifest m = loadManifest(kSeeds + "/ai.onnx.RMSNormalization.manifest.json");
  EXPECT_EQ(m.id(), "ai.onnx.RMSNormalization");
  EXPECT_EQ(m.sinceVersion, 23);
  ASSERT_EQ(m.variants.size(), 6u);
  EXPECT_EQ(m.variants[0].id, "stash_f16_serial");
  EXPECT_EQ(m.variants[1].id, "suffix_axis_splitk");
  EXPECT_EQ(m.variants[1].when.size(), 7u);
  EXPECT_EQ(m.variants[1].demoteWhen.size(), 1u);
  EXPECT_EQ(m.variants[1].intermediates.at(0).id, "partials");
  EXPECT_EQ(m.variants[1].passes.size(), 2u);
  EXPECT_EQ(m.variants[5].passes[0].pass.subgroupCollectivesWidth.value_or(""), "portable");
  EXPECT_EQ(m.dialect, Dialect::Seeds);
  // derive keeps file order (each entry may read the ones before it).
  ASSERT_EQ(m.derive.size(), 15u);
  EXPECT_EQ(m.derive.front().name, "deviceWorkgroupCap");
  EXPECT_EQ(m.derive.back().name, "suffixAxisOk");
  EXPECT_EQ(m.attributeDefault("axis")->asInt(), -1);
  EXPECT_EQ(m.attributeConstraints.at("stash_type").values.size(), 2u);
  // Each pass carries its binding set's entries.
  const PassSpec& stash = m.variants[0].passes[0].pass;
  ASSERT_EQ(stash.bindings.size(), 4u);
  EXPECT_EQ(stash.bindings[3].uniform->fields[1].name, "rowStride");
  EXPECT_EQ(stash.bindings[0].kind, ResourceKind::Tensor);
  EXPECT_EQ(stash.bindings[0].resource, "x");
  EXPECT_EQ(stash.bindings[3].kind, ResourceKind::Uniform);
  // A pass `source` is the pass derive `source`, a map evaluated in the pass scope.
  const PassSpec& rowStats = m.variants[2].passes[0].pass;
  ASSERT_FALSE(rowStats.derive.empty());
  EXPECT_EQ(rowStats.derive.back().name, "source");
  EXPECT_TRUE(rowStats.derive.back().value.isStructured());
  EXPECT_NE(rowStats.derive.back().value.text().find("\"writeStats\":false"), std::string::npos);
  EXPECT_EQ(m.findPort("x")->onnx, "X");
  EXPECT_EQ(m.findPort("x")->scopeNames, (std::vector<std::string>{"x", "X"}));
  EXPECT_EQ(m.findPort("y")->direction, PortDirection::Output);
  EXPECT_EQ(m.shaderFiles().size(), 5u);
}

TEST(Manifest, FastGeluSeedLoads) {
  Manifest m = parseManifest(seed("com.microsoft.FastGelu"));
  EXPECT_EQ(m.variants.size(), 6u);
  EXPECT_TRUE(m.findPort("bias")->optional);
  EXPECT_FALSE(m.findPort("X")->optional);
  // Manifest constants merge into each variant's (vec4_bias adds five of its own).
  EXPECT_EQ(m.variants[0].constants.size(), 8u);
  const BindingSpec& bias = m.variants[0].passes[0].pass.bindings[1];
  ASSERT_TRUE(bias.length);
  EXPECT_EQ(bias.length->text(), "constants.hidden");
  EXPECT_EQ(bias.elementType, "$scalar");
  EXPECT_EQ(m.variants[0].passes[0].pass.dispatch.form, Dispatch::Form::Threads);
  EXPECT_EQ(m.variants[0].passes[0].pass.dispatch.threads->text(), "numel(shapes.X) / 4");
}

TEST(Manifest, GemmaSeedLoads) {
  Manifest m = parseManifest(seed("com.microsoft.GemmaRotaryEmbedding"));
  EXPECT_EQ(m.variants.size(), 2u);
  EXPECT_EQ(m.variants[0].requirements.features, std::vector<std::string>{"shader-f16"});
  EXPECT_EQ(m.findPort("embT")->fixedDtype, DType::Float32);
  EXPECT_EQ(m.findPort("qT")->rank->literalValue()->asInt(), 4);
  EXPECT_EQ(m.typeConstraints.at("T"), std::vector<std::string>{"float16"});
}

TEST(Manifest, UnknownFieldNamesPath) {
  Json j = seed("ai.onnx.RMSNormalization");
  j["variants"][2]["whenn"] = "true";
  expectSchemaError(j, {"/variants/2/whenn", "unknown field", "ai.onnx.RMSNormalization"});
  Json k = seed("com.microsoft.FastGelu");
  k["bindingSets"]["vec4"][0]["buffer"]["access"] = "read";
  expectSchemaError(k, {"/bindingSets/vec4/0/buffer/access"});
}

TEST(Manifest, WrongTypeNamesPath) {
  Json j = seed("ai.onnx.RMSNormalization");
  j["variants"][1]["when"][3] = 5;
  expectSchemaError(j, {"/variants/1/when/3", "expected an expression"});
  Json k = seed("com.microsoft.FastGelu");
  k["variants"][0]["priority"] = "high";
  expectSchemaError(k, {"/variants/0/priority", "expected a number"});
  Json l = seed("com.microsoft.FastGelu");
  l["inputs"][1]["optional"] = "yes";
  expectSchemaError(l, {"/inputs/1/optional", "true or false"});
}

TEST(Manifest, BadExpressionNamesPath) {
  Json j = seed("ai.onnx.RMSNormalization");
  j["variants"][2]["when"] = "lastAxisOk and (";
  expectSchemaError(j, {"/variants/2/when", "does not parse"});
  Json k = seed("com.microsoft.GemmaRotaryEmbedding");
  k["derive"]["headDim"] = "dim(shapes.qT, 3";
  expectSchemaError(k, {"/derive/headDim"});
}

TEST(Manifest, MissingFieldNamesPath) {
  Json j = seed("com.microsoft.FastGelu");
  j["variants"][3]["passes"][0].erase("dispatch");
  expectSchemaError(j, {"/variants/3/passes/0/dispatch", "missing"});
  Json k = seed("com.microsoft.FastGelu");
  k.erase("args");
  expectSchemaError(k, {"/args", "missing"});
}

TEST(Manifest, CrossReferencesChecked) {
  Json j = seed("com.microsoft.FastGelu");
  j["variants"][1]["passes"][0]["bindings"] = "nope";
  expectSchemaError(j, {"/variants/1/passes/0/bindings", "unknown binding set 'nope'"});
  Json k = seed("com.microsoft.FastGelu");
  k["variants"][0]["constants"].erase("vectorScalar");  // vec4Bias uses $vectorScalar
  expectSchemaError(k, {"/variants/0/passes/0/bindings", "vectorScalar"});
  Json l = seed("com.microsoft.FastGelu");
  l["variants"][2]["id"] = "vec4_bias";
  expectSchemaError(l, {"/variants/2/id", "duplicate variant id"});
  Json m = seed("com.microsoft.GemmaRotaryEmbedding");
  m["args"]["qT"]["semantic"] = "query";
  expectSchemaError(m, {"/args/qT/semantic", "query"});
  Json n = seed("com.microsoft.FastGelu");
  n["variants"][0]["passes"][0]["dispatch"]["workgroups"] = 3;
  expectSchemaError(n, {"/variants/0/passes/0/dispatch", "not both"});
  Json o = seed("ai.onnx.RMSNormalization");
  o["bindingSets"]["rows"][3]["struct"]["fields"][0]["type"] = "u64";
  expectSchemaError(o, {"/bindingSets/rows/3/struct/fields/0/type", "u32, i32 or f32"});
}

TEST(Manifest, CommentsAreAllowed) {
  Json j = seed("com.microsoft.FastGelu");
  j["$comment"] = "note";
  j["variants"][0]["$comment"] = "note";
  EXPECT_NO_THROW(parseManifest(j));
}

TEST(Manifest, NotAnObject) {
  expectSchemaError(Json::array(), {"expected an object"});
}

// Names from a package become WGSL text: they are identifiers, checked when the manifest loads
// (issue 15: a binding named "x; @compute ..." was pasted into the generated declarations).
TEST(Manifest, WgslNamesAreIdentifiers) {
  Json j = seed("com.microsoft.FastGelu");
  j["bindingSets"]["vec4"][0]["name"] = "x: array<f32>; @group(0) @binding(9) var<storage> evil";
  expectSchemaError(j, {"/bindingSets/vec4/0/name", "not an identifier"});
  Json k = seed("ai.onnx.RMSNormalization");
  k["bindingSets"]["rows"][3]["struct"]["fields"][0]["name"] = "rows };";
  expectSchemaError(k, {"/bindingSets/rows/3/struct/fields/0/name", "not an identifier"});
  Json l = seed("com.microsoft.FastGelu");
  l["bindingSets"]["vec4"][0]["elementType"] = "f32>; fn main() {}";
  expectSchemaError(l, {"/bindingSets/vec4/0/elementType", "not a WGSL element type"});
  Json m = seed("com.microsoft.FastGelu");
  m["args"]["../../ESCAPED"] = m["args"]["Y"];
  m["args"].erase("Y");
  expectSchemaError(m, {"../../ESCAPED", "not an identifier"});
  Json n = seed("com.microsoft.GemmaRotaryEmbedding");
  n["derive"]["a b"] = "1";
  expectSchemaError(n, {"/derive/a b", "not an identifier"});
}

// A constraint whose min is above its max can never hold: refused at load (issue 15).
TEST(Manifest, ConstraintMinAboveMaxRefused) {
  Json j = seed("ai.onnx.RMSNormalization");
  j["attributeConstraints"]["epsilon"] = {{"min", 1}, {"max", 0}};
  expectSchemaError(j, {"/attributeConstraints/epsilon", "min 1.0 is above max 0.0"});
  Json k = seed("ai.onnx.RMSNormalization");
  k["attributeConstraints"]["axis"] = {{"min", 0}};  // the default -1 is below min
  expectSchemaError(k, {"/attributeConstraints/axis", "outside [min, max]"});
}

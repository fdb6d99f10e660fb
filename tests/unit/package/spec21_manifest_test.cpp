// Manifest spec 2.1: every construct the reader accepts, broken in turn, is an Error(Manifest)
// naming its JSON path (and, for a seeds-dialect key, its 2.1 replacement); never a crash.
#include <gtest/gtest.h>

#include <functional>

#include "package/manifest.h"
#include "support/expect_error.h"
#include "wgk/error.h"

using namespace wgk;
using namespace wgk::package;

namespace {

Json hub(const std::string& op) {
  return wgk::readOrderedJsonFile(std::string(WGK_SOURCE_DIR) + "/tests/data/hub/ai.onnx." + op + "/manifest.json");
}

// A small manifest using most constructs (the Add manifest is too regular for some of them).
Json rich() {
  return Json::parse(R"json({
    "name": "Rich",
    "inputs": {"x": {"onnx": "X", "dtype": "T"}, "ids": {"dtype": "int64", "storage": "int32", "narrowing": "checked"},
               "bytes": {"dtype": "uint8", "layout": "packed"}, "acc": {"dtype": "float32"}},
    "outputs": {"y": {"dtype": "T", "shape": "shapes.x"}, "acc": {"dtype": "float32"}},
    "typeConstraints": {"T": ["float32", "float16"]},
    "args": {"scale": {"kind": "f32"}, "mode": {"kind": "string", "oneOf": ["a", "b"], "required": false}},
    "attributes": {"axis": {"default": -1}, "to": {}},
    "attributeConstraints": {"to": {"required": true}},
    "tunables": {"WG": {"default": 64}},
    "derive": {"n": "numel(shapes.x)", "parts": {"a": "n // 2", "b": [1, "n"]}},
    "requires": {"features": ["shader-f16"], "limits": {"maxStorageBuffersPerShaderStage": 4}},
    "bindings": {"x": {}, "y": {"elementType": "$T"}, "params": {"struct": [{"name": "n", "type": "u32", "value": "n"},
                 {"name": "scale", "type": "f32"}, {"name": "pad", "type": "u32", "internal": true}]}},
    "variants": [
      {"cases": [{"k": "a", "w": 64}, {"k": "b", "w": 128}],
       "variants": [{"id": "fam_{k}", "priority": 5, "tunables": {"WG": {"default": "{w}"}},
                     "passes": [{"id": "p", "shader": "t.wgsl.jinja", "bindings": ["x", "y", "params"],
                                 "dispatch": {"threads": "n", "workgroupSize": "tunables.WG"}}]}]},
      {"id": "multi", "priority": 1, "supersededBy": ["fam_a"], "demoteWhen": ["n < 4"],
       "intermediates": [{"id": "tmp", "dtype": "float32", "shape": "[n]", "zeroInit": true}],
       "passes": [
         {"id": "first", "shader": "t.wgsl.jinja", "bindings": ["x", "tmp", {"name": "out", "arg": "y", "elementType": "$T"}],
          "dispatch": {"x": "ceilDiv(n, 64)", "y": 1}, "submitAfter": true, "subgroupCollectivesWidth": "portable"},
         {"id": "loop", "repeat": {"index": "i", "count": 3}, "passes": [
           {"id": "step", "shader": "t.wgsl.jinja", "bindings": [{"scratch": "tmp", "name": "buf"}, "acc"],
            "dispatch": {"workgroups": "n"}, "derive": {"step": "repeat.i"}}]},
         {"id": "alias", "shader": "t.wgsl.jinja", "bindings": ["x", "y"], "dispatch": {"x": 1},
          "viewAlias": [{"input": "x", "output": "y"}]}]}
    ]})json");
}

void expectManifestError(const Json& j, std::initializer_list<std::string> fragments) {
  test_support::expectError([&] { parseManifest(j, "2.1"); }, ErrorCode::Manifest,
                            std::vector<std::string>(fragments));
}

// Applies `edit` to a copy of `base` and expects the fragments.
void broken(const Json& base, const std::function<void(Json&)>& edit, std::initializer_list<std::string> fragments) {
  Json j = base;
  edit(j);
  expectManifestError(j, fragments);
}

}  // namespace

TEST(Spec21Manifest, RichManifestReads) {
  Manifest m = parseManifest(rich(), "2.1");
  EXPECT_EQ(m.dialect, Dialect::Spec21);
  EXPECT_EQ(m.domain, "ai.onnx");  // the default domain
  ASSERT_EQ(m.variants.size(), 3u);
  EXPECT_EQ(m.variants[0].id, "fam_a");
  EXPECT_EQ(m.variants[1].id, "fam_b");
  EXPECT_EQ(m.variants[1].family, "variants[0] case 1");
  EXPECT_EQ(m.variants[1].tunables.at(0).value.literalValue()->asInt(), 128);
  // Top-level requires merged into every variant; top-level handles resolved per pass.
  EXPECT_EQ(m.variants[2].requirements.features, std::vector<std::string>{"shader-f16"});
  EXPECT_EQ(m.variants[2].requirements.limits.at("maxStorageBuffersPerShaderStage"), 4);
  const PortSpec* acc = m.findPort("acc");
  EXPECT_EQ(acc->direction, PortDirection::InOut);
  EXPECT_EQ(m.findPort("ids")->storage, DType::Int32);
  EXPECT_EQ(m.findPort("ids")->narrowing, Narrowing::Checked);
  EXPECT_TRUE(m.findPort("bytes")->packed);
  EXPECT_EQ(m.args.size(), 2u);
  EXPECT_FALSE(m.findArg("mode")->required);
  EXPECT_FALSE(m.findAttribute("to")->defaultValue.has_value());
  EXPECT_TRUE(m.attributeConstraints.at("to").required);
  EXPECT_TRUE(m.derive[1].value.isStructured());
  const VariantSpec& multi = m.variants[2];
  EXPECT_EQ(multi.supersededBy, std::vector<std::string>{"fam_a"});
  EXPECT_TRUE(multi.intermediates[0].zeroInit);
  ASSERT_EQ(multi.passes.size(), 3u);
  EXPECT_TRUE(multi.passes[0].pass.submitAfter);
  EXPECT_EQ(multi.passes[0].pass.subgroupCollectivesWidth.value_or(""), "portable");
  EXPECT_EQ(multi.passes[0].pass.bindings[1].kind, ResourceKind::Intermediate);  // "tmp": by id
  EXPECT_EQ(multi.passes[0].pass.bindings[2].resource, "y");                      // inline, arg y
  EXPECT_TRUE(multi.passes[1].isGroup);
  EXPECT_EQ(multi.passes[1].index, "i");
  EXPECT_EQ(multi.passes[1].children[0].pass.bindings[0].resource, "tmp");  // scratch under name buf
  EXPECT_EQ(multi.passes[1].children[0].pass.bindings[0].type, BufferType::Storage);
  EXPECT_EQ(multi.passes[1].children[0].pass.bindings[1].type, BufferType::Storage);  // in/out port
  EXPECT_EQ(multi.passes[2].pass.viewAlias.at(0).output, "y");
  // Shorthand dispatches become the explicit grid.
  EXPECT_EQ(m.variants[0].passes[0].pass.dispatch.form, Dispatch::Form::Grid);
  EXPECT_EQ(m.variants[0].passes[0].pass.dispatch.x->text(), "min(ceilDiv((n), (tunables.WG)), 65535)");
  EXPECT_EQ(multi.passes[1].children[0].pass.dispatch.y->text(), "ceilDiv(n, 65535)");
  // Uniform fields: required by default, internal ones not.
  const auto& fields = m.variants[0].passes[0].pass.bindings[2].uniform->fields;
  EXPECT_TRUE(fields[1].required);
  EXPECT_FALSE(fields[2].required);
}

TEST(Spec21Manifest, HubManifestsRead) {
  for (const char* op : {"Add", "Softmax", "MatMul"}) {
    EXPECT_NO_THROW(parseManifest(hub(op))) << op;
    EXPECT_EQ(detectDialect(hub(op)), Dialect::Spec21) << op;
  }
}

TEST(Spec21Manifest, UnknownSpecIsUnsupported) {
  test_support::expectError([] { parseManifest(hub("Add"), "3.0"); }, ErrorCode::Unsupported,
                            {"manifest spec 3.0 is not supported"});
  test_support::expectError([] { parseManifest(hub("Add"), "latest"); }, ErrorCode::Unsupported,
                            {"not a <major>.<minor>"});
}

TEST(Spec21Manifest, TopLevel) {
  broken(hub("Add"), [](Json& j) { j["frobnicate"] = 1; }, {"/frobnicate", "unknown field"});
  broken(hub("Add"), [](Json& j) { j["bindingSets"] = Json::object(); }, {"/bindingSets", "named binding entries"});
  broken(hub("Add"), [](Json& j) { j["constants"] = Json::object(); }, {"/constants", "`derive`"});
  broken(hub("Add"), [](Json& j) { j["attributeDescriptions"] = Json::object(); }, {"/attributeDescriptions", "description"});
  broken(hub("Add"), [](Json& j) { j["domain"] = "Not A Domain"; }, {"/domain", "dotted domain"});
  broken(hub("Add"), [](Json& j) { j["conformance"] = "strict"; }, {"/conformance", "invalid conformance"});
  broken(hub("Add"), [](Json& j) { j.erase("name"); }, {"/name"});
  broken(hub("Add"), [](Json& j) { j["variants"] = Json::array(); }, {"/variants", "non-empty"});
  broken(hub("Add"), [](Json& j) { j["derive"] = {{"constructor", "1"}}; }, {"/derive/constructor", "Object.prototype"});
  broken(hub("Add"), [](Json& j) { j["$comment"] = 5; }, {"/$comment", "must be a string"});
}

TEST(Spec21Manifest, Ports) {
  broken(hub("Add"), [](Json& j) { j["inputs"] = Json::array(); }, {"/inputs", "map name ->"});
  broken(hub("Add"), [](Json& j) { j["inputs"]["a b"] = {{"dtype", "T"}}; }, {"/inputs/a b", "not an identifier"});
  broken(hub("Add"), [](Json& j) { j["inputs"]["a"]["role"] = "A"; }, {"/inputs/a/role", "unknown field"});
  broken(hub("Add"), [](Json& j) { j["inputs"]["a"]["onnx"] = ""; }, {"/inputs/a/onnx", "non-empty"});
  broken(hub("Add"), [](Json& j) { j["inputs"]["a"]["optional"] = "yes"; }, {"/inputs/a/optional", "true or false"});
  broken(hub("Add"), [](Json& j) { j["outputs"]["c"]["shape"] = 5; }, {"/outputs/c/shape", "expression"});
  broken(hub("Add"), [](Json& j) { j["outputs"]["c"]["shape"] = "broadcastShape(("; }, {"/outputs/c/shape", "does not parse"});
  broken(rich(), [](Json& j) { j["inputs"]["ids"]["storage"] = "float32"; }, {"/inputs/ids/storage", "int64 port"});
  broken(rich(), [](Json& j) { j["inputs"]["ids"].erase("narrowing"); }, {"/inputs/ids", "narrowing"});
  broken(rich(), [](Json& j) { j["inputs"]["x"]["narrowing"] = "checked"; }, {"/inputs/x/narrowing", "projected"});
  broken(rich(), [](Json& j) { j["inputs"]["x"]["layout"] = "packed"; }, {"/inputs/x/layout", "uint8"});
  broken(rich(), [](Json& j) { j["outputs"]["y"]["layout"] = "packed"; }, {"/outputs/y/layout", "output"});
  broken(rich(), [](Json& j) { j["outputs"]["acc"]["dtype"] = "float16"; }, {"/outputs/acc", "same dtype"});
  broken(hub("Add"), [](Json& j) { j["typeConstraints"]["T"] = Json::array(); }, {"/typeConstraints/T", "non-empty"});
  broken(hub("Add"), [](Json& j) { j["typeConstraints"]["T"][0] = "float64"; }, {"/typeConstraints/T/0", "unknown dtype"});
}

TEST(Spec21Manifest, ArgsAttributesTunables) {
  broken(rich(), [](Json& j) { j["args"]["scale"]["kind"] = "tensor"; }, {"/args/scale/kind", "inputs/outputs ports"});
  broken(rich(), [](Json& j) { j["args"]["scale"]["kind"] = "f64"; }, {"/args/scale/kind", "unsupported arg kind"});
  broken(rich(), [](Json& j) { j["args"]["scale"]["oneOf"] = {"a"}; }, {"/args/scale/oneOf", "string arg"});
  broken(rich(), [](Json& j) { j["args"]["scale"]["semantic"] = "S"; }, {"/args/scale/semantic", "scalars"});
  broken(rich(), [](Json& j) { j["args"]["x"] = {{"kind", "f32"}}; }, {"/args/x", "collides"});
  broken(hub("Softmax"), [](Json& j) { j["attributes"]["axis"] = -1; }, {"/attributes/axis", "{\"default\": -1}"});
  broken(hub("Softmax"), [](Json& j) { j["attributes"]["axis"]["min"] = 0; }, {"/attributes/axis/min", "unknown field"});
  broken(rich(), [](Json& j) { j["attributeConstraints"]["nope"] = {{"required", true}}; }, {"/attributeConstraints/nope", "declared attribute"});
  broken(rich(), [](Json& j) { j["attributeConstraints"]["axis"] = Json::object(); }, {"/attributeConstraints/axis", "required: true and/or values"});
  broken(rich(), [](Json& j) { j["attributeConstraints"]["axis"] = {{"required", true}}; }, {"/attributeConstraints/axis/required", "redundant"});
  broken(rich(), [](Json& j) { j["attributeConstraints"]["axis"] = {{"values", {0, 1}}}; }, {"/attributeConstraints/axis", "not in values"});
  broken(rich(), [](Json& j) { j["attributeConstraints"]["to"]["values"] = {1, 1}; }, {"/attributeConstraints/to/values/1", "twice"});
  broken(rich(), [](Json& j) { j["tunables"]["WG"] = 64; }, {"/tunables/WG", "{\"default\": 64}"});
  broken(rich(), [](Json& j) { j["tunables"]["WG"]["default"] = Json::array(); }, {"/tunables/WG/default", "number, string or boolean"});
  broken(rich(), [](Json& j) { j["tunables"]["W-G"] = {{"default", 1}}; }, {"/tunables/W-G", "not an identifier"});
}

TEST(Spec21Manifest, DeriveWhenRequires) {
  broken(rich(), [](Json& j) { j["derive"]["shapes"] = "1"; }, {"/derive/shapes", "shadow"});
  broken(rich(), [](Json& j) { j["derive"]["T"] = "1"; }, {"/derive/T", "shadow"});
  broken(rich(), [](Json& j) { j["derive"]["$use"] = "lib"; }, {"/derive/$use", "unexpanded"});
  broken(rich(), [](Json& j) { j["derive"]["bad"] = "n +"; }, {"/derive/bad", "does not parse"});
  broken(rich(), [](Json& j) { j["derive"]["parts"]["b"][1] = "n +"; }, {"/derive/parts/b/1", "does not parse"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["when"] = "sameShape(shapes.a, shapes.c)"; }, {"/variants/0/when", "wrap the single string"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["when"] = Json::array(); }, {"/variants/0/when", "empty list"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["when"][1] = 3; }, {"/variants/0/when/1", "non-empty expression strings"});
  broken(hub("Add"), [](Json& j) { j["when"] = {"(("}; }, {"/when/0", "does not parse"});
  broken(rich(), [](Json& j) { j["requires"]["gpus"] = 1; }, {"/requires/gpus", "unknown field"});
  broken(rich(), [](Json& j) { j["requires"]["features"] = {"warp-drive"}; }, {"/requires/features/0", "unknown feature"});
  broken(rich(), [](Json& j) { j["requires"]["limits"]["maxWarpFactor"] = 9; }, {"/requires/limits/maxWarpFactor", "canonical"});
  broken(rich(), [](Json& j) { j["requires"]["subgroupMinSize"] = 0; }, {"/requires/subgroupMinSize", "positive"});
  broken(rich(), [](Json& j) { j["requires"]["subgroupMatrixConfigs"] = {Json::object()}; }, {"/requires/subgroupMatrixConfigs/0", "at least one field"});
  broken(rich(), [](Json& j) { j["requires"]["subgroupMatrixConfigs"] = {{{"M", 0}}}; }, {"/requires/subgroupMatrixConfigs/0/M", "positive"});
}

TEST(Spec21Manifest, Bindings) {
  broken(hub("Add"), [](Json& j) { j["bindings"]["a"]["semantic"] = "A"; }, {"/bindings/a/semantic", "resolve by arg/name"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["a"]["buffer"] = {{"type", "storage"}}; }, {"/bindings/a/buffer", "a string"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["a"]["buffer"] = "texture"; }, {"/bindings/a/buffer", "read-only-storage, storage or uniform"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["a"]["elementType"] = "vec4<f64>"; }, {"/bindings/a/elementType", "not a WGSL element type"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["a"]["elementType"] = "$not an id"; }, {"/bindings/a/elementType", "not an identifier"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["a"]["length"] = 0; }, {"/bindings/a/length", "positive integer"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["params"]["elementType"] = "u32"; }, {"/bindings/params", "struct fields, not elementType"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["params"]["struct"][0]["type"] = "u64"; }, {"/bindings/params/struct/0/type", "u32, i32 or f32"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["params"]["struct"].push_back({{"name", "count"}, {"type", "u32"}}); },
         {"/bindings/params/struct/1/name", "repeats field"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["params"]["struct"][0]["name"] = "1count"; }, {"/bindings/params/struct/0/name", "identifier"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["a"]["struct"] = Json::array(); }, {"/bindings/a", "struct"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["a-b"] = Json::object(); }, {"/bindings/a-b", "not an identifier"});
  broken(hub("Add"), [](Json& j) { j["bindings"]["orphan"] = {{"elementType", "f32"}}; },
         {"/bindings/orphan", "neither an input, an output nor an intermediate"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["passes"][0]["bindings"][0] = "nope"; },
         {"/variants/0/passes/0/bindings/0", "neither a binding handle"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["passes"][0]["bindings"][0] = Json::object(); },
         {"/variants/0/passes/0/bindings/0", "needs a name"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["passes"][0]["bindings"] = "set"; },
         {"/variants/0/passes/0/bindings", "seeds' dialect"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["passes"][0]["bindings"].push_back("a"); },
         {"binds the WGSL name 'a' twice"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][1]["passes"][0]["bindings"][0]["scratch"] = "nothing"; },
         {"/variants/1/passes/1/passes/0/bindings/0", "scratch 'nothing'"});
}

TEST(Spec21Manifest, VariantsAndFamilies) {
  broken(hub("Add"), [](Json& j) { j["variants"][0]["id"] = "bad id"; }, {"/variants/0/id", "stable id"});
  broken(hub("Add"), [](Json& j) { j["variants"][1]["id"] = "same_shape_vec4"; }, {"duplicate variant id 'same_shape_vec4'"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["priority"] = "high"; }, {"/variants/0/priority", "finite number"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["constants"] = Json::object(); }, {"/variants/0/constants", "`derive`"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["bindings"] = Json::array(); }, {"/variants/0/bindings", "each pass"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["requiredFeatures"] = {"shader-f16"}; }, {"/variants/0/requiredFeatures", "requires.features"});
  broken(hub("Add"), [](Json& j) { j["variants"][0]["demoteWhen"] = "x"; }, {"/variants/0/demoteWhen", "wrap"});
  broken(rich(), [](Json& j) { j["variants"][1]["supersededBy"] = {"ghost"}; }, {"/variants/1/supersededBy", "unknown variant 'ghost'"});
  broken(rich(), [](Json& j) { j["variants"][1]["supersededBy"] = {"multi"}; }, {"lists itself"});
  broken(rich(), [](Json& j) { j["variants"][1]["priority"] = 10; }, {"/variants/1/supersededBy", "does not outrank"});
  broken(rich(), [](Json& j) { j["variants"][0]["cases"] = Json::object(); }, {"/variants/0/cases", "non-empty array"});
  broken(rich(), [](Json& j) { j["variants"][0]["cases"][0].erase("w"); }, {"/variants/0/variants/0", "unresolved", "{w}"});
  broken(rich(), [](Json& j) { j["variants"][0]["cases"][1]["k"] = "a"; }, {"duplicate variant id 'fam_a'"});
  broken(rich(), [](Json& j) {
    j["variants"][0]["variants"][0]["id"] = "{k}";
    j["variants"][0]["cases"][0]["k"] = nullptr;
  }, {"/variants/0/variants/0/id", "cannot remove a required member"});
  broken(rich(), [](Json& j) { j["variants"][0]["cases"][0]["k"] = nullptr; }, {"/variants/0/variants/0/id", "must occupy the whole value"});
  broken(rich(), [](Json& j) { j["variants"][0]["cases"][0]["w"] = {1, 2}; },
         {"/variants/0/variants/0/tunables/WG/default", "number, string or boolean"});
  broken(rich(), [](Json& j) { j["variants"][0]["colour"] = 1; }, {"/variants/0/colour", "family"});
  Json axes = rich();
  axes["variants"][1].erase("supersededBy");
  axes["variants"][0].erase("cases");
  axes["variants"][0]["axes"] = {{"K", {{{"$key", "a"}, {"k", "a"}}}}};
  expectManifestError(axes, {"/variants/0/axes", "exactly two named axes"});
  axes["variants"][0]["axes"]["W"] = {{{"$key", "narrow"}, {"w", 64}}, {{"$key", "wide"}, {"w", 128}}};
  axes["variants"][0]["variants"][0]["id"] = "fam_{k}_{w}";
  EXPECT_EQ(parseManifest(axes, "2.1").variants.size(), 3u);  // 1 x 2 cells + multi
  axes["variants"][0]["exclude"] = {{{"K", "a"}, {"W", "huge"}}};
  expectManifestError(axes, {"/variants/0/exclude/0", "existing W key"});
  axes["variants"][0]["exclude"] = {{{"K", "a"}, {"W", "wide"}}};
  EXPECT_EQ(parseManifest(axes, "2.1").variants.size(), 2u);
}

TEST(Spec21Manifest, PassesIntermediatesDispatch) {
  const std::string p = "/variants/1/passes/0";
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["source"] = Json::object(); }, {p + "/source", "`shader`"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0].erase("shader"); }, {p + "/shader", "missing"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["submitAfter"] = "yes"; }, {p + "/submitAfter", "true or false"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["subgroupCollectivesWidth"] = 3; }, {p + "/subgroupCollectivesWidth", "power of two"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["dispatch"] = {{"gridStride", 1}}; }, {p + "/dispatch/gridStride", "removed"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["dispatch"] = {{"y", 1}}; }, {p + "/dispatch/x", "missing"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["dispatch"] = {{"x", -1}}; }, {p + "/dispatch/x", "non-negative"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["dispatch"] = {{"threads", 4}}; }, {p + "/dispatch", "both 'threads' and 'workgroupSize'"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["dispatch"] = {{"threads", 4}, {"workgroupSize", 1}, {"x", 1}}; },
         {p + "/dispatch/x", "no pinned axes"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][0]["dispatch"] = {{"threads", 4}, {"workgroups", 1}}; }, {p + "/dispatch", "exactly one"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][2]["viewAlias"] = {{{"input", "y"}, {"output", "x"}}}; },
         {"/variants/1/passes/2/viewAlias/0/input", "read-only-storage"});
  broken(rich(), [](Json& j) { j["variants"][1]["intermediates"][0]["dtype"] = "int64"; }, {"/variants/1/intermediates/0/dtype", "int64"});
  broken(rich(), [](Json& j) { j["variants"][1]["intermediates"][0]["dtype"] = "T"; }, {"/variants/1/intermediates/0/dtype", "concrete"});
  broken(rich(), [](Json& j) { j["variants"][1]["intermediates"][0]["zeroInit"] = false; }, {"/variants/1/intermediates/0/zeroInit", "true when present"});
  broken(rich(), [](Json& j) { j["variants"][1]["intermediates"][0]["id"] = "x"; }, {"/variants/1/intermediates/0/id", "tensor name"});
  const std::string g = "/variants/1/passes/1";
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][1]["repeat"]["index"] = "count"; }, {g + "/repeat/index", "reserved"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][1]["repeat"].erase("count"); }, {g + "/repeat/count", "missing"});
  broken(rich(), [](Json& j) { j["variants"][1]["passes"][1]["passes"] = Json::array(); }, {g + "/passes", "non-empty"});
  broken(rich(), [](Json& j) {
    j["variants"][1]["passes"][1]["passes"][0] = {{"id", "inner"}, {"repeat", {{"index", "i"}, {"count", 2}}},
                                                  {"passes", j["variants"][1]["passes"][1]["passes"]}};
  }, {g + "/passes/0/repeat/index", "shadows an outer"});
}

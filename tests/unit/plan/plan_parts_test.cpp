// The mechanical parts: uniform packing, dispatch folding, request keys, JSON and text forms.
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {
std::vector<package::UniformField> fields(std::initializer_list<std::pair<const char*, const char*>> f) {
  std::vector<package::UniformField> out;
  for (auto [n, t] : f) {
    package::UniformField u;
    u.name = n;
    u.type = t;
    out.push_back(u);
  }
  return out;
}
}  // namespace

TEST(PlanParts, UniformPackingAndPadding) {
  auto f = fields({{"a", "u32"}, {"b", "i32"}, {"c", "f32"}, {"d", "u32"}, {"e", "u32"}});
  auto bytes = packUniforms(
      f,
      {expr::Value(1), expr::Value(-1), expr::Value(1.5), expr::Value(4.0), expr::Value(int64_t{4294967295})},
      "P");
  ASSERT_EQ(bytes.size(), 32u);  // 5 fields = 20 bytes -> padded to 32
  EXPECT_EQ(hex(bytes), "01000000ffffffff0000c03f04000000ffffffff000000000000000000000000");
  EXPECT_EQ(packUniforms(fields({{"a", "u32"}}), {expr::Value(7)}, "P").size(), 16u);
  expectError(ErrorCode::Contract,
              [&] {
                packUniforms(fields({{"a", "u32"}}), {expr::Value(-1)}, "P");
              },
              {"P.a (u32) = -1"});
  expectError(ErrorCode::Contract,
              [&] {
                packUniforms(fields({{"a", "u32"}}), {expr::Value(int64_t{1} << 32)}, "P");
              },
              {"u32"});
  expectError(ErrorCode::Contract,
              [&] {
                packUniforms(fields({{"a", "u32"}}), {expr::Value(2.5)}, "P");
              },
              {"integer"});
  expectError(ErrorCode::Contract,
              [&] {
                packUniforms(fields({{"a", "i32"}}), {expr::Value("x")}, "P");
              },
              {"integer"});
  expectError(ErrorCode::Contract,
              [&] {
                packUniforms(fields({{"a", "f32"}}), {expr::Value(true)}, "P");
              },
              {"number"});
}

TEST(PlanParts, Folding) {
  EXPECT_EQ(foldDispatch(5, 1, 65535), (std::array<uint32_t, 3>{5, 1, 1}));
  EXPECT_EQ(foldDispatch(65535, 3, 65535), (std::array<uint32_t, 3>{65535, 1, 3}));
  bool folded = false;
  EXPECT_EQ(foldDispatch(65536, 1, 65535, &folded), (std::array<uint32_t, 3>{65535, 2, 1}));
  EXPECT_TRUE(folded);
  EXPECT_EQ(foldDispatch(65535ull * 65535, 1, 65535), (std::array<uint32_t, 3>{65535, 65535, 1}));
  expectError(ErrorCode::Unsupported, [] { foldDispatch(65535ull * 65535 + 1, 1, 65535); }, {"y = 65536"});
  // Balanced (threads dispatches): x = ceil(x / y), at most y - 1 surplus workgroups.
  EXPECT_EQ(foldDispatch(65536, 1, 65535, &folded, true), (std::array<uint32_t, 3>{32768, 2, 1}));
  EXPECT_TRUE(folded);
  EXPECT_EQ(foldDispatch(131071, 1, 65535, nullptr, true), (std::array<uint32_t, 3>{43691, 3, 1}));
  EXPECT_EQ(foldDispatch(65535, 1, 65535, nullptr, true), (std::array<uint32_t, 3>{65535, 1, 1}));
  EXPECT_EQ(foldDispatch(65535ull * 65535, 1, 65535, nullptr, true),
            (std::array<uint32_t, 3>{65535, 65535, 1}));
  expectError(ErrorCode::Unsupported, [] { foldDispatch(65535ull * 65535 + 1, 1, 65535, nullptr, true); },
              {"y = 65536"});
  expectError(ErrorCode::Unsupported, [] { foldDispatch(1, 70000, 65535); }, {"z = 70000"});
}

TEST(PlanParts, RequestKey) {
  PlanRequest a = request({{"X", f32({2, 8})}}, {{"axis", -1}});
  PlanRequest b = a;
  EXPECT_EQ(requestKey(a, "lvp"), requestKey(b, "lvp"));
  EXPECT_NE(requestKey(a, "lvp"), requestKey(a, "h200"));
  b.inputs["X"].shape = {28};
  EXPECT_NE(requestKey(a, "lvp"), requestKey(b, "lvp"));
  b = a;
  b.inputs["X"].dtype = DType::Float16;
  EXPECT_NE(requestKey(a, "lvp"), requestKey(b, "lvp"));
  b = a;
  b.attrs["axis"] = expr::Value(-1.0);
  EXPECT_NE(requestKey(a, "lvp"), requestKey(b, "lvp"));
  b = a;
  b.absent.insert("bias");
  EXPECT_NE(requestKey(a, "lvp"), requestKey(b, "lvp"));
  b = a;
  b.forcedVariant = "scalar";
  EXPECT_NE(requestKey(a, "lvp"), requestKey(b, "lvp"));
}

TEST(PlanParts, JsonAndText) {
  Plan p = planSeed("ai.onnx.RMSNormalization", request({{"x", f32({100000, 8})}, {"scale", f32({8})}}),
                    "lavapipe");
  package::Json j = p.toJson();
  EXPECT_EQ(j["variant"], "last_axis_row_vec4");
  EXPECT_EQ(j["variants"].size(), 6u);
  EXPECT_EQ(j["outputs"]["y"]["dtype"], "float32");
  EXPECT_EQ(j["outputs"]["y"]["shape"], package::Json::parse("[100000, 8]"));
  EXPECT_EQ(j["passes"][0]["dispatch"], package::Json::parse("[65535, 2, 1]"));
  EXPECT_EQ(j["passes"][0]["workgroups"], package::Json::parse("[100000, 1, 1]"));
  EXPECT_EQ(j["passes"][0]["uniforms"]["rowStride"], 65535);
  EXPECT_EQ(j["passes"][0]["bindings"][0]["arg"], "x");
  EXPECT_EQ(j["passes"][0]["bindings"][3]["kind"], "uniform");
  EXPECT_FALSE(j["passes"][0].contains("wgsl"));
  std::string text = p.toText();
  EXPECT_NE(text.find("variant last_axis_row_vec4 (selected by priority)"), std::string::npos) << text;
  EXPECT_NE(text.find("dispatch: 65535 x 2 x 1 (folded from 100000 workgroups in x)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("rowStride = 65535"), std::string::npos) << text;
  EXPECT_NE(text.find("suffix_axis_splitk"), std::string::npos);
}

// A `$name` element type resolves at plan time to a value an expression computed: it must be a
// WGSL element type, or the generated declarations would carry whatever the package wrote.
TEST(PlanParts, ResolvedElementTypeMustBeWgsl) {
  package::Json j = wgk::readOrderedJsonFile(std::string(WGK_SEEDS_DIR) + "/com.microsoft.FastGelu.manifest.json");
  j["variants"][0]["constants"]["vectorScalar"] = "\"vec4<f32>>; @group(0) @binding(7) var<storage> evil: array<u32\"";
  auto pkg = package::Package::fromManifest(package::parseManifest(j), WGK_SEEDS_DIR);
  Planner planner(pkg);
  wgk::plan::PlanOptions o;
  o.renderShaders = false;
  test::expectError(ErrorCode::Manifest,
                    [&] { planner.plan(test::request({{"X", test::f32({2, 8})}, {"bias", test::f32({8})}}),
                                       test::profile("lavapipe"), o); },
                    {"elementType $vectorScalar", "is not a WGSL element type"});
}

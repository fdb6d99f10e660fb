// The embedded ai.onnx.Add package (spec 2.1, the Hub's manifest byte for byte): the variant and
// dispatch every bench.json case gets on the H200 (expectations read from the manifest's rules),
// every variant reached by test.json for every dtype, and what the rendered WGSL must (not) hold.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "hub/digest.h"
#include "package/test_spec.h"
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {
const std::string kDir = std::string(WGK_SOURCE_DIR) + "/packages/webgpu-kernels/ai.onnx.Add";

const Planner& addPlanner() {
  static Planner p(package::Package::open(kDir));
  return p;
}

PlanRequest addRequest(DType t, Shape a, Shape b) {
  PlanRequest r;
  r.inputs["a"] = {t, std::move(a)};
  r.inputs["b"] = {t, std::move(b)};
  return r;
}

}  // namespace

// The Hub's ai.onnx.Add manifest (v1 branch, revision abafe9b9, as ../shared/hub-spec-2.1 holds it).
TEST(AddPackage, ManifestIsTheHubsFileByteForByte) {
  const std::string bytes = readFile(kDir + "/build/webgpu/manifest.json");
  EXPECT_EQ(hub::sha256Hex(bytes), "8b8cbb4170e4360a84e62f50cacd15df17a421390cbc7c0dc8475b028c375118");
  // The copy the Hub-manifest plan tests read (tests/data/hub) is the same file.
  EXPECT_EQ(bytes, readFile(std::string(WGK_SOURCE_DIR) + "/tests/data/hub/ai.onnx.Add/manifest.json"));
}

TEST(AddPackage, BenchCasesPlanAsTheManifestSays) {
  struct Want {
    std::string variant;
    std::array<uint32_t, 3> dispatch;
  };
  // Words = numel / 4; same_shape / scalar: vec4PerThread 4 up to 16 MiB of output, else 1;
  // x = min(ceilDiv(words / perThread, 256), 65535), y = ceilDiv(..., 65535).
  const std::map<std::string, Want> want = {
      {"smoke_4x64_f16", {"same_shape_vec4", {1, 1, 1}}},
      {"smoke_3x7_f32_bias", {"broadcast", {1, 1, 1}}},
      {"smoke_8x16_int8_bias", {"broadcast_vec4", {1, 1, 1}}},
      {"decode_residual_1x2048_f16", {"same_shape_vec4", {1, 1, 1}}},
      {"decode_residual_1x2304_f16", {"same_shape_vec4", {1, 1, 1}}},
      {"decode_residual_1x3072_f16", {"same_shape_vec4", {1, 1, 1}}},
      {"decode_residual_1x3584_f16", {"same_shape_vec4", {1, 1, 1}}},
      {"decode_residual_1x4096_f16", {"same_shape_vec4", {1, 1, 1}}},
      {"decode_residual_1x5120_f16", {"same_shape_vec4", {2, 1, 1}}},
      {"decode_residual_1x8192_f16", {"same_shape_vec4", {2, 1, 1}}},
      {"decode_residual_1x3072_f32", {"same_shape_vec4", {1, 1, 1}}},
      // [4608] is not [1, 4608]: not the same shape, so the broadcast kernel, 1152 words.
      {"decode_qkv_bias_1x4608_f16", {"broadcast_vec4", {5, 1, 1}}},
      {"prefill_residual_4096x4096_f16", {"same_shape_vec4", {16384, 1, 1}}},
      {"prefill_residual_4096x8192_f16", {"same_shape_vec4", {32768, 1, 1}}},
      {"prefill_residual_4096x5120_f32", {"same_shape_vec4", {20480, 1, 1}}},
      {"prefill_residual_8192x8192_f16", {"same_shape_vec4", {65535, 2, 1}}},
      {"prefill_qkv_bias_4096x4608_f16", {"broadcast_vec4", {18432, 1, 1}}},
      {"prefill_bias_8192x5120_f16", {"broadcast_vec4", {40960, 1, 1}}},
      {"prefill_bias_8192x4096_f32", {"broadcast_vec4", {32768, 1, 1}}},
      {"prefill_attn_mask_1x8x2048x2048_f16", {"broadcast_vec4", {32768, 1, 1}}},
      {"prefill_scalar_4096x8192_f16", {"scalar_b_vec4", {32768, 1, 1}}},
  };
  const auto bench = package::loadBenchFile(kDir + "/build/webgpu/bench.json");
  std::set<std::string> seen;
  for (const auto& c : bench.cases) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(want.count(c.name)) << "no expectation for bench case " << c.name;
    PlanRequest r;
    for (const auto& [n, t] : c.inputs) r.inputs[n] = {t.dtype, t.shape};
    Plan p = addPlanner().plan(r, profile("h200"), {.renderShaders = false});
    EXPECT_EQ(p.variant, want.at(c.name).variant);
    EXPECT_EQ(p.passes.at(0).dispatch, want.at(c.name).dispatch);
    seen.insert(c.name);
  }
  EXPECT_EQ(seen.size(), want.size());
}

// Every variant runs every dtype class in `wgk test --all-variants` on lavapipe.
TEST(AddPackage, TestCasesReachEveryVariantForEveryDtype) {
  const auto tests = package::loadTestFile(kDir + "/build/webgpu/test.json");
  std::set<std::pair<std::string, std::string>> reached;
  for (const auto& c : tests.cases) {
    if (c.skipGpu) continue;
    PlanRequest r;
    for (const auto& [n, t] : c.inputs) r.inputs[n] = {t.dtype, t.shape};
    Plan p = addPlanner().plan(r, profile("lavapipe"), {.renderShaders = false});
    for (const auto& v : p.variants)
      if (v.eligible) reached.insert({v.id, std::string(dtypeName(c.inputs.at("a").dtype))});
  }
  for (const auto& v : addPlanner().package().manifest().variants)
    for (const char* t : {"float32", "float16", "int32", "uint32", "int8", "uint8"})
      EXPECT_TRUE(reached.count({v.id, t})) << "no case runs " << v.id << " on " << t;
}

// No division or remainder per word: the one division that spreads a folded grid's words over its
// workgroups (binary-vec4.wgsl.jinja) comes before the loop over an invocation's words.
TEST(AddPackage, SameShapeWordsHaveNoDivision) {
  for (DType t : {DType::Float32, DType::Float16, DType::Int8}) {
    for (auto [a, b] : {std::pair<Shape, Shape>{{64, 64}, {64, 64}}, {{64, 64}, {1}}, {{}, {8, 8}}}) {
      Plan p = addPlanner().plan(addRequest(t, a, b), profile("h200"));
      SCOPED_TRACE(p.variant + " " + std::string(dtypeName(t)));
      EXPECT_NE(p.variant.find("vec4"), std::string::npos);
      const std::string wgsl = code(p.passes[0].wgsl);
      const size_t main = wgsl.find("fn main("), loop = wgsl.find("for (", main);
      ASSERT_NE(loop, std::string::npos) << p.passes[0].wgsl;
      EXPECT_FALSE(has(wgsl.substr(loop), "/")) << p.passes[0].wgsl;
      EXPECT_FALSE(has(wgsl.substr(loop), "%")) << p.passes[0].wgsl;
    }
  }
}

// Broadcast strides are literals: [4096, 4608] + [4608] locates a word with one division by the
// row length, and the bias word is four consecutive elements of b.
TEST(AddPackage, BroadcastStridesAreTemplateConstants) {
  Plan p = addPlanner().plan(addRequest(DType::Float16, {4096, 4608}, {4608}), profile("h200"));
  EXPECT_EQ(p.variant, "broadcast_vec4");
  const std::string wgsl = code(p.passes[0].wgsl);
  EXPECT_TRUE(has(wgsl, "let q0 = rest / 4608u;")) << wgsl;
  EXPECT_TRUE(has(wgsl, "offsets += q0 * vec2<u32>(4608u, 0u);")) << wgsl;
  EXPECT_TRUE(has(wgsl, "offsets += rest * vec2<u32>(1u, 1u);")) << wgsl;
  EXPECT_TRUE(has(wgsl, "let av = a[i];")) << wgsl;
  EXPECT_TRUE(has(wgsl, "b[o.y + 3u]")) << wgsl;
  // Output dimensions of extent 1 take no division; one division per other dimension but the last.
  Plan q = addPlanner().plan(addRequest(DType::Float32, {2, 1, 3, 1, 2, 1, 2}, {1, 4, 1, 5, 1, 3, 1}),
                             profile("h200"));
  const std::string w7 = code(q.passes[0].wgsl);
  size_t divisions = 0;
  for (size_t at = w7.find(" / "); at != std::string::npos; at = w7.find(" / ", at + 1)) ++divisions;
  EXPECT_EQ(divisions, 6u) << w7;  // c = [2, 4, 3, 5, 2, 3, 2]: seven dimensions > 1
  EXPECT_TRUE(has(w7, "let q0 = rest / 720u;")) << w7;
}

// float16: one conversion where the numerics probe found round-to-nearest-even, the integer
// rounding elsewhere (and in the Hub's loader, which has no device.numerics).
TEST(AddPackage, Float16RoundingFollowsTheNumericsProbe) {
  const PlanRequest r = addRequest(DType::Float16, {8, 8}, {8, 8});
  const std::string fast = addPlanner().plan(r, profile("h200")).passes[0].wgsl;
  EXPECT_TRUE(has(fast, "vec4<f16>(clamp(sum, vec4<f32>(-65520.0), vec4<f32>(65520.0)))")) << fast;
  EXPECT_FALSE(has(fast, "f16BitsOf(sum)"));
  DeviceProfile unprobed = profile("h200");
  unprobed.numerics.clear();
  const std::string portable = addPlanner().plan(r, unprobed).passes[0].wgsl;
  EXPECT_TRUE(has(portable, "packHalves(f16BitsOf(sum))")) << portable;
  EXPECT_FALSE(has(portable, "clamp(sum"));
  // Either way inf/NaN operands are resolved from their bits.
  EXPECT_TRUE(has(fast, "specialResult(xb, yb, xs, ys, F16_NAN)"));
  EXPECT_TRUE(has(portable, "specialResult(xb, yb, xs, ys, F16_NAN)"));
}

TEST(AddPackage, NarrowIntegersWrapInTheKernel) {
  const std::string i8 =
      addPlanner().plan(addRequest(DType::Int8, {4, 4}, {4, 4}), profile("h200")).passes[0].wgsl;
  EXPECT_TRUE(has(i8, "((x + y) << vec4<u32>(24u)) >> vec4<u32>(24u)")) << i8;
  EXPECT_TRUE(has(i8, "array<vec4<i32>>"));
  const std::string u8 =
      addPlanner().plan(addRequest(DType::Uint8, {3, 5}, {5}), profile("h200")).passes[0].wgsl;
  EXPECT_TRUE(has(u8, "(x + y) & vec4<u32>(0xffu)")) << u8;
  EXPECT_TRUE(has(u8, "array<u32>"));
  // Only f16 kernels enable f16: nothing f16 leaks into the others.
  EXPECT_FALSE(has(i8, "f16"));
  EXPECT_FALSE(has(u8, "f16"));
}

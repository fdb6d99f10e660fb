// The embedded ai.onnx.Softmax package (spec 2.1, the Hub's manifest byte for byte): the variant
// and first-pass dispatch every bench.json case gets on the H200 (expectations read from the
// manifest's rules), every variant reached by test.json for both dtypes (lavapipe, and the H200
// for the subgroup-rows variant lavapipe's 8-wide subgroups never take), and what the rendered
// WGSL of the online / subgroup-rows / packed-rows templates must (not) hold.
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
const std::string kDir = std::string(WGK_SOURCE_DIR) + "/packages/webgpu-kernels/ai.onnx.Softmax";

const Planner& softmaxPlanner() {
  static Planner p(package::Package::open(kDir));
  return p;
}

PlanRequest softmaxRequest(DType t, Shape x, int64_t axis = -1) {
  PlanRequest r;
  r.inputs["x"] = {t, std::move(x)};
  r.attrs["axis"] = axis;
  return r;
}

PlanRequest requestOf(const std::map<std::string, package::TensorSpec>& inputs,
                      const std::map<std::string, expr::Value>& attrs) {
  PlanRequest r;
  for (const auto& [n, t] : inputs) r.inputs[n] = {t.dtype, t.shape};
  r.attrs = attrs;
  return r;
}

}  // namespace

// The Hub's ai.onnx.Softmax manifest (v1 branch, revision 1986f903, as ../shared/hub-spec-2.1 holds it).
TEST(SoftmaxPackage, ManifestIsTheHubsFileByteForByte) {
  const std::string bytes = readFile(kDir + "/build/webgpu/manifest.json");
  EXPECT_EQ(hub::sha256Hex(bytes), "6ef4dc875cb09f7a27b24d9a7363fa510375e047424ebec85d8390549c64c210");
  EXPECT_EQ(bytes, readFile(std::string(WGK_SOURCE_DIR) + "/tests/data/hub/ai.onnx.Softmax/manifest.json"));
}

// H200: subgroups 32 wide (min = max), so combineSubgroups; subgroupRowsWorkgroup 256 (8 rows of
// 32 lanes). longrow_split: >= 65536 columns and <= 32 rows, grid (ceilDiv(cols, 1024), rows).
// Packed rows (19): <= 128 columns (vec4), > 32 rows, past 32 columns >= 64 groups of 32 rows.
// Subgroup rows (18): multiple of 4, 64..1024 columns (ceilDiv(cols / 4, 32) <= 8), >= 64 rows,
// grid ceilDiv(rows, 8). online_wg_vec4 (16), demoted below 128 columns; online_wg (15) > 32
// columns; online_local_* <= 32 columns. Row grids: x = min(rows, 65535), y = ceilDiv(rows, 65535).
TEST(SoftmaxPackage, BenchCasesPlanAsTheManifestSays) {
  struct Want {
    std::string variant;
    std::array<uint32_t, 3> dispatch;
  };
  const std::map<std::string, Want> want = {
      {"smoke_4x64_f16", {"online_wg", {4, 1, 1}}},  // online_wg_vec4 is demoted below 128 columns
      {"smoke_3x7_f32", {"online_local_nosg", {3, 1, 1}}},
      // axis 0 of [16, 4, 8]: outer 1, inner 32, tile min(128, max(8, pow2ceil(ceilDiv(32, 256)))) = 8.
      {"smoke_16x4x8_axis0_f32", {"strided_online_coop", {4, 1, 1}}},
      {"decode_attn_1x32x1x4096_f16", {"online_wg_vec4", {32, 1, 1}}},
      {"decode_attn_1x32x1x8192_f16", {"online_wg_vec4", {32, 1, 1}}},
      {"decode_attn_1x28x1x4096_f32", {"online_wg_vec4", {28, 1, 1}}},
      {"decode_attn_1x8x1x2048_f16", {"online_wg_vec4", {8, 1, 1}}},
      {"decode_vocab_1x128256_f16", {"longrow_split", {126, 1, 1}}},
      {"decode_vocab_1x128256_f32", {"longrow_split", {126, 1, 1}}},
      {"decode_vocab_8x151936_f16", {"longrow_split", {149, 8, 1}}},
      {"decode_vocab_8x151936_f32", {"longrow_split", {149, 8, 1}}},
      {"decode_vocab_1x256000_f16", {"longrow_split", {250, 1, 1}}},
      {"decode_vocab_1x256000_f32", {"longrow_split", {250, 1, 1}}},
      {"decode_vocab_64x128256_f16", {"online_wg_vec4", {64, 1, 1}}},  // 64 rows > LONGROW_SPLIT_MAX_ROWS
      {"prefill_attn_1x32x2048x2048_f16", {"online_wg_vec4", {65535, 2, 1}}},  // 65,536 rows fold into y
      {"prefill_attn_1x32x2048x2048_f32", {"online_wg_vec4", {65535, 2, 1}}},
      {"prefill_attn_1x28x2048x2048_f16", {"online_wg_vec4", {57344, 1, 1}}},
      {"prefill_attn_1x8x4096x4104_f16", {"online_wg_vec4", {32768, 1, 1}}},
      {"prefill_attn_1x16x1024x1024_f16", {"online_subgroup_rows_vec4", {2048, 1, 1}}},
      {"prefill_attn_1x32x512x512_f16", {"online_subgroup_rows_vec4", {2048, 1, 1}}},
      {"prefill_vocab_512x151936_f16", {"online_wg_vec4", {512, 1, 1}}},
      // axis 2 of [1, 32, 2048, 96]: outer 32, inner 96 (not > 128: no lane variant), tile 16.
      {"prefill_seq_axis2_1x32x2048x96_f16", {"strided_online_coop", {192, 1, 1}}},
      {"prefill_short_rows_65536x64_f16", {"online_packed_rows_vec4_nosg", {2048, 1, 1}}},
  };
  const auto bench = package::loadBenchFile(kDir + "/build/webgpu/bench.json");
  std::set<std::string> seen;
  for (const auto& c : bench.cases) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(want.count(c.name)) << "no expectation for bench case " << c.name;
    Plan p = softmaxPlanner().plan(requestOf(c.inputs, c.attrs), profile("h200"), {.renderShaders = false});
    EXPECT_EQ(p.variant, want.at(c.name).variant);
    EXPECT_EQ(p.passes.at(0).dispatch, want.at(c.name).dispatch);
    seen.insert(c.name);
  }
  EXPECT_EQ(seen.size(), want.size());
}

// `wgk test --all-variants` runs every variant on both dtypes: lavapipe reaches all but
// online_subgroup_rows_vec4 (its subgroups are 8 wide, the variant needs >= 16); the H200 that one.
TEST(SoftmaxPackage, TestCasesReachEveryVariantForBothDtypes) {
  const auto tests = package::loadTestFile(kDir + "/build/webgpu/test.json");
  std::map<std::string, std::set<std::pair<std::string, std::string>>> reached;
  for (const char* prof : {"lavapipe", "h200"})
    for (const auto& c : tests.cases) {
      if (c.skipGpu) continue;
      Plan p = softmaxPlanner().plan(requestOf(c.inputs, c.attrs), profile(prof), {.renderShaders = false});
      for (const auto& v : p.variants)
        if (v.eligible) reached[prof].insert({v.id, std::string(dtypeName(c.inputs.at("x").dtype))});
    }
  for (const auto& v : softmaxPlanner().package().manifest().variants)
    for (const char* t : {"float32", "float16"}) {
      const char* prof = v.id == "online_subgroup_rows_vec4" ? "h200" : "lavapipe";
      EXPECT_TRUE(reached[prof].count({v.id, t}))
          << "no case runs " << v.id << " on " << t << " (" << prof << ")";
    }
  EXPECT_FALSE(reached["lavapipe"].count({"online_subgroup_rows_vec4", "float32"}));
}

// The *_nosg variants and online_local_* use no subgroup operation; online_wg(_vec4) merge through
// subgroups where the device has them (lavapipe's and the H200's fixed widths are not "narrow").
TEST(SoftmaxPackage, SubgroupsOnlyWhereTheVariantSaysSo) {
  struct Case {
    std::string variant;
    Shape x;
    bool subgroups;
  };
  const std::vector<Case> cases = {{"online_packed_rows_vec4_nosg", {64, 16}, false},
                                   {"online_packed_rows_nosg", {64, 13}, false},
                                   {"online_local_vec4_nosg", {4, 16}, false},
                                   {"online_local_nosg", {4, 7}, false},
                                   {"online_wg_vec4", {4, 256}, true},
                                   {"online_wg", {4, 257}, true}};
  for (const char* prof : {"lavapipe", "h200", "no-subgroups"})
    for (const auto& c : cases)
      for (DType t : {DType::Float32, DType::Float16}) {
        SCOPED_TRACE(c.variant + " " + prof + " " + std::string(dtypeName(t)));
        PlanRequest r = softmaxRequest(t, c.x);
        r.forcedVariant = c.variant;
        const std::string wgsl = code(softmaxPlanner().plan(r, profile(prof)).passes.at(0).wgsl);
        EXPECT_EQ(has(wgsl, "subgroupAdd"), c.subgroups && std::string(prof) != "no-subgroups") << wgsl;
        EXPECT_EQ(has(wgsl, "enable f16;"), t == DType::Float16);
        // Special values are chosen from bits: NaN rows are written as NaN words.
        EXPECT_TRUE(has(wgsl, t == DType::Float16 ? "0x7e007e00u" : "0x7fc00000u"));
      }
}

// One subgroup per row on the H200: 8 rows per workgroup of 256, vecsPerLane words in registers.
TEST(SoftmaxPackage, SubgroupRowsHoldTheRowInRegisters) {
  Plan p = softmaxPlanner().plan(softmaxRequest(DType::Float16, {1, 16, 1024, 1024}), profile("h200"));
  ASSERT_EQ(p.variant, "online_subgroup_rows_vec4");
  const std::string wgsl = code(p.passes.at(0).wgsl);
  EXPECT_TRUE(has(wgsl, "@workgroup_size(256)")) << wgsl;
  EXPECT_TRUE(has(wgsl, "* 8u + slot")) << wgsl;
  EXPECT_TRUE(has(wgsl, "var words : array<vec4<f32>, 8>;")) << wgsl;
  EXPECT_TRUE(has(wgsl, "array<vec4<f16>>")) << wgsl;
  Plan q = softmaxPlanner().plan(softmaxRequest(DType::Float32, {64, 68}), profile("h200"));
  ASSERT_EQ(q.variant, "online_subgroup_rows_vec4");
  EXPECT_TRUE(has(code(q.passes.at(0).wgsl), "var words : array<vec4<f32>, 1>;"));
}

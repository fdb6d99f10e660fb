// RMSNormalization seed: expected variants and dispatches derived by hand from the manifest text.
// Shorthand: rows = outer(shapes.X, axisNorm), hidden = dim(X, axisNorm) * inner(X, axisNorm),
// normMaxWorkgroup = min(256, min(maxComputeInvocationsPerWorkgroup, maxComputeWorkgroupSizeX)).
// Priorities: stash_f16_serial 1000, last_axis_row_vec4 110, last_axis_row 100, suffix_axis_splitk
// 15, suffix_axis 10, last_axis 0. Profiles: lavapipe reports subgroups 8/8 (so
// reportedNonWave32Adapter is true and split-K is demoted), h200 32/32, no-subgroups reports none.
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {
const std::string kRms = "ai.onnx.RMSNormalization";
}

// x f32 [4, 4096], scale [4096]: lastAxisOk, T == V, numel(scale) == 4096 == dim(X, -1), 4096 % 4
// == 0, so last_axis_row_vec4 (110) wins. rows = 4 -> workgroups 4; Params {rows 4, rowStride
// max(1, min(4, 65535)) = 4} -> 8 bytes + 8 padding. split-K fails hidden 4096 >= 16384.
TEST(RmsPlan, LastAxisRowVec4) {
  Plan p = planSeed(kRms, request({{"x", f32({4, 4096})}, {"scale", f32({4096})}}), "lavapipe");
  EXPECT_EQ(p.variant, "last_axis_row_vec4");
  EXPECT_EQ(p.selectedBy, "priority");
  ASSERT_EQ(p.passes.size(), 1u);
  const PlannedPass& pass = p.passes[0];
  EXPECT_EQ(pass.shader, "norm-row-stats.wgsl.jinja");
  EXPECT_EQ(pass.dispatch, (std::array<uint32_t, 3>{4, 1, 1}));
  ASSERT_EQ(pass.bindings.size(), 4u);
  EXPECT_EQ(pass.bindings[0].elementType, "vec4<f32>");
  EXPECT_EQ(pass.bindings[2].elementType, "vec4<f32>");
  EXPECT_EQ(pass.bindings[2].kind, package::ResourceKind::Tensor);
  EXPECT_EQ(pass.bindings[2].resource, "y");
  EXPECT_EQ(pass.bindings[3].kind, package::ResourceKind::Uniform);
  EXPECT_EQ(hex(pass.bindings[3].uniformBytes), "04000000040000000000000000000000");
  EXPECT_EQ(p.outputs.at(0).name, "y");
  EXPECT_EQ(p.outputs.at(0).dtype, DType::Float32);
  EXPECT_EQ(p.outputs.at(0).shape, (Shape{4, 4096}));
  const auto& splitk = verdict(p, "suffix_axis_splitk");
  EXPECT_FALSE(splitk.eligible);
  EXPECT_EQ(splitk.reason,
            "when[3] `normalizedHidden >= tunables.SPLIT_MIN_HIDDEN` is false (normalizedHidden=4096, "
            "tunables.SPLIT_MIN_HIDDEN=16384)");
  EXPECT_TRUE(verdict(p, "last_axis_row").eligible);
  EXPECT_TRUE(verdict(p, "last_axis").eligible);
  EXPECT_NE(verdict(p, "stash_f16_serial").reason.find("stashF16Ok"), std::string::npos);
  EXPECT_NE(p.passes[0].declarations.find("@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;"),
            std::string::npos);
  EXPECT_NE(p.passes[0].declarations.find("struct Params { rows: u32, rowStride: u32, _pad0: u32, _pad1: u32 };"),
            std::string::npos);
  EXPECT_NE(p.passes[0].declarations.find("@group(0) @binding(3) var<uniform> params: Params;"),
            std::string::npos);
}

// hidden 4095 is not a multiple of 4: last_axis_row (100) instead, element type f16 (dtypes.T).
TEST(RmsPlan, LastAxisRowScalarWhenNotVec4) {
  Plan p = planSeed(kRms, request({{"x", f16({2, 4095})}, {"scale", f16({4095})}}), "lavapipe");
  EXPECT_EQ(p.variant, "last_axis_row");
  EXPECT_EQ(p.passes[0].bindings[0].elementType, "f16");
  EXPECT_NE(verdict(p, "last_axis_row_vec4").reason.find("when[5]"), std::string::npos);
}

// On the H200, with rows 2 <= 256 and hidden 16384, split-K is eligible and NOT demoted (32/32),
// but last_axis_row_vec4 (110) still outranks it (15): split-K only wins when the row variants fail.
TEST(RmsPlan, RowVec4OutranksSplitKOnH200) {
  Plan p = planSeed(kRms, request({{"x", f16({2, 16384})}, {"scale", f16({16384})}}), "h200");
  EXPECT_EQ(p.variant, "last_axis_row_vec4");
  const auto& s = verdict(p, "suffix_axis_splitk");
  EXPECT_TRUE(s.eligible);
  EXPECT_FALSE(s.demoted);
}

// Mixed T = f16, V = f32 [8, 16384]: the row variants need dtypes.T == dtypes.V. split-K: rows 8,
// hidden 16384, split = min(64, pow2ceil(ceilDiv(16384, 4096) = 4)) = 4; partials f32 [8 * 4].
// H200: not demoted -> split-K (15) over last_axis (0). Both passes dispatch (8, 1, z = 4).
TEST(RmsPlan, MixedTypesSplitKOnH200) {
  Plan p = planSeed(kRms, request({{"x", f16({8, 16384})}, {"scale", f32({16384})}}), "h200");
  EXPECT_EQ(p.variant, "suffix_axis_splitk");
  EXPECT_EQ(verdict(p, "last_axis_row_vec4").reason,
            "when[1] `dtypes.T == dtypes.V` is false (dtypes.T='f16', dtypes.V='f32')");
  ASSERT_EQ(p.intermediates.size(), 1u);
  EXPECT_EQ(p.intermediates[0].shape, (Shape{32}));
  EXPECT_EQ(p.intermediates[0].bytes, 128u);
  ASSERT_EQ(p.passes.size(), 2u);
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{8, 1, 4}));
  EXPECT_EQ(p.passes[1].dispatch, (std::array<uint32_t, 3>{8, 1, 4}));
  EXPECT_EQ(p.passes[0].bindings[0].elementType, "f16");
  EXPECT_EQ(p.passes[0].bindings[1].kind, package::ResourceKind::Intermediate);
  EXPECT_EQ(p.passes[0].bindings[1].resource, "partials");
  EXPECT_EQ(p.passes[1].bindings[1].elementType, "f32");  // scale: $ioElement = dtypes.V
  EXPECT_EQ(p.passes[1].bindings[3].elementType, "f32");  // y
  EXPECT_EQ(hex(p.passes[1].bindings[4].uniformBytes), "08000000080000000000000000000000");
  EXPECT_EQ(p.outputs[0].dtype, DType::Float32);  // Y has scale's dtype V
}

// Same request on lavapipe: split-K is eligible but demoted (subgroups 8/8), so last_axis (0)
// runs: rows 8, one pass (8, 1, 1). Without reported subgroup sizes nothing demotes it.
TEST(RmsPlan, SplitKDemotedOnLavapipe) {
  PlanRequest r = request({{"x", f16({8, 16384})}, {"scale", f32({16384})}});
  Plan p = planSeed(kRms, r, "lavapipe");
  EXPECT_EQ(p.variant, "last_axis");
  const auto& s = verdict(p, "suffix_axis_splitk");
  EXPECT_TRUE(s.eligible);
  EXPECT_TRUE(s.demoted);
  EXPECT_NE(s.reason.find("reportedNonWave32Adapter"), std::string::npos);
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{8, 1, 1}));
  EXPECT_EQ(planSeed(kRms, r, "no-subgroups").variant, "suffix_axis_splitk");
}

// axis = 1 of [2, 3, 8]: not the last axis -> suffix_axis (10); rows 2, hidden 24.
TEST(RmsPlan, SuffixAxis) {
  Plan p =
      planSeed(kRms, request({{"x", f32({2, 3, 8})}, {"scale", f32({3, 8})}}, {{"axis", -2}}), "lavapipe");
  EXPECT_EQ(p.variant, "suffix_axis");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(hex(p.passes[0].bindings[3].uniformBytes), "02000000020000000000000000000000");
}

// axis 1 of [4, 128, 256] on the H200: rows 4, hidden 32768 >= 16384, split = pow2ceil(8) = 8,
// so split-K (15) beats suffix_axis (10): partials [32], dispatch (4, 1, 8).
TEST(RmsPlan, SuffixAxisSplitK) {
  Plan p =
      planSeed(kRms, request({{"x", f32({4, 128, 256})}, {"scale", f32({128, 256})}}, {{"axis", 1}}), "h200");
  EXPECT_EQ(p.variant, "suffix_axis_splitk");
  EXPECT_EQ(p.intermediates[0].shape, (Shape{32}));
  EXPECT_EQ(p.passes[1].dispatch, (std::array<uint32_t, 3>{4, 1, 8}));
}

// stash_type 10: only stash_f16_serial's when (stashF16Ok) holds; baseOk needs stash_type 1.
TEST(RmsPlan, StashType10) {
  Plan p =
      planSeed(kRms, request({{"x", f16({3, 64})}, {"scale", f16({64})}}, {{"stash_type", 10}}), "lavapipe");
  EXPECT_EQ(p.variant, "stash_f16_serial");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{3, 1, 1}));
  for (const auto& v : p.variants)
    if (v.id != "stash_f16_serial") {
      EXPECT_FALSE(v.eligible) << v.id;
    }
}

// 100000 rows > 65535: x = 65535, y = ceilDiv(100000, 65535) = 2; rowStride = 65535 = x.
TEST(RmsPlan, FoldsAbove65535Rows) {
  Plan p = planSeed(kRms, request({{"x", f32({100000, 8})}, {"scale", f32({8})}}), "lavapipe");
  EXPECT_EQ(p.variant, "last_axis_row_vec4");
  EXPECT_EQ(p.passes[0].workgroups, (std::array<uint64_t, 3>{100000, 1, 1}));
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{65535, 2, 1}));
  EXPECT_TRUE(p.passes[0].folded);
  EXPECT_EQ(hex(p.passes[0].bindings[3].uniformBytes), "a0860100ffff00000000000000000000");
}

// Tiny limits (16 per dimension): 40 rows -> (16, 3, 1); 300 rows needs y = 19 > 16: an error.
TEST(RmsPlan, TinyLimitsFoldOrFail) {
  Plan p = planSeed(kRms, request({{"x", f32({40, 8})}, {"scale", f32({8})}}), "tiny-limits");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{16, 3, 1}));
  expectError(ErrorCode::Unsupported,
              [] {
                planSeed(kRms, request({{"x", f32({300, 8})}, {"scale", f32({8})}}), "tiny-limits");
              },
              {"y = 19", "maxComputeWorkgroupsPerDimension 16"});
}

// Empty tensors: zero rows, or zero hidden (normalizedDispatchRows = 0): the pass is skipped.
TEST(RmsPlan, EmptyTensorsSkip) {
  Plan a = planSeed(kRms, request({{"x", f32({0, 8})}, {"scale", f32({8})}}), "lavapipe");
  EXPECT_TRUE(a.passes[0].skipped);
  EXPECT_EQ(a.passes[0].dispatch, (std::array<uint32_t, 3>{0, 0, 0}));
  Plan b = planSeed(kRms, request({{"x", f32({4, 0})}, {"scale", f32({0})}}), "lavapipe");
  EXPECT_EQ(b.variant, "last_axis_row_vec4");
  EXPECT_TRUE(b.passes[0].skipped);
}

// A rank-0 scale broadcasts: the row variants fail when[2] `ranks.scale >= 1`; last_axis runs.
TEST(RmsPlan, ScalarScale) {
  Plan p = planSeed(kRms, request({{"x", f32({2, 8})}, {"scale", f32({})}}), "lavapipe");
  EXPECT_EQ(p.variant, "last_axis");
  EXPECT_NE(verdict(p, "last_axis_row").reason.find("when[2]"), std::string::npos);
}

// An evaluation error in one variant's when makes only that variant ineligible.
TEST(RmsPlan, WhenErrorOnlyDisqualifiesThatVariant) {
  package::Json j = wgk::readOrderedJsonFile(std::string(WGK_SEEDS_DIR) + "/" + kRms + ".manifest.json");
  j["variants"][5]["when"][2] = "dim(shapes.scale, -1) == 1";  // last_axis_row; fails on rank 0
  Planner planner(package::Package::fromManifest(package::parseManifest(j), WGK_SEEDS_DIR));
  wgk::plan::PlanOptions o;
  o.renderShaders = false;
  Plan p = planner.plan(request({{"x", f32({2, 8})}, {"scale", f32({})}}), profile("lavapipe"), o);
  EXPECT_EQ(p.variant, "last_axis");
  const auto& v = verdict(p, "last_axis_row");
  EXPECT_FALSE(v.eligible);
  EXPECT_NE(v.reason.find("when[2] `dim(shapes.scale, -1) == 1` failed"), std::string::npos) << v.reason;
}

TEST(RmsPlan, ContractErrors) {
  auto plan = [](PlanRequest r) { return [r] { planSeed(kRms, r, "lavapipe"); }; };
  expectError(ErrorCode::Contract, plan(request({{"x", f32({2, 8})}, {"scale", f32({8})}, {"z", f32({1})}})),
              {"unknown input 'z'", "x, scale"});
  expectError(ErrorCode::Contract, plan(request({{"x", f32({2, 8})}})), {"missing required input 'scale'"});
  expectError(ErrorCode::Contract, plan(request({{"x", {DType::Int32, {2, 8}}}, {"scale", f32({8})}})),
              {"int32", "type T allows only float32, float16"});
  expectError(ErrorCode::Contract,
              plan(request({{"x", f32({2, 8})}, {"scale", f32({8})}, {"y", f32({2, 8})}})),
              {"'y' is an output"});
  expectError(ErrorCode::Contract, plan(request({{"x", f32({2, 8})}, {"scale", f32({8})}}, {{"foo", 1}})),
              {"unknown attribute 'foo'", "axis, epsilon, stash_type"});
  expectError(ErrorCode::Contract,
              plan(request({{"x", f32({2, 8})}, {"scale", f32({8})}}, {{"stash_type", 2}})),
              {"stash_type = 2", "attributeConstraints.stash_type.values [1, 10]"});
  expectError(ErrorCode::Contract,
              plan(request({{"x", f32({2, 8})}, {"scale", f32({8})}}, {{"axis", "last"}})),
              {"attribute 'axis' must be a number"});
  PlanRequest absent = request({{"x", f32({2, 8})}, {"scale", f32({8})}});
  absent.absent.insert("scale");
  expectError(ErrorCode::Contract, plan(absent), {"both given and marked absent"});
}

// Bad shapes reach no variant: the error lists all six with their reasons.
TEST(RmsPlan, NoVariantListsEveryVariant) {
  std::string text = expectError(
      ErrorCode::NoVariant,
      [] {
        planSeed(kRms, request({{"x", f32({2, 8})}, {"scale", f32({3})}}), "lavapipe");
      },
      {"no variant of ai.onnx.RMSNormalization is eligible", "stash_f16_serial", "suffix_axis_splitk",
       "last_axis_row_vec4", "last_axis_row", "suffix_axis", "last_axis (priority 0)"});
}

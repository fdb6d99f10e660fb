// FastGelu seed, derived by hand. workgroupSize = min(256, min(1024, 1024)) = 256 on lavapipe/h200.
// Priorities: vec4_bias 30, vec4_no_bias 25, vec4_tail_bias 20, vec4_tail_no_bias 15,
// scalar_bias 10, scalar_no_bias 0.
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {
const std::string kGelu = "com.microsoft.FastGelu";
}

// X [2, 8] + bias [8]: biasOk, vec4Ok (16 % 4, 8 % 4) -> vec4_bias. threads 16 / 4 = 4.0 (a float:
// `/` is true division) -> 1 workgroup. Params.count = 4; bias is array<f32, 8> ($hidden = 8).
TEST(GeluPlan, Vec4Bias) {
  Plan p = planSeed(kGelu, request({{"X", f32({2, 8})}, {"bias", f32({8})}}), "lavapipe");
  EXPECT_EQ(p.variant, "vec4_bias");
  const PlannedPass& pass = p.passes.at(0);
  EXPECT_EQ(pass.dispatch, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_EQ(pass.bindings[0].elementType, "vec4<f32>");
  EXPECT_EQ(pass.bindings[1].elementType, "f32");
  EXPECT_EQ(pass.bindings[1].length.value_or(0), 8);
  EXPECT_NE(pass.declarations.find("var<storage, read> bias: array<f32, 8u>;"), std::string::npos);
  EXPECT_NE(pass.declarations.find("var<storage, read_write> y: array<vec4<f32>>;"), std::string::npos);
  EXPECT_EQ(hex(pass.bindings[3].uniformBytes), "04000000000000000000000000000000");
  EXPECT_EQ(p.outputs[0].name, "Y");
  EXPECT_EQ(p.outputs[0].shape, (Shape{2, 8}));
}

// No bias, f16: vec4_no_bias with the 3-binding set; Y is f16 (type T).
TEST(GeluPlan, Vec4NoBiasF16) {
  Plan p = planSeed(kGelu, request({{"X", f16({2, 8})}}), "lavapipe");
  EXPECT_EQ(p.variant, "vec4_no_bias");
  EXPECT_EQ(p.passes[0].bindings.size(), 3u);
  EXPECT_EQ(p.passes[0].bindings[0].elementType, "vec4<f16>");
  EXPECT_EQ(p.outputs[0].dtype, DType::Float16);
  EXPECT_NE(verdict(p, "vec4_bias").reason.find("biasOk"), std::string::npos);
}

// [3, 5] + bias [5]: 15 % 4 != 0 -> vec4_tail_bias, threads ceilDiv(15, 4) = 4, count 15.
TEST(GeluPlan, TailBias) {
  Plan p = planSeed(kGelu, request({{"X", f32({3, 5})}, {"bias", f32({5})}}), "lavapipe");
  EXPECT_EQ(p.variant, "vec4_tail_bias");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_EQ(hex(p.passes[0].bindings[3].uniformBytes), "0f000000000000000000000000000000");
}

// 1e6 elements: threads 250000 -> ceilDiv(250000, 256) = 977 workgroups.
TEST(GeluPlan, ManyWorkgroups) {
  Plan p = planSeed(kGelu, request({{"X", f32({1000, 1000})}}), "lavapipe");
  EXPECT_EQ(p.variant, "vec4_no_bias");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{977, 1, 1}));
}

// 71,680,000 f32 (287 MB: only the H200's 2 GiB binding fits it): threads 17,920,000 ->
// 70000 workgroups -> folded, balanced (a `threads` dispatch): y = 2, x = 35000. On lavapipe
// buffersFit fails: no variant.
TEST(GeluPlan, FoldsOnH200AndDoesNotFitLavapipe) {
  PlanRequest r = request({{"X", f32({70000, 1024})}});
  Plan p = planSeed(kGelu, r, "h200");
  EXPECT_EQ(p.passes[0].workgroups[0], 70000u);
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{35000, 2, 1}));
  EXPECT_TRUE(p.passes[0].folded);
  expectError(ErrorCode::NoVariant, [&] { planSeed(kGelu, r, "lavapipe"); },
              {"when[0] `baseOk` is false (baseOk=false)"});
}

// Empty X: the vec4 and tail variants need numel > 0; scalar_no_bias runs 0 threads: skipped.
TEST(GeluPlan, EmptySkips) {
  Plan p = planSeed(kGelu, request({{"X", f32({0, 8})}}), "lavapipe");
  EXPECT_EQ(p.variant, "scalar_no_bias");
  EXPECT_TRUE(p.passes[0].skipped);
}

TEST(GeluPlan, WrongBiasLengthHasNoVariant) {
  expectError(ErrorCode::NoVariant,
              [] {
                planSeed(kGelu, request({{"X", f32({2, 8})}, {"bias", f32({4})}}), "lavapipe");
              },
              {"vec4_bias", "scalar_no_bias", "noBiasOk"});
}

TEST(GeluPlan, ContractErrors) {
  expectError(ErrorCode::Contract,
              [] {
                planSeed(kGelu, request({{"X", f32({2, 8})}, {"bias", f32({1, 8})}}), "lavapipe");
              },
              {"'bias' must have rank 1"});
  expectError(ErrorCode::Contract,
              [] {
                planSeed(kGelu, request({{"X", f32({2, 8})}, {"bias", f16({8})}}), "lavapipe");
              },
              {"type T is bound to float32 by 'X' but to float16 by 'bias'"});
  PlanRequest r = request({{"X", f32({2, 8})}});
  r.absent.insert("X");
  expectError(ErrorCode::Contract, [&] { planSeed(kGelu, r, "lavapipe"); }, {"both given and marked absent"});
  PlanRequest s = request({{"X", f32({2, 8})}});
  s.absent.insert("bias");
  EXPECT_EQ(planSeed(kGelu, s, "lavapipe").variant, "vec4_no_bias");
}

TEST(GeluPlan, ForcedAndPreferredVariants) {
  PlanRequest r = request({{"X", f32({2, 8})}});
  r.forcedVariant = "scalar_no_bias";
  Plan p = planSeed(kGelu, r, "lavapipe");
  EXPECT_EQ(p.variant, "scalar_no_bias");
  EXPECT_EQ(p.selectedBy, "forced");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{1, 1, 1}));  // 16 threads
  r.forcedVariant = "vec4_bias";
  expectError(ErrorCode::NoVariant, [&] { planSeed(kGelu, r, "lavapipe"); },
              {"forced variant 'vec4_bias' is not eligible", "biasOk"});
  r.forcedVariant = "vec8";
  expectError(ErrorCode::InvalidArgument, [&] { planSeed(kGelu, r, "lavapipe"); },
              {"unknown variant 'vec8'"});
  r.forcedVariant.clear();
  r.preferredVariant = "vec4_tail_no_bias";
  Plan t = planSeed(kGelu, r, "lavapipe");
  EXPECT_EQ(t.variant, "vec4_tail_no_bias");
  EXPECT_EQ(t.selectedBy, "tuning");
  r.preferredVariant = "vec4_bias";  // ineligible: the tuning hint is ignored
  Plan u = planSeed(kGelu, r, "lavapipe");
  EXPECT_EQ(u.variant, "vec4_no_bias");
  EXPECT_EQ(u.selectedBy, "priority");
}

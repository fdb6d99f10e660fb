// GemmaRotaryEmbedding seed, derived by hand: T = float16 only, U = float32, both variants require
// shader-f16; vec4 (10) needs headDim % 4 == 0; workgroupSize = tunables.workgroupSize = 256.
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {
const std::string kGemma = "com.microsoft.GemmaRotaryEmbedding";
}  // namespace

// [1, 8, 16, 256]: numel 32768, threads 8192 -> 32 workgroups. Params {count 8192, seqDim
// 16*256/4 = 1024, headSeqDim 8*16*256/4 = 8192}: 12 bytes + 4 padding. The contract derive reads
// tensorDtypes.output1T, so outputs must be in scope before derive.
TEST(GemmaPlan, Vec4) {
  Plan p = planSeed(kGemma, ropeRequest(1, 8, 16, 256), "lavapipe");
  EXPECT_EQ(p.variant, "vec4");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{32, 1, 1}));
  EXPECT_EQ(hex(p.passes[0].bindings[7].uniformBytes), "00200000000400000020000000000000");
  EXPECT_EQ(p.passes[0].bindings[0].elementType, "vec4<f32>");
  EXPECT_EQ(p.passes[0].bindings[1].elementType, "vec4<f16>");
  ASSERT_EQ(p.outputs.size(), 2u);
  EXPECT_EQ(p.outputs[1].name, "output2T");
  EXPECT_EQ(p.outputs[1].dtype, DType::Float16);
  EXPECT_EQ(p.outputs[1].shape, (Shape{1, 8, 16, 256}));
}

// 3 heads, head dim 6: vec4Ok fails -> scalar; threads max(1, 90) = 90 -> 1 workgroup;
// Params {90, 30, 90}.
TEST(GemmaPlan, ScalarWhenHeadDimNotMultipleOf4) {
  Plan p = planSeed(kGemma, ropeRequest(1, 3, 5, 6), "lavapipe");
  EXPECT_EQ(p.variant, "scalar");
  EXPECT_EQ(verdict(p, "vec4").reason,
            "when[1] `vec4Ok` is false (vec4Ok=false); via vec4Ok: `headDim % 4 == 0` is false (headDim=6)");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_EQ(hex(p.passes[0].bindings[7].uniformBytes), "5a0000001e0000005a00000000000000");
  EXPECT_EQ(p.passes[0].bindings[1].elementType, "f16");
}

// [1, 32, 8192, 256] = 67,108,864 elements: 65536 workgroups -> folded, balanced (32768, 2, 1).
TEST(GemmaPlan, FoldsLargeDispatch) {
  Plan p = planSeed(kGemma, ropeRequest(1, 32, 8192, 256), "lavapipe");
  EXPECT_EQ(p.passes[0].workgroups[0], 65536u);
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{32768, 2, 1}));
}

TEST(GemmaPlan, NoF16DeviceHasNoVariant) {
  expectError(ErrorCode::NoVariant, [] { planSeed(kGemma, ropeRequest(1, 8, 16, 256), "no-f16"); },
              {"vec4 (priority 10): requires feature shader-f16",
               "scalar (priority 0): requires feature shader-f16"});
}

TEST(GemmaPlan, ContractErrors) {
  PlanRequest r = ropeRequest(1, 2, 4, 8);
  r.inputs["qT"].dtype = DType::Float32;
  expectError(ErrorCode::Contract, [&] { planSeed(kGemma, r, "lavapipe"); },
              {"'qT' has dtype float32", "allows only float16"});
  PlanRequest e = ropeRequest(1, 2, 4, 8);
  e.inputs["embT"].dtype = DType::Float16;
  expectError(ErrorCode::Contract, [&] { planSeed(kGemma, e, "lavapipe"); }, {"'embT' must be float32"});
  PlanRequest k = ropeRequest(1, 2, 4, 8);
  k.inputs["kT"].shape = {2, 4, 8};
  expectError(ErrorCode::Contract, [&] { planSeed(kGemma, k, "lavapipe"); }, {"'kT' must have rank 4"});
  PlanRequest s = ropeRequest(1, 2, 4, 8);
  s.inputs["kT"].shape = {1, 2, 4, 4};  // right rank, wrong shape: the `contract` derive is false
  expectError(ErrorCode::NoVariant, [&] { planSeed(kGemma, s, "lavapipe"); },
              {"when[0] `contract` is false"});
}

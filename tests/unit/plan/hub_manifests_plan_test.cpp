// The Hub's three real spec 2.1 manifests (tests/data/hub/*/manifest.json, byte for byte the
// files of ../shared/hub-spec-2.1): chosen variant and every pass's dispatch, derived by hand from
// the manifests' text (the derivation is in each test's comment), on the lavapipe, H200, no-f16
// and no-subgroups profiles. Profiles: lavapipe and no-f16 report subgroups 8/8, h200 32/32,
// no-subgroups neither the feature nor sizes; maxComputeInvocationsPerWorkgroup 1024 everywhere.
#include <fstream>
#include <sstream>

#include "hub/digest.h"
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {

const Planner& hubPlanner(const std::string& id) {
  static std::map<std::string, std::unique_ptr<Planner>> cache;
  auto& p = cache[id];
  if (!p) p = std::make_unique<Planner>(package::Package::open(std::string(WGK_SOURCE_DIR) + "/tests/data/hub/" + id));
  return *p;
}

Plan planHub(const std::string& id, const PlanRequest& r, const std::string& profileName) {
  wgk::plan::PlanOptions o;
  o.renderShaders = false;  // the Hub's templates are not public
  return hubPlanner(id).plan(r, profile(profileName), o);
}

using Grid = std::array<uint32_t, 3>;

TensorDesc t(DType d, Shape s) {
  return {d, std::move(s)};
}

const std::vector<std::string> kAllProfiles = {"lavapipe", "h200", "no-f16", "no-subgroups"};

}  // namespace

// The copies are the Hub's bytes (sha256 of ../shared/hub-spec-2.1/ai.onnx.*.manifest.json).
TEST(HubManifests, CopiesAreTheHubsBytes) {
  const std::map<std::string, std::string> sha = {
      {"ai.onnx.Add", "8b8cbb4170e4360a84e62f50cacd15df17a421390cbc7c0dc8475b028c375118"},
      {"ai.onnx.Softmax", "6ef4dc875cb09f7a27b24d9a7363fa510375e047424ebec85d8390549c64c210"},
      {"ai.onnx.MatMul", "044fbe5c6081bde54b479b3dfca97e34aca6fb5ae6793a1c11c10ef9e136e281"}};
  for (const auto& [id, want] : sha) {
    std::ifstream in(std::string(WGK_SOURCE_DIR) + "/tests/data/hub/" + id + "/manifest.json", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(hub::sha256Hex(ss.str()), want) << id;
  }
}

TEST(HubManifests, LoadUnchanged) {
  const auto& add = hubPlanner("ai.onnx.Add").package().manifest();
  EXPECT_EQ(add.dialect, package::Dialect::Spec21);
  EXPECT_EQ(add.variants.size(), 5u);
  EXPECT_EQ(add.sinceVersion, 14);
  ASSERT_NE(add.findPort("c"), nullptr);
  EXPECT_EQ(add.findPort("a")->onnx, "A");
  // Handles resolve to per-pass bindings: c_binary is port c under the WGSL name c.
  const auto& pass = add.variants[0].passes[0].pass;
  ASSERT_EQ(pass.bindings.size(), 4u);
  EXPECT_EQ(pass.bindings[2].name, "c");
  EXPECT_EQ(pass.bindings[2].resource, "c");
  EXPECT_EQ(pass.bindings[2].type, package::BufferType::Storage);
  EXPECT_EQ(pass.bindings[2].elementType, "$vectorScalar");
  EXPECT_EQ(pass.bindings[0].type, package::BufferType::ReadOnlyStorage);
  const auto& softmax = hubPlanner("ai.onnx.Softmax").package().manifest();
  EXPECT_EQ(softmax.variants.size(), 12u);
  EXPECT_EQ(softmax.attributeDefault("axis")->asInt(), -1);
  // Softmax's top-level handle rowMax binds the variant's intermediate of that name.
  const auto* stable = softmax.findVariant("stable_3pass");
  ASSERT_NE(stable, nullptr);
  EXPECT_EQ(stable->passes[0].pass.bindings[1].kind, package::ResourceKind::Intermediate);
  EXPECT_EQ(stable->passes[0].pass.bindings[1].resource, "rowMax");
  const auto& matmul = hubPlanner("ai.onnx.MatMul").package().manifest();
  EXPECT_EQ(matmul.variants.size(), 49u);
  EXPECT_EQ(matmul.findVariant("dot")->supersededBy, std::vector<std::string>{"dot_splitk"});
}

// a, b f32 [4096]: same_shape_vec4 (20) holds (same shapes, 4096 % 4 == 0). vec4PerThread = 4
// (16 KiB <= 16 MiB); x = min(ceilDiv(ceilDiv(1024, 4), 256), 65535) = 1, y = ceilDiv(1, 65535) = 1.
// Params.count = 4096 / 4 = 1024. No rule reads the device: the same on every profile.
TEST(HubAddPlan, SameShapeVec4OnEveryProfile) {
  for (const auto& prof : kAllProfiles) {
    Plan p = planHub("ai.onnx.Add", request({{"a", f32({4096})}, {"b", f32({4096})}}), prof);
    EXPECT_EQ(p.variant, "same_shape_vec4") << prof;
    ASSERT_EQ(p.passes.size(), 1u);
    EXPECT_EQ(p.passes[0].dispatch, (Grid{1, 1, 1})) << prof;
    EXPECT_EQ(hex(p.passes[0].bindings[3].uniformBytes), "00040000000000000000000000000000");
    EXPECT_EQ(p.passes[0].bindings[0].elementType, "vec4<f32>");
    EXPECT_EQ(p.outputs[0].shape, (Shape{4096}));
  }
}

// [64, 1048576] f32: 256 MiB > 16 MiB so vec4PerThread = 1; vec4 count 16777216 / 256 = 65536
// workgroups: x = min(65536, 65535) = 65535, y = ceilDiv(65536, 65535) = 2 (the 2D fold).
TEST(HubAddPlan, LargeSameShapeFoldsIntoY) {
  Plan p = planHub("ai.onnx.Add", request({{"a", f32({64, 1048576})}, {"b", f32({64, 1048576})}}), "h200");
  EXPECT_EQ(p.variant, "same_shape_vec4");
  EXPECT_EQ(p.passes[0].dispatch, (Grid{65535, 2, 1}));
  EXPECT_FALSE(p.passes[0].folded);  // the manifest folds; the planner never does for a grid
}

// fuzz_planner's finding: a request whose element count overflows 64 bits is refused with an
// error naming the shape (it was undefined behaviour in numel()).
TEST(HubAddPlan, ShapeBeyondSixtyFourBitsIsRefused) {
  const Shape huge{int64_t{1} << 53, int64_t{1} << 56};
  try {
    planHub("ai.onnx.Add", request({{"a", f32(huge)}, {"b", f32(huge)}}), "h200");
    FAIL() << "planned a shape of 2^109 elements";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
    EXPECT_NE(std::string(e.what()).find("more elements than 64 bits"), std::string::npos) << e.what();
  }
}

// f16 [8] + [1]: same_shape_vec4 fails sameShape(b, c); scalar_b_vec4 (18) holds: x = ceilDiv(
// ceilDiv(2, 4), 256) = 1. On no-f16, f16Ok(f16) is false for every variant.
TEST(HubAddPlan, ScalarRhsAndNoF16) {
  for (const auto& prof : {"lavapipe", "h200", "no-subgroups"}) {
    Plan p = planHub("ai.onnx.Add", request({{"a", f16({8})}, {"b", f16({1})}}), prof);
    EXPECT_EQ(p.variant, "scalar_b_vec4") << prof;
    EXPECT_EQ(p.passes[0].dispatch, (Grid{1, 1, 1}));
    EXPECT_EQ(p.passes[0].bindings[1].elementType, "f16");  // b_scalar: $scalar = dtypes.T
    EXPECT_FALSE(verdict(p, "same_shape_vec4").eligible);
  }
  expectError(ErrorCode::NoVariant,
              [] { planHub("ai.onnx.Add", request({{"a", f16({8})}, {"b", f16({1})}}), "no-f16"); },
              {"no variant of ai.onnx.Add is eligible", "f16Ok(dtypes.T)"});
}

// [2, 3, 8] + [8] f32: not same-shape, b is not a scalar, so broadcast_vec4 (10): 48 % 4 == 0 and
// 48 >= 4; x = min(ceilDiv(12, 256), 65535) = 1. aElement = vec4<f32> (a's shape is c's),
// bElement = f32.
TEST(HubAddPlan, BroadcastVec4) {
  for (const auto& prof : kAllProfiles) {
    Plan p = planHub("ai.onnx.Add", request({{"a", f32({2, 3, 8})}, {"b", f32({8})}}), prof);
    EXPECT_EQ(p.variant, "broadcast_vec4") << prof;
    EXPECT_EQ(p.passes[0].dispatch, (Grid{1, 1, 1}));
    EXPECT_EQ(p.passes[0].bindings[0].elementType, "vec4<f32>");
    EXPECT_EQ(p.passes[0].bindings[1].elementType, "f32");
    EXPECT_EQ(p.outputs[0].shape, (Shape{2, 3, 8}));
  }
}

// int8 [3] + [3]: 3 % 4 != 0 rules out the vec4 variants; broadcast (0) with i32 words
// (dtypes.T = "i32": int8 is stored widened); x = ceilDiv(ceilDiv(3, 4), 256) = 1.
// Rank 0 (scalars): broadcast_vec4 needs ranks.c >= 1, so broadcast again. Zero-size: c = [0, 4]
// is empty, so the pass is skipped (dispatch 0 x 0 x 0 and nothing to run).
TEST(HubAddPlan, IntegerRankZeroAndEmpty) {
  Plan i8 = planHub("ai.onnx.Add", request({{"a", t(DType::Int8, {3})}, {"b", t(DType::Int8, {3})}}), "lavapipe");
  EXPECT_EQ(i8.variant, "broadcast");
  EXPECT_EQ(i8.passes[0].dispatch, (Grid{1, 1, 1}));
  EXPECT_EQ(i8.passes[0].bindings[0].elementType, "i32");
  EXPECT_EQ(i8.outputs[0].dtype, DType::Int8);
  Plan r0 = planHub("ai.onnx.Add", request({{"a", f32({})}, {"b", f32({})}}), "h200");
  EXPECT_EQ(r0.variant, "broadcast");
  EXPECT_EQ(r0.outputs[0].shape, (Shape{}));
  EXPECT_EQ(r0.passes[0].dispatch, (Grid{1, 1, 1}));
  Plan empty = planHub("ai.onnx.Add", request({{"a", f32({0, 4})}, {"b", f32({4})}}), "lavapipe");
  EXPECT_EQ(empty.variant, "broadcast");
  EXPECT_TRUE(empty.passes[0].skipped);
  // Broadcasting that does not fit: broadcastShape fails -> a contract error naming both shapes.
  expectError(ErrorCode::Contract,
              [] { planHub("ai.onnx.Add", request({{"a", f32({2, 3})}, {"b", f32({4})}}), "lavapipe"); },
              {"broadcastShape", "[2, 3]", "[4]"});
}

// Softmax x f32 [8, 1000], axis -1. lastCols 1000, lastRows 8. longrow_split (30) needs 65536
// cols; the packed-rows variants (19) need <= 128 / 256 cols; online_subgroup_rows_vec4 (18)
// needs subgroupMinSize >= 16 (lavapipe: 8) and 64 rows (h200: only 8); online_wg_vec4 (16):
// 1000 % 4 == 0, not demoted (1000 >= 128) -> wins. x = min(8, 65535) = 8, y = ceilDiv(8, 65535)
// = 1. Params {rows 8, vecCols 250}.
TEST(HubSoftmaxPlan, OnlineWorkgroupVec4) {
  for (const auto& prof : kAllProfiles) {
    Plan p = planHub("ai.onnx.Softmax", request({{"x", f32({8, 1000})}}), prof);
    EXPECT_EQ(p.variant, "online_wg_vec4") << prof;
    EXPECT_EQ(p.passes[0].dispatch, (Grid{8, 1, 1})) << prof;
    EXPECT_EQ(hex(p.passes[0].bindings[2].uniformBytes), "08000000fa0000000000000000000000");
    EXPECT_EQ(p.passes[0].bindings[0].elementType, "vec4<f32>");
  }
}

// x f16 [128, 1024] on the H200: subgroupMinSize 32 >= 16; lanes vecs = ceilDiv(256, 32) = 8 <= 8;
// 128 rows >= 64; workgroup min(256, 1024) = 256 is a power of two >= 32 -> online_subgroup_rows_vec4
// (18): x = min(ceilDiv(128, 256 / 32), 65535) = 16, y = 1. On lavapipe (8 < 16) and no-subgroups
// (no feature) online_wg_vec4 takes it: x = 128. On no-f16 every variant needs f16Ok or a strided
// axis: none is eligible.
TEST(HubSoftmaxPlan, SubgroupRowsOnTheH200Only) {
  const PlanRequest r = request({{"x", f16({128, 1024})}});
  Plan h = planHub("ai.onnx.Softmax", r, "h200");
  EXPECT_EQ(h.variant, "online_subgroup_rows_vec4");
  EXPECT_EQ(h.passes[0].dispatch, (Grid{16, 1, 1}));
  for (const auto& prof : {"lavapipe", "no-subgroups"}) {
    Plan p = planHub("ai.onnx.Softmax", r, prof);
    EXPECT_EQ(p.variant, "online_wg_vec4") << prof;
    EXPECT_EQ(p.passes[0].dispatch, (Grid{128, 1, 1}));
  }
  EXPECT_NE(verdict(planHub("ai.onnx.Softmax", r, "lavapipe"), "online_subgroup_rows_vec4").reason.find("subgroupMinSize"),
            std::string::npos);
  EXPECT_NE(verdict(planHub("ai.onnx.Softmax", r, "no-subgroups"), "online_subgroup_rows_vec4").reason.find("subgroups"),
            std::string::npos);
  expectError(ErrorCode::NoVariant, [&] { planHub("ai.onnx.Softmax", r, "no-f16"); }, {"no variant", "ai.onnx.Softmax"});
}

// x f32 [64, 32]: packed rows: 32 % 4 == 0, 32 <= 128, 64 > 32 rows, cols <= 32 ->
// online_packed_rows_vec4_nosg (19): x = min(ceilDiv(64, 32), 65535) = 2, y = 1.
// x f32 [4, 16]: only 4 rows; online_wg_vec4 is eligible but demoted (16 < 128);
// online_local_vec4_nosg (14) wins undemoted: x = min(4, 65535) = 4.
TEST(HubSoftmaxPlan, PackedRowsAndLocal) {
  for (const auto& prof : kAllProfiles) {
    Plan packed = planHub("ai.onnx.Softmax", request({{"x", f32({64, 32})}}), prof);
    EXPECT_EQ(packed.variant, "online_packed_rows_vec4_nosg") << prof;
    EXPECT_EQ(packed.passes[0].dispatch, (Grid{2, 1, 1}));
    Plan local = planHub("ai.onnx.Softmax", request({{"x", f32({4, 16})}}), prof);
    EXPECT_EQ(local.variant, "online_local_vec4_nosg") << prof;
    EXPECT_EQ(local.passes[0].dispatch, (Grid{4, 1, 1}));
    EXPECT_TRUE(verdict(local, "online_wg_vec4").demoted);
  }
}

// x f32 [2, 131072]: longrow_split (30): 131072 >= 65536 cols, 2 <= 32 rows, 128 blocks of 1024.
// Passes: block_stats x = 128, y = 2; row_stats x = 2; normalize x = 128, y = 2. Intermediates
// blockMax/blockSum [256], rowMax/rowSum [2], f32.
TEST(HubSoftmaxPlan, LongRowSplitThreePasses) {
  for (const auto& prof : kAllProfiles) {
    Plan p = planHub("ai.onnx.Softmax", request({{"x", f32({2, 131072})}}), prof);
    EXPECT_EQ(p.variant, "longrow_split") << prof;
    ASSERT_EQ(p.passes.size(), 3u);
    EXPECT_EQ(p.passes[0].dispatch, (Grid{128, 2, 1}));
    EXPECT_EQ(p.passes[1].dispatch, (Grid{2, 1, 1}));
    EXPECT_EQ(p.passes[2].dispatch, (Grid{128, 2, 1}));
    ASSERT_EQ(p.intermediates.size(), 4u);
    EXPECT_EQ(p.intermediates[0].shape, (Shape{256}));
    EXPECT_EQ(p.intermediates[3].shape, (Shape{2}));
    EXPECT_EQ(p.passes[1].bindings[0].kind, package::ResourceKind::Intermediate);
    EXPECT_EQ(p.passes[1].bindings[0].type, package::BufferType::ReadOnlyStorage);
  }
}

// x f32 [4, 1024, 256], axis 1: stridedAxisOk; axisOuter 4 * axisInner 256 = 1024 rows;
// stridedCoopTileCols = min(128, max(8, pow2ceil(ceilDiv(1024, 256)))) = 8 ->
// strided_online_coop (13): x = min(ceilDiv(1024, 8), 65535) = 128, y = 1. Every last-axis variant
// fails lastAxisOk.
TEST(HubSoftmaxPlan, StridedAxis) {
  for (const auto& prof : kAllProfiles) {
    Plan p = planHub("ai.onnx.Softmax", request({{"x", f32({4, 1024, 256})}}, {{"axis", 1}}), prof);
    EXPECT_EQ(p.variant, "strided_online_coop") << prof;
    EXPECT_EQ(p.passes[0].dispatch, (Grid{128, 1, 1}));
    EXPECT_FALSE(verdict(p, "online_wg").eligible);
  }
}

// MatMul a [1, 4096] x b [4096, 4096] f32: vector_matrix_vec4 (61): rank2 with one row, 4096 % 4
// == 0, gemvWorkgroups = ceilDiv(4096, 128) = 32, gemvSlices 16 fits; the subgroup-matrix
// variants (95..104) require subgroups and chromium-experimental-subgroup-matrix, and one of the
// configs f16 8x8x8 or f32 -> f32 8x8x8: the H200 has the feature but only 16-row configs.
// Dispatch x = 32.
TEST(HubMatMulPlan, VectorMatrixVec4) {
  for (const auto& prof : kAllProfiles) {
    Plan p = planHub("ai.onnx.MatMul", request({{"a", f32({1, 4096})}, {"b", f32({4096, 4096})}}), prof);
    EXPECT_EQ(p.variant, "vector_matrix_vec4") << prof;
    EXPECT_EQ(p.passes[0].dispatch, (Grid{32, 1, 1}));
    EXPECT_EQ(p.outputs[0].shape, (Shape{1, 4096}));
    const std::string why = prof == "h200" ? "requires a subgroup matrix config" : "requires feature";
    EXPECT_NE(verdict(p, "subgroup_matrix").reason.find(why), std::string::npos) << prof;
  }
}

// MatMul of two f32 vectors: dotShapeOk. K = 4096 < DOT_SPLIT_MIN_K 8192: dot_splitk fails, so
// dot (40) (not superseded) with one workgroup. K = 16384: dot_splitk (41) holds, splits =
// min(256, ceilDiv(4096, 256)) = 16 -> split_dot x = 16, combine x = 1; dot is superseded.
TEST(HubMatMulPlan, DotAndSupersededBy) {
  Plan small = planHub("ai.onnx.MatMul", request({{"a", f32({4096})}, {"b", f32({4096})}}), "lavapipe");
  EXPECT_EQ(small.variant, "dot");
  EXPECT_EQ(small.passes[0].dispatch, (Grid{1, 1, 1}));
  EXPECT_EQ(small.outputs[0].shape, (Shape{}));
  Plan big = planHub("ai.onnx.MatMul", request({{"a", f32({16384})}, {"b", f32({16384})}}), "h200");
  EXPECT_EQ(big.variant, "dot_splitk");
  ASSERT_EQ(big.passes.size(), 2u);
  EXPECT_EQ(big.passes[0].dispatch, (Grid{16, 1, 1}));
  EXPECT_EQ(big.passes[1].dispatch, (Grid{1, 1, 1}));
  EXPECT_EQ(big.intermediates.at(0).shape, (Shape{16}));
  EXPECT_EQ(verdict(big, "dot").reason, "superseded by `dot_splitk`, which is eligible here and takes precedence");
}

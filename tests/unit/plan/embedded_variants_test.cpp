// The variants the embedded packages add to the seeds (docs/performance.md): which requests pick
// them, and the plan-time choices they encode (heads per invocation, shared bias word, 16-byte
// f16 words, balanced folding, rows split over workgroups). Planned against packages/ with
// shaders rendered.
#include <gtest/gtest.h>

#include <set>

#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {
const Planner& embeddedPlanner(const std::string& id) {
  static std::map<std::string, std::unique_ptr<Planner>> cache;
  auto& p = cache[id];
  if (!p)
    p = std::make_unique<Planner>(
        package::Package::open(std::string(WGK_SOURCE_DIR) + "/packages/webgpu-kernels/" + id));
  return *p;
}

Plan planEmbedded(const std::string& id, const PlanRequest& r) {
  return embeddedPlanner(id).plan(r, profile("h200"));
}

// The h200 profile without the probed numerics facts: a device whose f16 rounding was not shown
// to be round-to-nearest-even.
Plan planEmbeddedUnprobed(const std::string& id, const PlanRequest& r) {
  DeviceProfile p = profile("h200");
  p.numerics.clear();
  return embeddedPlanner(id).plan(r, p);
}
}  // namespace

// B4 H16 S2048 D256: 262,144 words of 8 halves; ceilDiv(128K, words) = 1 head group, so every
// head in one invocation: 262,144 invocations (1024 workgroups of 256), sin/cos once per word.
TEST(EmbeddedVariants, GemmaLargePicksVec8Heads) {
  Plan p = planEmbedded("com.microsoft.GemmaRotaryEmbedding", ropeRequest(4, 16, 2048, 256));
  EXPECT_EQ(p.variant, "vec8_heads");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{1024, 1, 1}));
  EXPECT_EQ(p.passes[0].bindings[1].elementType, "vec4<u32>");
  const auto& u = p.passes[0].bindings.back().uniforms;
  ASSERT_EQ(u.size(), 4u);
  EXPECT_EQ(u[0].second.asNumber(), 262144);  // threads
  EXPECT_EQ(u[1].second.asNumber(), 262144);  // words of 8
  EXPECT_TRUE(has(p.passes[0].wgsl, "* 16u;")) << "headsPerThread 16";
  EXPECT_TRUE(has(p.passes[0].wgsl, "const EMB_WORDS : u32 = 262144u;")) << p.passes[0].wgsl;
}

// D252 is not a whole number of 8-half words: vec4_heads, 516,096 vec4 words, ceilDiv(512K,
// words) = 2 head groups of 8 heads.
TEST(EmbeddedVariants, GemmaHeadDimNotMultipleOfEightPicksVec4Heads) {
  Plan p = planEmbedded("com.microsoft.GemmaRotaryEmbedding", ropeRequest(4, 16, 2048, 252));
  EXPECT_EQ(p.variant, "vec4_heads");
  EXPECT_TRUE(has(verdict(p, "vec8_heads").reason, "headDim % 8 == 0")) << verdict(p, "vec8_heads").reason;
  const auto& u = p.passes[0].bindings.back().uniforms;
  ASSERT_EQ(u.size(), 4u);
  EXPECT_EQ(u[0].second.asNumber(), 1032192);  // threads: 2 groups
  EXPECT_TRUE(has(p.passes[0].wgsl, "* 8u;")) << "headsPerThread 8";
}

// One token: 64 emb words, one head per invocation; the heads variants would only add a loop.
TEST(EmbeddedVariants, GemmaDecodeKeepsVec4) {
  Plan p = planEmbedded("com.microsoft.GemmaRotaryEmbedding", ropeRequest(1, 8, 1, 256));
  EXPECT_EQ(p.variant, "vec4");
  EXPECT_FALSE(verdict(p, "vec4_heads").eligible);
  EXPECT_TRUE(has(verdict(p, "vec4_heads").reason, "headsPerThread > 1")) << verdict(p, "vec4_heads").reason;
  EXPECT_FALSE(verdict(p, "vec8_heads").eligible);
  EXPECT_TRUE(has(verdict(p, "vec8_heads").reason, "headsPerThread8 > 1")) << verdict(p, "vec8_heads").reason;
}

// f16 + bias: 16-byte pairs; 4096 rows, so half the words is whole rows and the two words of an
// invocation share one bias load. With 3 rows of 12 they do not.
TEST(EmbeddedVariants, GeluF16PairsShareTheBiasWordOnlyWhenRowsAlign) {
  Plan even =
      planEmbedded("com.microsoft.FastGelu", request({{"X", f16({4096, 16384})}, {"bias", f16({16384})}}));
  EXPECT_EQ(even.variant, "f16_pairs_bias");
  EXPECT_TRUE(has(even.passes[0].wgsl, "let b = bias[")) << even.passes[0].wgsl;
  EXPECT_EQ(even.passes[0].bindings[1].elementType, "vec4<f16>");
  Plan odd = planEmbedded("com.microsoft.FastGelu", request({{"X", f16({3, 12})}, {"bias", f16({12})}}));
  EXPECT_EQ(odd.variant, "f16_pairs_bias");
  EXPECT_FALSE(has(odd.passes[0].wgsl, "let b = bias[")) << odd.passes[0].wgsl;
  // f32 keeps one vec4 word per invocation: the pairs are f16 only.
  Plan f32p = planEmbedded("com.microsoft.FastGelu", request({{"X", f32({4, 16})}, {"bias", f32({16})}}));
  EXPECT_EQ(f32p.variant, "vec4_bias");
}

// 4096 x 16384 f32: 16,777,216 vec4 words = 65,536 workgroups, folded balanced to 32768 x 2.
TEST(EmbeddedVariants, GeluLargeF32FoldsBalanced) {
  Plan p = planEmbedded("com.microsoft.FastGelu", request({{"X", f32({4096, 16384})}}));
  EXPECT_EQ(p.variant, "vec4_no_bias");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{32768, 2, 1}));
  EXPECT_TRUE(p.passes[0].folded);
}

// f16 rows whose length is a multiple of 8 read and write vec4<u32> words of 8 halves.
TEST(EmbeddedVariants, RmsF16PicksSixteenByteWords) {
  Plan p =
      planEmbedded("ai.onnx.RMSNormalization", request({{"x", f16({16384, 8192})}, {"scale", f16({8192})}}));
  EXPECT_EQ(p.variant, "last_axis_row_f16x8");
  EXPECT_EQ(p.passes[0].bindings[0].elementType, "vec4<u32>");
  EXPECT_TRUE(has(p.passes[0].wgsl, "bitcast<vec2<f16>>")) << p.passes[0].wgsl;
  Plan q = planEmbedded("ai.onnx.RMSNormalization", request({{"x", f16({2, 12})}, {"scale", f16({12})}}));
  EXPECT_EQ(q.variant, "last_axis_row_vec4");
  EXPECT_TRUE(has(verdict(q, "last_axis_row_f16x8").reason, "% 8 == 0"))
      << verdict(q, "last_axis_row_f16x8").reason;
}

// f16 in, f32 scale and out, last axis: the vec4 row kernel with two element types.
TEST(EmbeddedVariants, RmsMixedTypesPickTheMixedRowKernel) {
  Plan p =
      planEmbedded("ai.onnx.RMSNormalization", request({{"x", f16({4096, 4096})}, {"scale", f32({4096})}}));
  EXPECT_EQ(p.variant, "last_axis_row_vec4_mixed");
  EXPECT_EQ(p.passes[0].bindings[0].elementType, "vec4<f16>");
  EXPECT_EQ(p.passes[0].bindings[2].elementType, "vec4<f32>");
}

// Four rows of 65,536 f32: 16 workgroups share each row in one pass (z = split), each summing the
// whole row and normalizing 1/16 of it. 64 rows are past ROW_SPLIT_MAX_ROWS: the row kernel.
TEST(EmbeddedVariants, RmsFewLongRowsSplitEachRowInOnePass) {
  Plan p =
      planEmbedded("ai.onnx.RMSNormalization", request({{"x", f32({4, 65536})}, {"scale", f32({65536})}}));
  EXPECT_EQ(p.variant, "last_axis_row_vec4_split");
  ASSERT_EQ(p.passes.size(), 1u);
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{4, 1, 16}));
  EXPECT_TRUE(has(p.passes[0].wgsl, "const CHUNK : u32 = 1024u;")) << p.passes[0].wgsl;
  Plan many =
      planEmbedded("ai.onnx.RMSNormalization", request({{"x", f32({64, 65536})}, {"scale", f32({65536})}}));
  EXPECT_EQ(many.variant, "last_axis_row_vec4");
  EXPECT_TRUE(has(verdict(many, "last_axis_row_vec4_split").reason, "ROW_SPLIT_MAX_ROWS"))
      << verdict(many, "last_axis_row_vec4_split").reason;
}

// The f16 roundings take one conversion each only where the device's probe found them rounding to
// nearest even ("f16-rounding-rne"); elsewhere the portable roundF16 runs.
TEST(EmbeddedVariants, FastF16RoundingOnlyOnProbedDevices) {
  const std::string fastRotate = "return vec4<f16>(vec4<f32>(a) * c) + vec4<f16>(vec4<f32>(b) * s);";
  const PlanRequest rope = ropeRequest(4, 16, 2048, 256);
  const Plan probed = planEmbedded("com.microsoft.GemmaRotaryEmbedding", rope);
  EXPECT_TRUE(has(probed.passes[0].wgsl, fastRotate)) << probed.passes[0].wgsl;
  const Plan unprobed = planEmbeddedUnprobed("com.microsoft.GemmaRotaryEmbedding", rope);
  EXPECT_FALSE(has(unprobed.passes[0].wgsl, fastRotate));
  EXPECT_TRUE(has(unprobed.passes[0].wgsl, "let p = roundF16(vec4<f32>(a) * c);")) << unprobed.passes[0].wgsl;

  const PlanRequest rms = request({{"x", f16({64, 4096})}, {"scale", f16({4096})}});
  const std::string fastScale = "vec4<f16>(v * inv) * vec4<f16>(s)";
  EXPECT_TRUE(has(planEmbedded("ai.onnx.RMSNormalization", rms).passes[0].wgsl, fastScale));
  EXPECT_FALSE(has(planEmbeddedUnprobed("ai.onnx.RMSNormalization", rms).passes[0].wgsl, fastScale));

  // f16 in, f32 out: Cast<T>(n) has to come back to f32, a pair compilers drop: always roundF16.
  const PlanRequest mixed = request({{"x", f16({64, 4096})}, {"scale", f32({4096})}});
  const Plan portable = planEmbedded("ai.onnx.RMSNormalization", mixed);
  EXPECT_TRUE(has(portable.passes[0].wgsl, "return roundF16(v * inv) * s;")) << portable.passes[0].wgsl;
}

// stash_type 10, f16 rows of whole 8-half words: the parallel words variant (1020) outranks
// stash_f16_rows (1010) and the seed's stash_f16_serial (1000). 2048 halves = 256 words: one
// workgroup of 256 per row, one word each, held in registers; on a probed device the sum is in f16.
TEST(EmbeddedVariants, RmsStash10PicksTheParallelWordsVariant) {
  const PlanRequest r =
      request({{"x", f16({2048, 2048})}, {"scale", f16({2048})}}, {{"stash_type", int64_t{10}}});
  Plan p = planEmbedded("ai.onnx.RMSNormalization", r);
  EXPECT_EQ(p.variant, "stash_f16_rows_f16x8");
  EXPECT_TRUE(verdict(p, "stash_f16_rows").eligible);
  EXPECT_TRUE(verdict(p, "stash_f16_serial").eligible);
  ASSERT_EQ(p.passes.size(), 1u);
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{2048, 1, 1}));
  EXPECT_EQ(p.passes[0].bindings[0].elementType, "vec4<u32>");
  EXPECT_EQ(p.passes[0].bindings[1].elementType, "vec4<u32>");
  const std::string& w = p.passes[0].wgsl;
  EXPECT_TRUE(has(w, "@workgroup_size(256)")) << w;
  EXPECT_TRUE(has(w, "var cache : array<vec4<u32>, 1>;")) << w;
  EXPECT_TRUE(has(w, "var<workgroup> part : array<f16, 256>;")) << w;
  EXPECT_TRUE(has(w, "return vec4<f16>(roundF16(v * v));")) << w;
  EXPECT_TRUE(has(w, "let y = vec4<f16>(v / d) * sh;")) << w;
  // Unprobed: every f16 operation emulated in f32, as stash_f16_serial does (same bits).
  const std::string u = planEmbeddedUnprobed("ai.onnx.RMSNormalization", r).passes[0].wgsl;
  EXPECT_TRUE(has(u, "var<workgroup> part : array<f32, 256>;")) << u;
  EXPECT_TRUE(has(u, "return h4(a + b);")) << u;
  EXPECT_TRUE(has(u, "let y = vec4<f16>(h4(v / d) * vec4<f32>(sh));")) << u;
  EXPECT_FALSE(has(u, "roundToF16Quantum(v * v)")) << u;
}

// The workgroup is pow2ceil(words) up to 256 (the order stays that of 256 slots): 8 halves -> 1
// invocation, 1000 halves = 125 words -> 128; 4096 = 512 words -> 256 with 2 words each; 40960
// halves = 20 words per invocation, past the 16 kept in registers: re-read from memory.
TEST(EmbeddedVariants, RmsStash10WorkgroupFollowsTheWords) {
  auto planRows = [](Shape x) {
    const int64_t h = x.back();
    return planEmbedded("ai.onnx.RMSNormalization",
                        request({{"x", f16(x)}, {"scale", f16({h})}}, {{"stash_type", int64_t{10}}}));
  };
  EXPECT_TRUE(has(planRows({64, 8}).passes[0].wgsl, "@workgroup_size(1)"));
  EXPECT_TRUE(has(planRows({4, 1000}).passes[0].wgsl, "@workgroup_size(128)"));
  const Plan decode = planRows({1, 4096});
  EXPECT_EQ(decode.variant, "stash_f16_rows_f16x8");
  EXPECT_EQ(decode.passes[0].dispatch, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_TRUE(has(decode.passes[0].wgsl, "var cache : array<vec4<u32>, 2>;")) << decode.passes[0].wgsl;
  const Plan longRow = planRows({2, 40960});
  EXPECT_FALSE(has(longRow.passes[0].wgsl, "var cache")) << longRow.passes[0].wgsl;
  EXPECT_TRUE(has(longRow.passes[0].wgsl, "let word = x[base + w];")) << longRow.passes[0].wgsl;
  const Plan many = planRows({70000, 8});
  EXPECT_EQ(many.passes[0].dispatch, (std::array<uint32_t, 3>{65535, 2, 1}));
  EXPECT_TRUE(many.passes[0].folded);
}

// Everything else with stash_type 10 gets stash_f16_rows (element loads, any T, V, axis and
// broadcast scale), which emulates f16 in f32 on every device; the seed's serial variant only
// when forced.
TEST(EmbeddedVariants, RmsStash10GeneralShapesPickStashF16Rows) {
  const auto stash = [](std::initializer_list<std::pair<std::string, TensorDesc>> in, int64_t axis = -1) {
    return planEmbedded("ai.onnx.RMSNormalization",
                        request(in, {{"stash_type", int64_t{10}}, {"axis", expr::Value(axis)}}));
  };
  const Plan odd = stash({{"x", f16({3, 1001})}, {"scale", f16({1001})}});
  EXPECT_EQ(odd.variant, "stash_f16_rows");
  EXPECT_TRUE(has(verdict(odd, "stash_f16_rows_f16x8").reason, "% 8 == 0"))
      << verdict(odd, "stash_f16_rows_f16x8").reason;
  EXPECT_TRUE(has(odd.passes[0].wgsl, "return h(a + b);")) << odd.passes[0].wgsl;
  EXPECT_EQ(odd.passes[0].bindings[0].elementType, "f16");
  const Plan mixed = stash({{"x", f32({4, 64})}, {"scale", f16({64})}});
  EXPECT_EQ(mixed.variant, "stash_f16_rows");
  EXPECT_TRUE(has(mixed.passes[0].wgsl, "return select(0.0, h(f32(x[base + min(e, H - 1u)])), e < H);"))
      << mixed.passes[0].wgsl;
  const Plan suffix = stash({{"x", f16({2, 3, 40})}, {"scale", f16({3, 1})}}, -2);
  EXPECT_EQ(suffix.variant, "stash_f16_rows");
  EXPECT_TRUE(has(suffix.passes[0].wgsl, "fn scaleIndex(")) << suffix.passes[0].wgsl;
  EXPECT_EQ(suffix.passes[0].dispatch, (std::array<uint32_t, 3>{2, 1, 1}));
}

// epsilon < 0 is refused by the embedded manifest's attributeConstraints (issue 15: it gave NaN);
// 0 is allowed.
TEST(EmbeddedVariants, RmsNegativeEpsilonIsAContractError) {
  const auto plan = [](double eps) {
    return planEmbedded("ai.onnx.RMSNormalization",
                        request({{"x", f32({2, 8})}, {"scale", f32({8})}}, {{"epsilon", eps}}));
  };
  expectError(ErrorCode::Contract, [&] { plan(-1); },
              {"attribute epsilon = -1", "below attributeConstraints.epsilon.min 0"});
  expectError(ErrorCode::Contract, [&] { plan(-1e-30); }, {"attributeConstraints.epsilon.min"});
  EXPECT_EQ(plan(0).variant, "last_axis_row_vec4");
}

// Issue 17: roundF16 is written once in the RMSNormalization package (rms-round-f16.wgsl.jinja)
// and included by every template that rounds to f16 in f32. Every variant that can plan an f16
// request renders exactly one roundF16 of the shared form, of the type its template asked for.
TEST(EmbeddedVariants, RmsTemplatesShareOneRoundF16) {
  const std::string id = "ai.onnx.RMSNormalization";
  std::vector<PlanRequest> requests = {
      request({{"x", f16({4, 4096})}, {"scale", f16({4096})}}),
      request({{"x", f16({2, 4095})}, {"scale", f16({4095})}}),
      request({{"x", f16({8, 16384})}, {"scale", f32({16384})}}),
      request({{"x", f16({4, 128, 256})}, {"scale", f16({128, 256})}}, {{"axis", 1}}),
      request({{"x", f16({3, 64})}, {"scale", f16({64})}}, {{"stash_type", 10}}),
      request({{"x", f16({3, 4096})}, {"scale", f16({4096})}}, {{"stash_type", 10}}),
  };
  std::set<std::string> rendered;  // variant/pass that hold a roundF16
  for (const auto& v : embeddedPlanner(id).package().manifest().variants)
    for (PlanRequest r : requests) {
      r.forcedVariant = v.id;
      Plan p;
      try {
        p = planEmbedded(id, r);
      } catch (const Error&) {
        continue;  // not eligible for this request
      }
      for (const auto& pass : p.passes) {
        const std::string c = code(pass.wgsl);
        size_t n = 0;
        for (size_t at = c.find("fn roundF16("); at != std::string::npos; at = c.find("fn roundF16(", at + 1)) ++n;
        if (n == 0) continue;
        EXPECT_EQ(n, 1u) << v.id << "/" << pass.id;
        const bool vec = has(c, "fn roundF16(v : vec4<f32>) -> vec4<f32> {");
        EXPECT_TRUE(vec || has(c, "fn roundF16(v : f32) -> f32 {")) << v.id << "/" << pass.id << "\n" << c;
        EXPECT_TRUE(has(c, vec ? "bitcast<vec4<u32>>(v) >> vec4<u32>(23u)" : "bitcast<u32>(v) >> u32(23u)"))
            << v.id << "/" << pass.id;
        EXPECT_TRUE(has(c, "return round(v * up) * down;")) << v.id << "/" << pass.id;
        EXPECT_FALSE(has(c, "roundToF16Quantum")) << v.id << "/" << pass.id;
        rendered.insert(v.id + "/" + pass.id);
      }
    }
  // The four templates that had their own copy, and stash_f16_rows_f16x8's former roundToF16Quantum.
  EXPECT_GE(rendered.size(), 4u);
  for (const char* expected : {"last_axis/main", "last_axis_row_vec4/main", "stash_f16_rows_f16x8/main"})
    EXPECT_TRUE(rendered.count(expected)) << expected;
}

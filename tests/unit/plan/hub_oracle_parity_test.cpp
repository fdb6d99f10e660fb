// Plan parity with the Hub's own loader, without the loader: tests/data/hub/ai.onnx.MatMul.
// oracle-plans.json holds what @huggingface/kernels 0.0.1-preview.3 (driven with no GPU by the
// harness tools/hub-oracle/compare_plans.py expects at $WGK_ORACLE/plan.mjs) planned for the Hub's
// MatMul manifest: the requests of tools/hub-oracle/requests/ai.onnx.MatMul on the profiles
// lavapipe, h200, no-f16, no-subgroups, tiny-limits, apple-m3 and intel-xe; per request and
// profile the chosen variant (or that the loader refused), the variants it finds eligible and
// demoted, and every other eligible variant forced; per plan each pass's id, dispatch, bindings
// (WGSL name, buffer type, element type) and uniform bytes. This test plans every one with wgk and
// expects the same. Regenerate the file (after a manifest, request or profile change) with
//   tools/hub-oracle/compare_plans.py --package tests/data/hub/ai.onnx.MatMul
//       --requests 'tools/hub-oracle/requests/ai.onnx.MatMul/*.json'
//       --profiles lavapipe h200 no-f16 no-subgroups tiny-limits apple-m3 intel-xe
//       --write-golden tests/data/hub/ai.onnx.MatMul.oracle-plans.json
//
// Where each of the 49 variants is the chosen one (request: profiles; lvp lavapipe, nof16 no-f16,
// nosg no-subgroups, tiny tiny-limits, m3 apple-m3, xe intel-xe), as the loader chose:
//   subgroup_matrix: sgmat-f32-64x128-128x256 (m3), +10 more
//   subgroup_matrix_splitk: sgmat-splitk-f32-64x2048-2048x256 (m3), +2 more
//   folded_rows_subgroup_matrix: folded-rows-sgmat-f32-1x64x128-128x256 (m3), +1 more
//   folded_rows_subgroup_matrix_splitk: folded-rows-sgmat-splitk-f16-1x64x2048-2048x256 (m3)
//   folded_by_rank2_tiled_reg: folded-by-rank2-tiled-reg-f32-2x256x128-128x1024 (lvp h200 nof16 nosg
//       xe), +1 more
//   folded_by_rank2_tiled: folded-by-rank2-tiled-f32-2x37x24-24x45 (lvp h200 nof16 nosg m3 xe), +4
//       more
//   batched_by_rank2_tiled_reg: batched-by-rank2-tiled-reg-f32-6x65x33-33x130 (lvp h200 nof16 nosg
//       m3 xe), +1 more
//   batched4_broadcast_tiled_reg: batched4-broadcast-tiled-reg-f32-2x1x65x33-1x3x33x130 (lvp h200
//       nof16 nosg m3 xe)
//   tiled_reg: tiled-reg-f32-9x65-65x4033 (lvp h200 nof16 nosg m3 xe), +4 more
//   tiled: tiled-f32-65x33-33x130 (lvp h200 nof16 nosg m3 xe), +11 more
//   batched_tiled_reg: batched-tiled-reg-f32-1x129x65-8x65x129 (lvp h200 nof16 nosg m3 xe), +1 more
//   batched_tiled: batched-tiled-f32-3x40x20-3x20x50 (lvp h200 nof16 nosg m3 xe), +4 more
//   folded_by_rank2_band_vec4: folded-by-rank2-band-f32-2x4x64-64x256 (lvp h200 nof16 nosg tiny xe)
//   batched3_by_rank2_subgroup_matrix: batched3-by-rank2-sgmat-f32-2x64x128-128x256 (m3), +3 more
//   batched_subgroup_matrix: batched-sgmat-f16-2x64x128-2x128x256 (m3), +5 more
//   rank2_notrans_f32_vec4_tiled_reg_splitk: notrans-f32-splitk-128x1024-1024x256 (h200 nosg xe)
//   folded_rows_notrans_f32_vec4_tiled_reg: folded-rows-notrans-f32-1x256x64-64x1024 (h200 nosg xe)
//   rank2_notrans_f32_vec4_tiled_reg: notrans-f32-1024x96-96x512 (h200 nosg xe), +1 more
//   rank2_notrans_f32_vec4_tiled_reg_m64: notrans-f32-m64-256x96-96x1024 (h200 nosg)
//   batched_notrans_f32_vec4_tiled_reg: batched-notrans-f32-2x128x64-2x64x1024 (h200 nosg)
//   folded_rows_notrans_f16_vec4_tiled_reg: folded-rows-notrans-f16-2x256x64-64x1024 (lvp h200 nosg
//       xe)
//   rank2_notrans_f16_vec4_tiled_reg_wg8: notrans-f16-wg8-1024x64-64x512 (lvp h200 nosg xe)
//   rank2_notrans_f16_vec4_tiled_reg: notrans-f16-2048x64-64x512 (lvp h200 nosg xe), +1 more
//   rank2_notrans_f16_vec4_tiled_reg_m64: notrans-f16-m64-256x64-64x1024 (lvp h200 nosg xe)
//   batched_notrans_f16_vec4_tiled_reg_wg8: batched-notrans-f16-wg8-4x128x64-4x64x1024 (lvp h200
//       nosg xe)
//   batched_notrans_f16_vec4_tiled_reg: batched-notrans-f16-2x128x64-2x64x1024 (lvp h200 nosg xe)
//   scalar: scalar-i32-1x5-5x7 (lvp h200 nof16 nosg tiny m3 xe), +15 more
//   rank2_m1_vector_matrix_tail4: m1-tail4-f32-1x64-64x130 (lvp h200 nof16 nosg tiny m3 xe)
//   rank2_m1_vector_matrix_tail1_f16: m1-tail1-f16-1x64-64x130 (lvp h200 nosg tiny m3 xe), +2 more
//   rank2_band_vec4_splitk: band-splitk-f32-4x2048-2048x256 (lvp h200 nof16 nosg xe)
//   rank2_band_vec4: band-f32-4x64-64x256 (lvp h200 nof16 nosg tiny xe), +2 more
//   batched_band_vec4: batched-band-f32-16x4x64-16x64x512 (lvp h200 nof16 nosg tiny xe)
//   vector_matrix_vec4: vector-matrix-vec4-f32-64-64x256 (lvp h200 nof16 nosg tiny m3 xe), +2 more
//   matrix_vector_tail_subgroup: matrix-vector-tail-f32-64x101-101 (lvp h200 nof16 m3 xe)
//   matrix_vector_tail_nosg: matrix-vector-tail-f32-64x101-101 (nosg)
//   matrix_vector_subgroup: matrix-vector-f32-64x128-128 (lvp h200 nof16 m3 xe), +1 more
//   matrix_vector_nosg: matrix-vector-f32-64x128-128 (nosg), +1 more
//   dot_splitk: dot-splitk-f32-8192 (lvp h200 nof16 nosg m3 xe)
//   dot: dot-f32-64 (lvp h200 nof16 nosg m3 xe), +2 more
//   batched_by_rank2: batched-by-rank2-i32-1x1x4-4x5 (lvp h200 nof16 nosg tiny m3 xe), +10 more
//   rank2_by_batched: rank2-by-batched-f32-3x4-2x4x5 (lvp h200 nof16 nosg tiny m3 xe), +1 more
//   batched_broadcast: batched-broadcast-f32-1x3x4-2x4x5 (lvp h200 nof16 nosg tiny m3 xe), +10 more
//   batched5_broadcast: batched5-broadcast-f32-1x2x1x3x4-2x1x2x4x5 (lvp h200 nof16 nosg tiny m3 xe),
//       +1 more
//   batched3_by_batched4_padded_a: batched3-by-batched4-f32-3x4x5-2x3x5x6 (lvp h200 nof16 nosg tiny
//       m3 xe)
//   batched4_by_batched3_padded_b: batched4-by-batched3-f16-2x3x4x5-3x5x6 (lvp h200 nosg tiny m3
//       xe), +1 more
//   vector_matrix: vector-matrix-f32-4-4x5 (lvp h200 nof16 nosg tiny m3 xe)
//   matrix_vector: matrix-vector-f32-5x7-7 (lvp h200 nof16 nosg tiny m3 xe), +2 more
//   batched_by_vector: batched-by-vector-f32-2x3x4-4 (lvp h200 nof16 nosg tiny m3 xe), +2 more
//   vector_by_batched: vector-by-batched-f32-4-2x4x5 (lvp h200 nof16 nosg tiny m3 xe)
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <set>

#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;
using Json = nlohmann::json;

namespace {

const std::string kHub = std::string(WGK_SOURCE_DIR) + "/tests/data/hub/";

const Json& golden() {
  static const Json j = Json::parse(readFile(kHub + "ai.onnx.MatMul.oracle-plans.json"));
  return j;
}

const Planner& matmul() {
  static const Planner p(package::Package::open(kHub + "ai.onnx.MatMul"));
  return p;
}

PlanRequest requestOf(const Json& r) {
  PlanRequest out;
  for (const auto& [name, t] : r.at("inputs").items())
    out.inputs[name] = {parseDType(t.at("dtype").get<std::string>()), t.at("shape").get<Shape>()};
  return out;
}

// "name buffer-type [element-type]", as the golden file writes a binding.
std::string bindingText(const PlannedBinding& b) {
  std::string t = b.name + " " + std::string(package::bufferTypeName(b.type));
  if (b.type != package::BufferType::Uniform) t += " " + b.elementType;
  return t;
}

std::set<std::string> stringSet(const Json& j) {
  return j.get<std::set<std::string>>();
}

}  // namespace

TEST(HubOracleParity, GoldenFileCoversEveryVariant) {
  const Json& g = golden();
  std::set<std::string> chosen;
  for (const auto& e : g.at("plans"))
    if (e.at("forced").is_null() && e.contains("variant")) chosen.insert(e.at("variant").get<std::string>());
  for (const auto& v : matmul().package().manifest().variants)
    EXPECT_TRUE(chosen.count(v.id)) << "no request makes " << v.id << " the loader's choice";
  EXPECT_EQ(g.at("requests").size() * g.at("profiles").size(),
            static_cast<size_t>(std::count_if(g.at("plans").begin(), g.at("plans").end(),
                                              [](const Json& e) { return e.at("forced").is_null(); })));
}

TEST(HubOracleParity, MatMulPlansAreTheLoaders) {
  const Json& g = golden();
  size_t compared = 0, bindingRefusals = 0;
  for (const auto& e : g.at("plans")) {
    const std::string req = e.at("request"), prof = e.at("profile");
    const std::string forced = e.at("forced").is_null() ? "" : e.at("forced").get<std::string>();
    SCOPED_TRACE(req + " on " + prof + (forced.empty() ? "" : " forced " + forced));
    PlanRequest r = requestOf(g.at("requests").at(req));
    r.forcedVariant = forced;
    wgk::plan::PlanOptions o;
    o.renderShaders = false;  // the Hub's templates are not public
    std::optional<Plan> p;
    std::optional<Error> err;
    try {
      p = matmul().plan(r, profile(prof), o);
    } catch (const Error& x) {
      err = x;
    }
    // wgk's planner also refuses a tensor beyond the binding limit, which the loader leaves to
    // createBindGroup at run time: where it did and the loader planned, the choice is still compared,
    // on the same profile with that one limit lifted.
    if (err && !e.contains("error") && err->code() == ErrorCode::Contract &&
        std::string(err->what()).find("maxStorageBufferBindingSize") != std::string::npos) {
      DeviceProfile lifted = profile(prof);
      lifted.limits["maxStorageBufferBindingSize"] = uint64_t{1} << 62;
      err.reset();
      p = matmul().plan(r, lifted, o);
      ++bindingRefusals;
    }
    ++compared;
    if (e.contains("error")) {
      // The loader refused: no variant (ErrorCode::NoVariant here), or the chosen one's plan
      // failed (a dispatch over the limit: some other code).
      const bool noVariant = e.at("error").get<std::string>().rfind("No supported WebGPU variant", 0) == 0;
      ASSERT_TRUE(err) << "wgk planned " << p->variant << "; the loader: " << e.at("error");
      EXPECT_EQ(err->code() == ErrorCode::NoVariant, noVariant)
          << err->what() << "\nthe loader: " << e.at("error");
    } else {
      ASSERT_FALSE(err) << err->what();
      EXPECT_EQ(p->variant, e.at("variant").get<std::string>());
      const Json& passes = e.at("passes");
      ASSERT_EQ(p->passes.size(), passes.size());
      for (size_t i = 0; i < passes.size(); ++i) {
        const PlannedPass& mine = p->passes[i];
        const Json& theirs = passes[i];
        SCOPED_TRACE("pass " + mine.id);
        EXPECT_EQ(mine.id, theirs.at("id").get<std::string>());
        const auto grid = theirs.at("dispatch").get<std::array<uint32_t, 3>>();
        const bool zero = grid[0] == 0 || grid[1] == 0 || grid[2] == 0;
        EXPECT_EQ(mine.skipped, zero);
        if (!mine.skipped) {
          EXPECT_EQ(mine.dispatch, grid);
        }
        std::vector<std::string> bindings;
        for (const auto& b : mine.bindings) bindings.push_back(bindingText(b));
        EXPECT_EQ(bindings, theirs.at("bindings").get<std::vector<std::string>>());
        // A skipped pass's uniforms are never uploaded (the loader zero-fills them when every
        // output is empty); compare the ones that run.
        if (mine.skipped) continue;
        for (const auto& b : mine.bindings) {
          if (b.type == package::BufferType::Uniform) {
            EXPECT_EQ(hex(b.uniformBytes), theirs.at("uniforms").at(b.name).get<std::string>()) << b.name;
          }
        }
      }
    }
    // What the loader found eligible and demoted, for the unforced request.
    if (forced.empty() && e.contains("eligible") && p) {
      std::set<std::string> eligible, demoted;
      for (const auto& v : p->variants) {
        if (v.eligible) eligible.insert(v.id);
        if (v.eligible && v.demoted) demoted.insert(v.id);
      }
      EXPECT_EQ(eligible, stringSet(e.at("eligible")));
      EXPECT_EQ(demoted, stringSet(e.at("demoted")));
    }
  }
  EXPECT_GT(compared, 1000u);
  EXPECT_LT(bindingRefusals, compared / 10) << "the binding limit hid most of the comparison";
}

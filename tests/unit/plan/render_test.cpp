// Rendering through the planner: small templates under tests/data/plan/, and every variant of every
// package under packages/ whose templates exist.
#include <filesystem>

#include "package/test_spec.h"
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;
namespace fs = std::filesystem;

namespace {
const std::string kData = std::string(WGK_SOURCE_DIR) + "/tests/data/plan/";
}

// The template places the declarations itself (env.wgsl.resourceDeclarations) and includes a file.
TEST(Render, GeluTemplateWithDeclarationsAndInclude) {
  Planner planner(package::Package::open(kData + "gelu-package"));
  Plan p = planner.plan(request({{"X", f16({2, 8})}, {"bias", f16({8})}}), profile("lavapipe"));
  ASSERT_EQ(p.variant, "vec4_bias");
  const std::string& wgsl = p.passes[0].wgsl;
  EXPECT_EQ(wgsl.rfind("enable f16;", 0), 0u) << wgsl;  // f16 used, so enabled first
  EXPECT_NE(wgsl.find("@group(0) @binding(1) var<storage, read> bias: array<f16, 8u>;"), std::string::npos)
      << wgsl;
  EXPECT_NE(wgsl.find("fn gelu(v : vec4<f16>) -> vec4<f16>"), std::string::npos) << wgsl;
  EXPECT_NE(wgsl.find("@workgroup_size(256)"), std::string::npos) << wgsl;
  EXPECT_NE(wgsl.find("bias[i % 8u]"), std::string::npos) << wgsl;
  EXPECT_EQ(wgsl.find("{{"), std::string::npos);
  EXPECT_TRUE(p.toJson(true)["passes"][0].contains("wgsl"));
}

// Templates without @binding get the generated declarations prepended; `source.*` and constants
// are in scope.
TEST(Render, RmsTemplatesGetDeclarationsPrepended) {
  Planner planner(package::Package::open(kData + "rms-package"));
  Plan a = planner.plan(request({{"x", f32({2, 3, 8})}, {"scale", f32({3, 8})}}, {{"axis", 1}}),
                        profile("lavapipe"));
  ASSERT_EQ(a.variant, "suffix_axis");
  const std::string& wgsl = a.passes[0].wgsl;
  EXPECT_NE(wgsl.find("@group(0) @binding(3) var<uniform> params: Params;"), std::string::npos) << wgsl;
  EXPECT_LT(wgsl.find("struct Params"), wgsl.find("// rms:")) << wgsl;
  EXPECT_NE(wgsl.find("// rms: rank 3, hidden 24, rows 2, epsilon 1e-05"), std::string::npos) << wgsl;
  EXPECT_NE(wgsl.find("@workgroup_size(32)"), std::string::npos) << wgsl;  // min(256, pow2ceil(24))
  Plan b = planner.plan(request({{"x", f32({2, 64})}, {"scale", f32({64})}}), profile("h200"));
  ASSERT_EQ(b.variant, "last_axis_row_vec4");
  const std::string& bw = b.passes[0].wgsl;
  EXPECT_NE(bw.find("// row stats: hidden 64, vec 16"), std::string::npos) << bw;  // dim / 4 (true division)
  EXPECT_TRUE(bw.find("subgroups True") != std::string::npos ||
              bw.find("subgroups true") != std::string::npos)
      << bw;
  // lavapipe has no subgroup_id language feature: combineSubgroups false.
  Plan c = planner.plan(request({{"x", f32({2, 64})}, {"scale", f32({64})}}), profile("lavapipe"));
  const std::string& cw = c.passes[0].wgsl;
  EXPECT_TRUE(cw.find("subgroups False") != std::string::npos ||
              cw.find("subgroups false") != std::string::npos)
      << cw;
}

TEST(Render, MissingTemplateIsAnError) {
  Planner planner(package::Package::open(kData + "rms-package"));
  expectError(ErrorCode::NotFound,
              [&] {
                planner.plan(request({{"x", f16({3, 64})}, {"scale", f16({64})}}, {{"stash_type", 10}}),
                             profile("lavapipe"));
              },
              {"rms-normalization-stash-f16-serial.wgsl.jinja", "rendering"});
}

// Every package under packages/: plan and render every test.json case on lavapipe, the H200, an
// Apple GPU (MatMul's 8x8x8 subgroup-matrix variants) and a device without subgroups (the _nosg
// variants), and expect every variant to be reached. Packages whose templates do not exist yet are skipped.
TEST(Render, EveryPackageVariant) {
  const fs::path root = fs::path(WGK_SOURCE_DIR) / "packages";
  int rendered = 0;
  std::error_code ec;
  if (!fs::is_directory(root)) GTEST_SKIP() << "no packages/ folder yet";
  for (const auto& org : fs::directory_iterator(root, ec)) {
    if (!org.is_directory()) continue;
    for (const auto& dir : fs::directory_iterator(org.path(), ec)) {
      auto web = package::findWebgpuDir(dir.path());
      if (!web) continue;
      auto pkg = package::Package::open(dir.path().string());
      bool complete = true;
      for (const auto& f : pkg->manifest().shaderFiles()) complete = complete && pkg->hasFile(f);
      if (!complete || !pkg->hasFile("test.json")) {
        std::cout << "[ skipped  ] " << dir.path().filename().string()
                  << ": templates or test.json missing\n";
        continue;
      }
      SCOPED_TRACE(pkg->manifest().id());
      Planner planner(pkg);
      std::set<std::string> reached;
      const auto tests = package::loadTestFile((*web / "test.json").string());
      for (const auto& c : tests.cases) {
        // As `wgk test` does: a skipGpu case is never planned (it may use a dtype the op lacks).
        if (c.skipGpu) continue;
        PlanRequest r;
        for (const auto& [name, t] : c.inputs) r.inputs[name] = {t.dtype, t.shape};
        r.attrs = c.attrs;
        r.forcedVariant = c.variant.value_or("");
        for (const char* prof : {"lavapipe", "h200", "apple-m3", "no-subgroups"}) {
          try {
            Plan p = planner.plan(r, profile(prof));
            reached.insert(p.variant);
            ++rendered;
          } catch (const Error& e) {
            // A case may target a variant only one device can run (e.g. split-K undemoted on the H200).
            if (e.code() != ErrorCode::NoVariant)
              ADD_FAILURE() << "case " << c.name << " on " << prof << ": " << e.what();
          }
        }
      }
      for (const auto& v : pkg->manifest().variants)
        EXPECT_TRUE(reached.count(v.id)) << "no test case reaches variant " << v.id;
    }
  }
  if (rendered == 0) GTEST_SKIP() << "no package has its templates yet";
}

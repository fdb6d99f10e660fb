// PlanRequest::tunables: overrides of the manifest's tunables (what tuning tables and `wgk tune`
// use), derived by hand like the other plan tests. FastGelu: workgroupSize = min(WORKGROUP_SIZE,
// min(maxComputeInvocationsPerWorkgroup, maxComputeWorkgroupSizeX)); threads numel / 4 (vec4).
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {
const std::string kGelu = "com.microsoft.FastGelu";
const std::string kRms = "ai.onnx.RMSNormalization";
const std::string kGemma = "com.microsoft.GemmaRotaryEmbedding";
const std::string kData = std::string(WGK_SOURCE_DIR) + "/tests/data/plan/";

PlanRequest gelu1e6(std::map<std::string, expr::Value> tunables) {
  PlanRequest r = request({{"X", f32({1000, 1000})}});
  r.tunables = std::move(tunables);
  return r;
}

// x [2, 16, 2048] normalised over axis 1: rows 2, hidden 16 * 2048 = 32768 >= SPLIT_MIN_HIDDEN 16384,
// so suffix_axis_splitk (15) is eligible and, on the H200 (wave32, not demoted), the priority pick.
PlanRequest rmsSuffix(int64_t hidden0) {
  return request({{"x", f32({2, hidden0, 2048})}, {"scale", f32({hidden0, 2048})}}, {{"axis", 1}});
}

}  // namespace

// 1e6 elements, threads 250000: ceilDiv(250000, 256) = 977 workgroups by default, 1954 with
// WORKGROUP_SIZE 128, 3907 with 64; the override is recorded in the plan (text and JSON).
TEST(TunablesPlan, OverrideChangesGeluDispatch) {
  Plan base = planSeed(kGelu, gelu1e6({}), "lavapipe");
  EXPECT_EQ(base.passes[0].dispatch, (std::array<uint32_t, 3>{977, 1, 1}));
  EXPECT_TRUE(base.tunables.empty());
  EXPECT_TRUE(base.toJson()["tunables"].empty());
  EXPECT_EQ(base.toText().find("tunables:"), std::string::npos);

  Plan p = planSeed(kGelu, gelu1e6({{"WORKGROUP_SIZE", 128}}), "lavapipe");
  EXPECT_EQ(p.variant, "vec4_no_bias");
  EXPECT_EQ(p.selectedBy, "priority");
  EXPECT_EQ(p.passes[0].dispatch, (std::array<uint32_t, 3>{1954, 1, 1}));
  ASSERT_EQ(p.tunables.size(), 1u);
  EXPECT_EQ(p.tunables.at("WORKGROUP_SIZE"), expr::Value(128));
  EXPECT_EQ(p.toJson()["tunables"], package::Json::parse(R"({"WORKGROUP_SIZE": 128})"));
  EXPECT_NE(p.toText().find("tunables: WORKGROUP_SIZE=128 (override)\n"), std::string::npos) << p.toText();

  EXPECT_EQ(planSeed(kGelu, gelu1e6({{"WORKGROUP_SIZE", 64}}), "lavapipe").passes[0].dispatch[0], 3907u);
  // The manifest's own value is no override worth reporting.
  EXPECT_TRUE(planSeed(kGelu, gelu1e6({{"WORKGROUP_SIZE", 256}}), "lavapipe").tunables.empty());
}

// FastGelu clamps to the device: on tiny-limits (cap 64; 4 KiB buffers) X [8, 64] has 128 vec4
// threads, so 2 workgroups of 64 whether WORKGROUP_SIZE is 256 or 4096, and 4 with 32.
TEST(TunablesPlan, GeluClampsAnOverrideToTheDeviceCap) {
  PlanRequest r = request({{"X", f32({8, 64})}});
  EXPECT_EQ(planSeed(kGelu, r, "tiny-limits").passes[0].workgroups[0], 2u);
  r.tunables["WORKGROUP_SIZE"] = expr::Value(4096);
  Plan p = planSeed(kGelu, r, "tiny-limits");
  EXPECT_EQ(p.variant, "vec4_no_bias");
  EXPECT_EQ(p.passes[0].workgroups[0], 2u);
  r.tunables["WORKGROUP_SIZE"] = expr::Value(32);
  EXPECT_EQ(planSeed(kGelu, r, "tiny-limits").passes[0].workgroups[0], 4u);
}

// Through the templates: the rendered @workgroup_size follows the override.
TEST(TunablesPlan, OverrideChangesRenderedWorkgroupSize) {
  Planner planner(package::Package::open(kData + "gelu-package"));
  PlanRequest r = request({{"X", f16({2, 8})}, {"bias", f16({8})}});
  EXPECT_NE(planner.plan(r, profile("lavapipe")).passes[0].wgsl.find("@workgroup_size(256)"),
            std::string::npos);
  r.tunables["WORKGROUP_SIZE"] = expr::Value(64);
  const std::string wgsl = planner.plan(r, profile("lavapipe")).passes[0].wgsl;
  EXPECT_NE(wgsl.find("@workgroup_size(64)"), std::string::npos) << wgsl;
  EXPECT_EQ(wgsl.find("@workgroup_size(256)"), std::string::npos) << wgsl;
}

TEST(TunablesPlan, UnknownTunableIsAnError) {
  expectError(ErrorCode::InvalidArgument,
              [] {
                planSeed(kGelu, gelu1e6({{"workgroupSize", 128}}), "lavapipe");
              },
              {"tunable override 'workgroupSize' is not a tunable of com.microsoft.FastGelu",
               "(tunables: WORKGROUP_SIZE)"});
}

TEST(TunablesPlan, WrongTypeIsAnError) {
  expectError(
      ErrorCode::InvalidArgument,
      [] {
        planSeed(kGelu, gelu1e6({{"WORKGROUP_SIZE", "128"}}), "lavapipe");
      },
      {"tunable override 'WORKGROUP_SIZE' = '128' is a string", "com.microsoft.FastGelu is a number (256)"});
  expectError(ErrorCode::InvalidArgument,
              [] {
                planSeed(kGelu, gelu1e6({{"WORKGROUP_SIZE", true}}), "lavapipe");
              },
              {"'WORKGROUP_SIZE' = true is a bool"});
  // A float is a number: accepted (and then the manifest decides what it means).
  EXPECT_EQ(planSeed(kGelu, gelu1e6({{"WORKGROUP_SIZE", 128.0}}), "lavapipe").passes[0].dispatch[0], 1954u);
}

TEST(TunablesPlan, RequestKeyIncludesOverrides) {
  const PlanRequest a = gelu1e6({});
  PlanRequest b = gelu1e6({{"WORKGROUP_SIZE", 128}});
  PlanRequest c = gelu1e6({{"WORKGROUP_SIZE", 64}});
  EXPECT_NE(requestKey(a, ""), requestKey(b, ""));
  EXPECT_NE(requestKey(b, ""), requestKey(c, ""));
  EXPECT_EQ(requestKey(b, ""), requestKey(gelu1e6({{"WORKGROUP_SIZE", 128}}), ""));
  c.tunables["WORKGROUP_SIZE"] = expr::Value(128.0);  // another kind, another key
  EXPECT_NE(requestKey(b, ""), requestKey(c, ""));
}

// A preference with tunables, eligible with them: taken, and the plan says tuning did it.
TEST(TunablesPlan, PreferenceWithTunablesIsTaken) {
  PlanRequest r = rmsSuffix(16);
  r.preferredVariant = "suffix_axis";
  r.tunables["WORKGROUP_SIZE"] = expr::Value(64);
  Plan p = planSeed(kRms, r, "h200");
  EXPECT_EQ(p.variant, "suffix_axis");
  EXPECT_EQ(p.selectedBy, "tuning");
  EXPECT_EQ(p.tunables.at("WORKGROUP_SIZE"), expr::Value(64));
  EXPECT_TRUE(p.preferenceIgnored.empty()) << p.preferenceIgnored;
  EXPECT_EQ(p.toJson()["selectedBy"], "tuning");
  EXPECT_NE(
      p.toText().find("variant suffix_axis (selected by tuning)\ntunables: WORKGROUP_SIZE=64 (tuning)\n"),
      std::string::npos)
      << p.toText();
}

// Overrides feed eligibility: x [2, 4, 2048] over axis 1 has hidden 4 * 2048 = 8192 < 16384, so split-K
// is ineligible until SPLIT_MIN_HIDDEN is lowered (split min(64, pow2ceil(8192 / 4096)) = 2).
TEST(TunablesPlan, OverrideCanMakeAVariantEligible) {
  PlanRequest r = rmsSuffix(4);
  EXPECT_FALSE(verdict(planSeed(kRms, r, "h200"), "suffix_axis_splitk").eligible);
  r.preferredVariant = "suffix_axis_splitk";
  r.tunables["SPLIT_MIN_HIDDEN"] = expr::Value(4096);
  Plan p = planSeed(kRms, r, "h200");
  EXPECT_EQ(p.variant, "suffix_axis_splitk");
  EXPECT_EQ(p.selectedBy, "tuning");
}

// The preferred variant is not eligible with the tuned tunables: planned as if there were no
// preference — the manifest's tunables (split-K eligible again, by priority) and no overrides.
TEST(TunablesPlan, IneligiblePreferenceFallsBackWithoutOverrides) {
  PlanRequest r = rmsSuffix(16);
  r.preferredVariant = "suffix_axis_splitk";
  r.tunables["SPLIT_MIN_HIDDEN"] = expr::Value(65536);  // 32768 < 65536: split-K ineligible with it
  Plan p = planSeed(kRms, r, "h200");
  EXPECT_EQ(p.variant, "suffix_axis_splitk");
  EXPECT_EQ(p.selectedBy, "priority");
  EXPECT_TRUE(p.tunables.empty());
  EXPECT_TRUE(verdict(p, "suffix_axis_splitk").eligible);  // judged with the manifest's 16384
  EXPECT_NE(
      p.preferenceIgnored.find("preferred variant 'suffix_axis_splitk' with SPLIT_MIN_HIDDEN=65536 is not "
                               "eligible: when[3] `normalizedHidden >= tunables.SPLIT_MIN_HIDDEN` is false"),
      std::string::npos)
      << p.preferenceIgnored;
  EXPECT_NE(p.toText().find("tuning ignored: preferred variant"), std::string::npos) << p.toText();
  EXPECT_TRUE(p.toJson().contains("preferenceIgnored"));
  // Only the preferred variant's eligibility counts: the same override with suffix_axis preferred
  // (which does not read SPLIT_MIN_HIDDEN) is taken as tuned.
  r.preferredVariant = "suffix_axis";
  Plan q = planSeed(kRms, r, "h200");
  EXPECT_EQ(q.variant, "suffix_axis");
  EXPECT_EQ(q.selectedBy, "tuning");
  EXPECT_EQ(q.tunables.at("SPLIT_MIN_HIDDEN"), expr::Value(65536));
}

// A forced variant that an override makes ineligible is an error that names the override.
TEST(TunablesPlan, ForcedVariantIneligibleWithOverrideIsAnError) {
  PlanRequest r = rmsSuffix(16);
  r.forcedVariant = "suffix_axis_splitk";
  r.tunables["SPLIT_MIN_HIDDEN"] = expr::Value(65536);
  expectError(ErrorCode::NoVariant, [&] { planSeed(kRms, r, "h200"); },
              {"forced variant 'suffix_axis_splitk' is not eligible with SPLIT_MIN_HIDDEN=65536"});
}

// Gemma does not clamp: its variants require workgroupSize <= the device limits, so a size the
// device cannot run makes them ineligible (clear reason), never a bad shader.
TEST(TunablesPlan, GemmaWorkgroupSizeAboveTheDeviceLimitIsIneligible) {
  PlanRequest r = ropeRequest(1, 8, 16, 256);
  r.tunables["workgroupSize"] = expr::Value(128);
  Plan p = planSeed(kGemma, r, "h200");
  EXPECT_EQ(p.passes[0].dispatch[0], 64u);  // threads 8192 / 128
  r.tunables["workgroupSize"] = expr::Value(2048);
  expectError(ErrorCode::NoVariant, [&] { planSeed(kGemma, r, "h200"); },
              {"is eligible with workgroupSize=2048",
               "`tunables.workgroupSize <= device.limits.maxComputeInvocationsPerWorkgroup` is false"});
  // As a tuning preference it is dropped, and the request plans as without tuning.
  r.preferredVariant = "vec4";
  Plan q = planSeed(kGemma, r, "h200");
  EXPECT_EQ(q.variant, "vec4");
  EXPECT_EQ(q.selectedBy, "priority");
  EXPECT_EQ(q.passes[0].dispatch[0], 32u);  // threads 8192 / 256
}

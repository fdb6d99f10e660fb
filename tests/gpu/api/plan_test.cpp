// Kernel::plan(): what a call would do, through the public API: the plan the call then runs, the
// verdicts, forced variants, another device's profile, and errors for bad requests.
#include <gtest/gtest.h>

#include <vector>

#include "api_test_util.h"
#include "support/expect_error.h"

namespace wgk::api_test {
namespace {

const std::map<std::string, TensorSpec> kGeluInputs = {{"X", {DType::Float16, {4, 64}}},
                                                       {"bias", {DType::Float16, {64}}}};

const PlanVariant* verdict(const KernelPlan& p, const std::string& id) {
  for (const PlanVariant& v : p.variants)
    if (v.id == id) return &v;
  return nullptr;
}

TEST(KernelPlan, SaysWhatTheCallThenRuns) {
  const Kernel gelu = kernel("com.microsoft.FastGelu");  // const: plan and call are const
  const KernelPlan p = gelu.plan(kGeluInputs);
  EXPECT_EQ(p.op, "com.microsoft.FastGelu");
  EXPECT_EQ(p.selectedBy, "priority");
  ASSERT_NE(verdict(p, p.variant), nullptr);
  EXPECT_TRUE(verdict(p, p.variant)->eligible);
  EXPECT_EQ(p.variants.size(), gelu.signature().variants.size());
  ASSERT_EQ(p.outputs.size(), 1u);
  EXPECT_EQ(p.outputs[0].name, "Y");
  EXPECT_EQ(p.outputs[0].dtype, DType::Float16);
  EXPECT_EQ(p.outputs[0].shape, (Shape{4, 64}));
  ASSERT_FALSE(p.passes.empty());
  EXPECT_GT(p.passes[0].dispatch[0], 0u);
  EXPECT_TRUE(p.passes[0].wgsl.empty());  // not asked for
  EXPECT_NE(p.json.find("\"variant\":\"" + p.variant + "\""), std::string::npos) << p.json;
  EXPECT_NE(p.json.find("\"bindings\""), std::string::npos);

  const HostTensor x(DType::Float16, {4, 64}), b(DType::Float16, {64});
  const CallResult r = gelu.call({{"X", x}, {"bias", b}});
  EXPECT_EQ(r.variant, p.variant);
  EXPECT_EQ(r.host.at("Y").shape(), p.outputs[0].shape);
}

TEST(KernelPlan, IneligibleVariantsSayWhy) {
  const KernelPlan p = kernel("com.microsoft.FastGelu").plan({{"X", {DType::Float32, {3, 5}}}});
  bool someIneligible = false;
  for (const PlanVariant& v : p.variants) {
    if (!v.eligible) EXPECT_FALSE(v.reason.empty()) << v.id;
    someIneligible = someIneligible || !v.eligible;
  }
  EXPECT_TRUE(someIneligible);  // f32 and no bias rule out the f16 and bias variants
}

TEST(KernelPlan, ForcedVariantAndAttributes) {
  const Kernel rms = kernel("ai.onnx.RMSNormalization");
  const std::map<std::string, TensorSpec> in = {{"x", {DType::Float32, {2, 64}}},
                                                {"scale", {DType::Float32, {64}}}};
  const KernelPlan chosen = rms.plan(in, {.attrs = {{"epsilon", 1e-3}}});
  const KernelPlan forced = rms.plan(in, {.variant = chosen.variant});
  EXPECT_EQ(forced.variant, chosen.variant);
  EXPECT_EQ(forced.selectedBy, "forced");
  for (const PlanVariant& v : chosen.variants) {
    if (v.eligible) continue;
    test_support::expectError([&] { rms.plan(in, {.variant = v.id}); }, ErrorCode::NoVariant, {v.id});
    break;
  }
  test_support::expectError(
      [&] {
        rms.plan(in, {.attrs = {{"epsilon", std::string("small")}}});
      },
      ErrorCode::Contract, {"epsilon"});
}

TEST(KernelPlan, ForAnotherDevicesProfileWithShaders) {
  const DeviceProfile h200 =
      DeviceProfile::load(std::string(WGK_SOURCE_DIR) + "/tests/data/profiles/h200.json");
  const Kernel matmul = kernel("ai.onnx.MatMul");
  const std::map<std::string, TensorSpec> in = {{"a", {DType::Float16, {2048, 4096}}},
                                                {"b", {DType::Float16, {4096, 4096}}}};
  const KernelPlan p = matmul.plan(in, {.device = h200, .wgsl = true});
  EXPECT_EQ(p.variant.rfind("tensor_core_f16", 0), 0u) << p.variant;  // subgroup matrices on the H200
  ASSERT_FALSE(p.passes.empty());
  EXPECT_NE(p.passes[0].wgsl.find("@compute"), std::string::npos);
  EXPECT_NE(p.json.find("\"wgsl\""), std::string::npos);
  // lavapipe has no subgroup matrices: the local plan differs.
  EXPECT_NE(matmul.plan(in).variant, p.variant);
}

TEST(KernelPlan, BadRequestsAreErrors) {
  const Kernel gelu = kernel("com.microsoft.FastGelu");
  test_support::expectError([&] { gelu.plan({}); }, ErrorCode::Contract, {"X"});
  test_support::expectError([&] { gelu.plan({{"X", {DType::Int32, {4}}}}); }, ErrorCode::Contract, {"int32"});
  test_support::expectError([&] { gelu.plan(kGeluInputs, {.variant = "no_such_variant"}); },
                            ErrorCode::InvalidArgument, {"unknown variant 'no_such_variant'"});
  test_support::expectError([] { Kernel().plan(kGeluInputs); }, ErrorCode::InvalidArgument, {"empty"});
}

}  // namespace
}  // namespace wgk::api_test

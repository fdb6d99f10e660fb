#include <gtest/gtest.h>

#include "ref_test_util.h"
#include "reference/ops.h"
#include "reference/registry.h"

namespace wgk {
namespace {
using reference::runReference;
using testutil::f16;
using testutil::f32;

TEST(ReferenceRegistry, KnowsTheEmbeddedOps) {
  EXPECT_EQ(reference::referenceOpIds(),
            (std::vector<std::string>{"ai.onnx.Add", "ai.onnx.ArgMax", "ai.onnx.Gather", "ai.onnx.MatMul",
                                      "ai.onnx.Mul", "ai.onnx.RMSNormalization", "ai.onnx.Softmax",
                                      "ai.onnx.TensorScatter", "ai.onnx.Transpose", "com.microsoft.FastGelu",
                                      "com.microsoft.GemmaRotaryEmbedding"}));
  EXPECT_TRUE(reference::hasReference("com.microsoft.FastGelu"));
  EXPECT_FALSE(reference::hasReference("FastGelu"));
  testutil::expectError([] { runReference("ai.onnx.Sub", {}, {}); }, ErrorCode::NotFound,
                        {"ai.onnx.Sub", "ai.onnx.Add", "com.microsoft.FastGelu", "ai.onnx.RMSNormalization"});
}

TEST(ReferenceRegistry, UsesTheManifestArgNamesAndDefaults) {
  const auto x = f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  const auto bias = f32({4}, {0.5, 0, -0.5, 1});
  auto sum = runReference("ai.onnx.Add", {{"a", x}, {"b", bias}}, {});
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(sum.at("c").toDoubles(), reference::add(x, bias).toDoubles());
  testutil::expectError(
      [&] {
        runReference("ai.onnx.Add", {{"a", x}}, {});
      },
      ErrorCode::Contract, {"missing required input 'b'"});
  EXPECT_EQ(runReference("ai.onnx.Softmax", {{"x", x}}, {}).at("y").toDoubles(),
            reference::softmax(x, -1).toDoubles());
  EXPECT_EQ(runReference("ai.onnx.Softmax", {{"x", x}}, {{"axis", 0}}).at("y").toDoubles(),
            reference::softmax(x, 0).toDoubles());
  auto g = runReference("com.microsoft.FastGelu", {{"X", x}, {"bias", bias}}, {});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g.at("Y").toDoubles(), reference::fastGelu(x, &bias).toDoubles());
  EXPECT_EQ(runReference("com.microsoft.FastGelu", {{"X", x}}, {}).at("Y").toDoubles(),
            reference::fastGelu(x, nullptr).toDoubles());

  EXPECT_EQ(runReference("ai.onnx.Mul", {{"a", x}, {"b", bias}}, {}).at("c").toDoubles(),
            reference::mul(x, bias).toDoubles());
  // ArgMax defaults: axis 0, keepdims 1, select_last_index 0.
  EXPECT_EQ(runReference("ai.onnx.ArgMax", {{"x", x}}, {}).at("y").shape(), (Shape{1, 4}));
  EXPECT_EQ(runReference("ai.onnx.ArgMax", {{"x", x}}, {{"axis", -1}, {"keepdims", 0}}).at("y").toDoubles(),
            reference::argMax(x, -1, 0, 0).toDoubles());

  const auto scale = f16({4}, {1, 2, 3, 4});
  // Defaults: axis -1, epsilon 1e-05, stash_type 1.
  auto r = runReference("ai.onnx.RMSNormalization", {{"x", x}, {"scale", scale}}, {});
  EXPECT_EQ(r.at("y").toDoubles(), reference::rmsNormalization(x, scale, -1, 1e-05, 1).toDoubles());
  auto r2 =
      runReference("ai.onnx.RMSNormalization", {{"x", x}, {"scale", f16({2, 4}, std::vector<double>(8, 1))}},
                   {{"axis", 0}, {"epsilon", 0.5}, {"stash_type", 10}});
  EXPECT_EQ(r2.at("y").toDoubles(),
            reference::rmsNormalization(x, f16({2, 4}, std::vector<double>(8, 1)), 0, 0.5, 10).toDoubles());

  const auto emb = f32({1, 2, 2}, {0.5, 1, 1000, -3});
  const auto q = f16({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  const auto qr = f16({1, 2, 2, 2}, {8, 7, 6, 5, 4, 3, 2, 1});
  auto out = runReference("com.microsoft.GemmaRotaryEmbedding",
                          {{"embT", emb}, {"qT", q}, {"qRotT", qr}, {"kT", qr}, {"kRotT", q}}, {});
  auto [o1, o2] = reference::gemmaRotaryEmbedding(emb, q, qr, qr, q);
  EXPECT_EQ(out.at("output1T").toDoubles(), o1.toDoubles());
  EXPECT_EQ(out.at("output2T").toDoubles(), o2.toDoubles());
}

TEST(ReferenceRegistry, RejectsBadCalls) {
  const ErrorCode c = ErrorCode::Contract;
  const auto x = f32({4}, {1, 2, 3, 4});
  testutil::expectError(
      [&] {
        runReference("com.microsoft.FastGelu", {{"x", x}}, {});
      },
      c, {"unknown input 'x'", "X, bias", "CPU reference of com.microsoft.FastGelu"});
  testutil::expectError(
      [&] {
        runReference("ai.onnx.RMSNormalization", {{"x", x}}, {});
      },
      c, {"missing required input 'scale'"});
  testutil::expectError(
      [&] {
        runReference("ai.onnx.RMSNormalization", {{"x", x}, {"scale", x}}, {{"eps", 1}});
      },
      c, {"unknown attribute 'eps'", "axis, epsilon, stash_type"});
  testutil::expectError(
      [&] {
        runReference("ai.onnx.RMSNormalization", {{"x", x}, {"scale", x}}, {{"axis", 0.5}});
      },
      c, {"axis must be an integer"});
  testutil::expectError(
      [&] {
        runReference("ai.onnx.RMSNormalization", {{"x", x}, {"scale", x}}, {{"stash_type", 2}});
      },
      c, {"stash_type 2"});
  testutil::expectError(
      [&] {
        runReference("com.microsoft.FastGelu", {{"X", x}}, {{"alpha", 1}});
      },
      c, {"unknown attribute 'alpha'", "none"});
  // Errors from the op itself carry the op id as context.
  testutil::expectError(
      [&] {
        runReference("com.microsoft.FastGelu", {{"X", HostTensor(DType::Int32, {1})}}, {});
      },
      c, {"int32", "in the CPU reference of com.microsoft.FastGelu"});
}

}  // namespace
}  // namespace wgk

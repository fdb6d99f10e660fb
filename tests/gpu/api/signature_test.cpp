// Kernel::signature(): the manifest's contract (ports, dtypes, ranks, args, attribute defaults,
// variants) through the public API, for packages of both manifest dialects.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <variant>

#include "api_test_util.h"
#include "support/expect_error.h"

namespace wgk::api_test {
namespace {

std::vector<std::string> names(const std::vector<const PortSignature*>& ports) {
  std::vector<std::string> out;
  for (const PortSignature* p : ports) out.push_back(p->name);
  return out;
}

TEST(KernelSignature, SeedsPackagePortsDtypesRanksAndOptionalInputs) {
  const KernelSignature s = kernel("com.microsoft.FastGelu").signature();
  EXPECT_EQ(s.op, "com.microsoft.FastGelu");
  EXPECT_EQ(names(s.inputs()), (std::vector<std::string>{"X", "bias"}));
  EXPECT_EQ(names(s.outputs()), (std::vector<std::string>{"Y"}));
  const PortSignature* bias = s.findPort("bias");
  ASSERT_NE(bias, nullptr);
  EXPECT_EQ(bias->direction, PortDirection::Input);
  EXPECT_TRUE(bias->optional);
  EXPECT_EQ(bias->rank, 1);
  EXPECT_EQ(bias->typeVariable, "T");
  EXPECT_EQ(bias->dtypes, (std::vector<DType>{DType::Float32, DType::Float16}));
  EXPECT_FALSE(s.findPort("X")->optional);
  EXPECT_EQ(s.findPort("X")->rank, std::nullopt);  // any rank
  EXPECT_EQ(s.findPort("Y")->direction, PortDirection::Output);
  EXPECT_EQ(s.findPort("x"), nullptr);  // names are case-sensitive
  EXPECT_TRUE(s.args.empty());
  EXPECT_TRUE(s.attributes.empty());
  ASSERT_FALSE(s.variants.empty());
  std::set<std::string> ids;
  for (const VariantSignature& v : s.variants) ids.insert(v.id);
  EXPECT_EQ(ids.size(), s.variants.size());
}

TEST(KernelSignature, FixedDtypeAndRankOfASeedsArg) {
  const KernelSignature s = kernel("com.microsoft.GemmaRotaryEmbedding").signature();
  const PortSignature* emb = s.findPort("embT");
  ASSERT_NE(emb, nullptr);
  EXPECT_EQ(emb->dtypes, std::vector<DType>{DType::Float32});
  EXPECT_EQ(emb->rank, 3);
}

TEST(KernelSignature, AttributeDefaultsKeepTheirKinds) {
  const KernelSignature s = kernel("ai.onnx.RMSNormalization").signature();
  const AttributeSignature* eps = s.findAttribute("epsilon");
  ASSERT_NE(eps, nullptr);
  ASSERT_TRUE(eps->defaultValue);
  EXPECT_EQ(std::get<double>(*eps->defaultValue), 1e-05);
  ASSERT_TRUE(s.findAttribute("axis")->defaultValue);
  EXPECT_EQ(std::get<int64_t>(*s.findAttribute("axis")->defaultValue), -1);
  EXPECT_EQ(s.findPort("scale")->typeVariable, "V");  // scale's dtype may differ from x's (T)
  EXPECT_EQ(s.findAttribute("eps"), nullptr);

  const KernelSignature scatter = kernel("ai.onnx.TensorScatter").signature();
  ASSERT_TRUE(scatter.findAttribute("mode")->defaultValue);
  EXPECT_EQ(std::get<std::string>(*scatter.findAttribute("mode")->defaultValue), "linear");
  // Transpose's perm defaults to null in the manifest: no default.
  EXPECT_FALSE(kernel("ai.onnx.Transpose").signature().findAttribute("perm")->defaultValue);
}

TEST(KernelSignature, AnInOutPortIsOnePortOnBothSides) {
  const KernelSignature s = kernel("ai.onnx.TensorScatter").signature();
  EXPECT_EQ(s.findPort("cache")->direction, PortDirection::InOut);
  EXPECT_EQ(names(s.outputs()), std::vector<std::string>{"cache"});
  const auto in = names(s.inputs());
  EXPECT_EQ(std::count(in.begin(), in.end(), "cache"), 1);
  size_t cachePorts = 0;
  for (const PortSignature& p : s.ports) cachePorts += p.name == "cache";
  EXPECT_EQ(cachePorts, 1u);
}

TEST(KernelSignature, ScalarArgsOfASpec21Package) {
  const Kernel spin = runtime().load(std::string(WGK_SOURCE_DIR) + "/tests/data/faults/wgk.test.Spin");
  const KernelSignature s = spin.signature();
  const ArgSignature* spins = s.findArg("spins");
  ASSERT_NE(spins, nullptr);
  EXPECT_EQ(spins->kind, "u32");
  EXPECT_EQ(s.findPort("spins"), nullptr);
  EXPECT_EQ(s.findPort("x")->dtypes, std::vector<DType>{DType::Float32});
}

TEST(KernelSignature, AnEmptyKernelIsAnError) {
  test_support::expectError([] { Kernel().signature(); }, ErrorCode::InvalidArgument, {"empty"});
}

}  // namespace
}  // namespace wgk::api_test

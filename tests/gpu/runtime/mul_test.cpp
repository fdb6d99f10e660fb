// ai.onnx.Mul on a real adapter, beyond test.json: the float16 product rounding bit for bit over
// all 65,536 float16 values, on the portable form (mulF16Bits: what devices without the numerics
// probe's fact, and the Hub's loader, render; lavapipe and the H200 have the fact, so `wgk test`
// never reaches it) and on the probed conversion, in every variant; and grids folded into y.
#include <gtest/gtest.h>

#include <cstring>

#include "planned_pass.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

const char* kMul = "ai.onnx.Mul";

HostTensor halves(const std::vector<uint16_t>& bits, Shape shape) {
  HostTensor t(DType::Float16, std::move(shape));
  std::memcpy(t.bytes().data(), bits.data(), bits.size() * 2);
  return t;
}

std::vector<uint16_t> bitsOf(const HostTensor& t) {
  std::vector<uint16_t> out(static_cast<size_t>(t.numel()));
  std::memcpy(out.data(), t.bytes().data(), out.size() * 2);
  return out;
}

// Every float16 value (a) times a shuffled copy of them (b: overflow, the subnormal range, products
// far below 2^-24, inf * 0), times 2^-12 splatted (every product lands 12 binades lower: subnormal
// ties such as 2^-25 and 1.5 * 2^-24), and times a row of 256 values broadcast: the reference's
// bits, NaN where it is NaN.
TEST(MulKernel, Float16RoundingIsExactForEveryValue) {
  std::vector<uint16_t> a(65536), b(65536);
  for (uint32_t i = 0; i < 65536; ++i)
    a[i] = static_cast<uint16_t>(i), b[i] = static_cast<uint16_t>(i * 40503u + 17u);
  const HostTensor ta = halves(a, {256, 256}), tb = halves(b, {256, 256});
  struct Req {
    const char* variant;
    HostTensor x, y;
  };
  const std::vector<Req> reqs = {
      {"flat_vec4", ta, tb},
      {"flat_vec4", ta, halves({0x0c00}, {1})},  // 2^-12
      {"flat_vec4", halves({0x4c00}, {}), tb},   // 16: 4095 * 16 = 65520, the tie to inf
      {"broadcast_vec4", ta, halves(std::vector<uint16_t>(b.begin(), b.begin() + 256), {256})},
      {"broadcast", ta, tb}};
  DeviceProfile unprobed = runtime().device();
  unprobed.numerics.clear();
  Kernel k = kernel(kMul);
  for (const auto& r : reqs) {
    SCOPED_TRACE(std::string(r.variant) + " b " + std::to_string(r.y.numel()));
    const HostTensor want = reference::runReference(kMul, {{"a", r.x}, {"b", r.y}}, {}).at("c");
    plan::PlanRequest req;
    req.inputs["a"] = {DType::Float16, r.x.shape()};
    req.inputs["b"] = {DType::Float16, r.y.shape()};
    req.forcedVariant = r.variant;
    const plan::Plan portable = wgk::introspect::planner(k).plan(req, unprobed);
    ASSERT_NE(portable.passes[0].wgsl.find("mulF16Bits(p)"), std::string::npos);
    HostTensor gotPortable(DType::Float16, want.shape());
    const auto bytes =
        runPlanned(portable, {{"a", r.x}, {"b", r.y}}, static_cast<uint64_t>(want.numel()) * 2);
    std::memcpy(gotPortable.bytes().data(), bytes.data(), bytes.size());
    CallOptions o;
    o.variant = r.variant;
    o.placement = OutputPlacement::Host;
    const HostTensor gotProbed = k.call({{"a", r.x}, {"b", r.y}}, o).host.at("c");
    const auto w = bitsOf(want);
    const std::vector<std::pair<const char*, const HostTensor*>> results = {{"portable", &gotPortable},
                                                                            {"probed", &gotProbed}};
    for (const auto& [label, got] : results) {
      const auto g = bitsOf(*got);
      size_t bad = 0;
      for (size_t i = 0; i < w.size(); ++i) {
        const bool nanW = (w[i] & 0x7c00) == 0x7c00 && (w[i] & 0x3ff),
                   nanG = (g[i] & 0x7c00) == 0x7c00 && (g[i] & 0x3ff);
        if ((nanW && nanG) || g[i] == w[i]) continue;
        if (bad++ < 5)
          ADD_FAILURE() << label << " element " << i << ": got 0x" << std::hex << g[i] << " want 0x" << w[i];
      }
      EXPECT_EQ(bad, 0u) << label;
    }
  }
}

// A workgroup size of 1 makes every variant need more than 65,535 workgroups: the grid folds into
// y (x = 65535) and the kernels' linear index wid.x + wid.y * num_workgroups.x must cover every
// element once, the overshoot of the last row guarded.
TEST(MulKernel, FoldedGridsCoverEveryElement) {
  struct Case {
    const char* variant;
    Shape a, b;
  };
  const std::vector<Case> cases = {{"flat_vec4", {65537, 16}, {65537, 16}},  // 65,537 invocations of 4 words
                                   {"flat_vec4", {}, {65537, 16}},
                                   {"broadcast_vec4", {65537, 4}, {4}},  // 65,537 words
                                   {"broadcast", {65537, 5}, {5}}};      // 81,922 invocations of 4 elements
  Kernel k = kernel(kMul);
  const std::map<std::string, expr::Value> tunables = {{"WORKGROUP_SIZE", int64_t{1}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.variant);
    const HostTensor a = rnd(DType::Float32, c.a, 11), b = rnd(DType::Float32, c.b, 12);
    plan::PlanRequest req;
    req.inputs["a"] = {DType::Float32, c.a};
    req.inputs["b"] = {DType::Float32, c.b};
    req.forcedVariant = c.variant;
    req.tunables = tunables;
    const plan::Plan p = wgk::introspect::plan(k, req, /*renderShaders=*/false);
    ASSERT_EQ(p.passes[0].dispatch[0], 65535u);
    ASSERT_GE(p.passes[0].dispatch[1], 2u);
    CallOptions o;
    o.variant = c.variant;
    o.placement = OutputPlacement::Host;
    const HostTensor got = wgk::introspect::call(k, {{"a", a}, {"b", b}}, o, tunables).host.at("c");
    const HostTensor want = reference::runReference(kMul, {{"a", a}, {"b", b}}, {}).at("c");
    const CompareResult r = compareTensors(got, want, Tolerance{});  // exact: one correctly rounded product
    EXPECT_TRUE(r.pass) << r.summary();
  }
}

}  // namespace
}  // namespace wgk::runtime_test

// ai.onnx.Add on a real adapter, beyond test.json: the portable float16 rounding (what devices
// without the numerics probe's fact, and the Hub's loader, render) over all 65,536 float16 values,
// grids folded into y (a workgroup size of 1 through the tunable), and the stored words of int8 and
// uint8 outputs (wrapped in the kernel, not by the readback).
#include <gtest/gtest.h>

#include <cstring>

#include "core/half.h"
#include "gpu/device.h"
#include "plan/plan.h"
#include "planned_pass.h"
#include "runtime/introspect.h"
#include "runtime/tensor_storage.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

const char* kAdd = "ai.onnx.Add";
const char* kVariants[] = {"same_shape_vec4", "scalar_b_vec4", "scalar_a_vec4", "broadcast_vec4",
                           "broadcast"};

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

// Every float16 value (a) against a shuffled copy of them (b), and every value against 65504 /
// -inf / NaN (the scalar forms): the portable rounding (f16BitsOf) and the probed conversion give
// the reference's bits, NaN for NaN.
TEST(AddKernel, Float16RoundingIsExactForEveryValue) {
  std::vector<uint16_t> a(65536), b(65536);
  for (uint32_t i = 0; i < 65536; ++i)
    a[i] = static_cast<uint16_t>(i), b[i] = static_cast<uint16_t>(i * 40503u + 17u);
  const HostTensor ta = halves(a, {256, 256}), tb = halves(b, {256, 256});
  const HostTensor big = halves({0x7bff}, {1}), ninf = halves({0xfc00}, {1});
  struct Req {
    const char* variant;
    HostTensor x, y;
  };
  const std::vector<Req> reqs = {
      {"same_shape_vec4", ta, tb},
      {"scalar_b_vec4", ta, big},
      {"scalar_a_vec4", ninf, tb},
      {"broadcast_vec4", ta, halves(std::vector<uint16_t>(b.begin(), b.begin() + 256), {256})},
      {"broadcast", ta, tb}};
  DeviceProfile unprobed = runtime().device();
  unprobed.numerics.clear();
  Kernel k = kernel(kAdd);
  for (const auto& r : reqs) {
    SCOPED_TRACE(r.variant);
    const HostTensor want = reference::runReference(kAdd, {{"a", r.x}, {"b", r.y}}, {}).at("c");
    plan::PlanRequest req;
    req.inputs["a"] = {DType::Float16, r.x.shape()};
    req.inputs["b"] = {DType::Float16, r.y.shape()};
    req.forcedVariant = r.variant;
    const plan::Plan portable = wgk::introspect::planner(k).plan(req, unprobed);
    ASSERT_NE(portable.passes[0].wgsl.find("f16BitsOf(sum)"), std::string::npos);
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

// A workgroup size of 1 makes every variant need more than 65,535 workgroups: the manifest's grid
// folds into y (x = 65535) and the kernels' linear index wid.x + wid.y * num_workgroups.x must
// cover every element once, the overshoot of the last row guarded.
TEST(AddKernel, FoldedGridsCoverEveryElement) {
  struct Case {
    const char* variant;
    Shape a, b;
  };
  const std::vector<Case> cases = {
      {"same_shape_vec4", {65537, 16}, {65537, 16}},  // 65,537 invocations of 4 words
      {"scalar_b_vec4", {65537, 16}, {1}},
      {"scalar_a_vec4", {}, {65537, 16}},
      {"broadcast_vec4", {65537, 4}, {4}},  // 65,537 words
      {"broadcast", {65537, 5}, {5}}};      // 81,922 invocations of 4 elements
  Kernel k = kernel(kAdd);
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
    const HostTensor want = reference::runReference(kAdd, {{"a", a}, {"b", b}}, {}).at("c");
    const CompareResult r = compareTensors(got, want, Tolerance{});  // exact: one correctly rounded add
    EXPECT_TRUE(r.pass) << r.summary();
  }
}

// The stored word of an int8 output is the wrapped value sign-extended, of a uint8 output the low
// byte: read through a 32-bit view of the output buffer, so the readback's narrowing hides nothing.
TEST(AddKernel, NarrowIntegersAreStoredWrapped) {
  Kernel k = kernel(kAdd);
  const std::vector<double> i8a = {127, -128, 100, -100, 1, 0, -1, 127},
                            i8b = {1, -1, 30, -30, -1, 0, -1, 127};
  const std::vector<double> u8a = {255, 0, 200, 128, 1, 0, 7, 255}, u8b = {1, 255, 100, 128, 0, 0, 249, 255};
  for (const char* v : kVariants) {
    SCOPED_TRACE(v);
    const bool scalarA = std::string(v) == "scalar_a_vec4", scalarB = std::string(v) == "scalar_b_vec4";
    for (DType t : {DType::Int8, DType::Uint8}) {
      const auto& av = t == DType::Int8 ? i8a : u8a;
      const auto& bv = t == DType::Int8 ? i8b : u8b;
      const HostTensor a = scalarA ? HostTensor::fromDoubles(t, {1}, std::vector<double>{av[0]})
                                   : HostTensor::fromDoubles(t, {8}, av);
      const HostTensor b = scalarB ? HostTensor::fromDoubles(t, {1}, std::vector<double>{bv[0]})
                                   : HostTensor::fromDoubles(t, {8}, bv);
      CallOptions o;
      o.variant = v;
      o.placement = OutputPlacement::Device;
      const DeviceTensor c = k.call({{"a", a}, {"b", b}}, o).device.at("c");
      const HostTensor words = runtime().download(
          GpuTensor{c.view().buffer, t == DType::Int8 ? DType::Int32 : DType::Uint32, {8}});
      const HostTensor want = reference::runReference(kAdd, {{"a", a}, {"b", b}}, {}).at("c");
      EXPECT_EQ(words.toDoubles(), want.toDoubles()) << dtypeName(t);
    }
  }
}

}  // namespace
}  // namespace wgk::runtime_test

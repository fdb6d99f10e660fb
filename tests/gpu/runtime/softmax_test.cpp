// ai.onnx.Softmax on a real adapter, beyond test.json: row grids folded into y (more than 65,535
// rows for the workgroup-per-row variants) and the packed-rows loop over row groups (more than
// 65,535 x 32 rows), against the CPU reference; and the special values of the online templates
// decided from bits: -inf entries give exactly 0, a row whose only finite entry is -FLT_MAX gives
// exactly 1 there (the running maximum starts at -FLT_MAX, yet that entry still counts), fully
// masked rows and rows with NaN or +inf are all NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpu/device.h"
#include "plan/plan.h"
#include "runtime/binding_layout.h"
#include "runtime/introspect.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

const char* kSoftmax = "ai.onnx.Softmax";

HostTensor softmaxOn(Kernel& k, const HostTensor& x, const std::string& variant, int64_t axis = -1) {
  CallOptions o;
  o.variant = variant;
  o.attrs["axis"] = axis;
  o.placement = OutputPlacement::Host;
  return k.call({{"x", x}}, o).host.at("y");
}

Tolerance toleranceOf(DType t) {
  Tolerance tol;
  if (t == DType::Float16)
    tol.ulp = 1, tol.abs = 1e-7;
  else
    tol.abs = 1e-8, tol.rel = 2e-5;
  return tol;
}

TEST(SoftmaxKernel, FoldedRowGridsCoverEveryRow) {
  struct Case {
    const char* variant;
    DType dtype;
    Shape x;
  };
  // 65,537 rows: x = 65535, y = 2 for the workgroup-per-row variants; 2,097,153 rows of 4 are
  // 65,536 groups of 32 for packed rows, whose grid stops at 65,535 workgroups (one loops twice).
  const std::vector<Case> cases = {{"online_wg_vec4", DType::Float16, {65537, 36}},
                                   {"online_wg", DType::Float32, {65537, 33}},
                                   {"online_packed_rows_vec4_nosg", DType::Float16, {2097153, 4}}};
  Kernel k = kernel(kSoftmax);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.variant);
    const HostTensor x = rnd(c.dtype, c.x, 21, -6, 6);
    plan::PlanRequest req;
    req.inputs["x"] = {c.dtype, c.x};
    req.forcedVariant = c.variant;
    const plan::Plan p = wgk::introspect::plan(k, req, /*renderShaders=*/false);
    EXPECT_EQ(p.passes[0].dispatch[0], 65535u);
    const HostTensor got = softmaxOn(k, x, c.variant);
    const HostTensor want = reference::runReference(kSoftmax, {{"x", x}}, {}).at("y");
    const CompareResult r = compareTensors(got, want, toleranceOf(c.dtype));
    EXPECT_TRUE(r.pass) << r.summary();
  }
}

TEST(SoftmaxKernel, SpecialValuesAreDecidedFromBits) {
  constexpr double inf = std::numeric_limits<double>::infinity(), lowest = -3.4028234663852886e38;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Rows of 8: masked entries, only -FLT_MAX finite, fully masked, a NaN, a +inf, near the maximum.
  const std::vector<std::vector<double>> rows = {{-inf, 1, -inf, 1, -inf, -inf, -inf, -inf},
                                                 {lowest, -inf, -inf, -inf, -inf, -inf, -inf, -inf},
                                                 {-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf},
                                                 {1, 2, nan, 3, 4, 5, 6, 7},
                                                 {1, 2, 3, inf, 5, 6, 7, 8},
                                                 {3e38, -3e38, 3e38, 0, -inf, 1, 2, 3}};
  std::vector<double> flat;
  for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.end());
  // 48 copies of the six rows: > 32 rows, so the packed-rows variants are eligible too.
  std::vector<double> many;
  for (int i = 0; i < 8; ++i) many.insert(many.end(), flat.begin(), flat.end());
  const HostTensor x = HostTensor::fromDoubles(DType::Float32, {48, 8}, many);
  const std::vector<double> want0 = {0, 0.5, 0, 0.5, 0, 0, 0, 0}, want1 = {1, 0, 0, 0, 0, 0, 0, 0},
                            want5 = {0.5, 0, 0.5, 0, 0, 0, 0, 0};
  Kernel k = kernel(kSoftmax);
  for (const char* v :
       {"online_wg_vec4", "online_local_vec4_nosg", "online_local_nosg", "online_packed_rows_vec4_nosg"}) {
    SCOPED_TRACE(v);
    const HostTensor y = softmaxOn(k, x, v);
    for (int64_t r = 0; r < 48; ++r)
      for (int64_t c = 0; c < 8; ++c) {
        const double got = y.at(r * 8 + c);
        switch (r % 6) {
          case 0:
            EXPECT_EQ(got, want0[c]) << r << "," << c;
            break;
          case 1:
            EXPECT_EQ(got, want1[c]) << r << "," << c;
            break;
          case 5:
            EXPECT_EQ(got, want5[c]) << r << "," << c;
            break;
          default:
            EXPECT_TRUE(std::isnan(got)) << r << "," << c << ": " << got;
        }
      }
  }
}

// online_subgroup_rows_vec4 needs subgroups of at least 16 lanes, so no test.json case runs it on
// lavapipe (8): its WGSL, planned for this device with 32-lane subgroups, must still compile here
// (the H200 runs it).
TEST(SoftmaxKernel, SubgroupRowsWgslCompilesOnThisDevice) {
  DeviceProfile wide = runtime().device();
  if (!wide.hasFeature("subgroups")) GTEST_SKIP() << "no subgroups on this device";
  wide.adapterInfoNumbers["subgroupMinSize"] = 32;
  wide.adapterInfoNumbers["subgroupMaxSize"] = 32;
  Kernel k = kernel(kSoftmax);
  gpu::Device& dev = wgk::introspect::device(runtime());
  for (DType t : {DType::Float32, DType::Float16})
    for (const Shape& x : {Shape{64, 64}, Shape{1, 16, 128, 1024}}) {
      plan::PlanRequest req;
      req.inputs["x"] = {t, x};
      req.forcedVariant = "online_subgroup_rows_vec4";
      const plan::Plan p = wgk::introspect::planner(k).plan(req, wide);
      EXPECT_NO_THROW(dev.createComputePipeline(p.passes[0].wgsl, runtime::bindingLayout(p.passes[0]),
                                                "softmax subgroup rows"))
          << p.passes[0].wgsl;
    }
}

}  // namespace
}  // namespace wgk::runtime_test

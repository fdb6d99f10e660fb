// ai.onnx.ArgMax on a real adapter, beyond test.json: grids folded into y. A workgroup size of 1
// (and ROW_MIN_COLS 1, so that short rows take the row variant) makes 65,537 rows need more than
// 65,535 workgroups; the kernels' linear index wid.x + wid.y * num_workgroups.x must then reach
// every row once, the overshoot of the last grid row guarded.
#include <gtest/gtest.h>

#include "runtime/introspect.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

const char* kArgMax = "ai.onnx.ArgMax";

TEST(ArgMaxKernel, FoldedGridsCoverEveryRow) {
  struct Case {
    const char* variant;
    DType dtype;
    Shape x;
    int64_t selectLast;
  };
  const std::vector<Case> cases = {{"row", DType::Float32, {65537, 8}, 0},  // vec4 words
                                   {"row", DType::Int8, {65537, 5}, 1},     // scalars, with ties
                                   {"strided", DType::Float16, {65537, 3}, 0}};
  Kernel k = kernel(kArgMax);
  const std::map<std::string, expr::Value> tunables = {{"WORKGROUP_SIZE", int64_t{1}},
                                                       {"ROW_MIN_COLS", int64_t{1}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.variant) + " " + std::string(dtypeName(c.dtype)));
    HostTensor x = c.dtype == DType::Int8 ? HostTensor(DType::Int8, c.x) : rnd(c.dtype, c.x, 21, -100, 100);
    if (c.dtype == DType::Int8) {  // small integers: every row has equal maxima
      std::vector<double> v(static_cast<size_t>(x.numel()));
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7919) % 5);
      x = HostTensor::fromDoubles(DType::Int8, c.x, v);
    }
    const std::map<std::string, Attribute> attrs = {{"axis", int64_t{-1}},
                                                    {"select_last_index", c.selectLast}};
    plan::PlanRequest req;
    req.inputs["x"] = {c.dtype, c.x};
    req.attrs = {{"axis", expr::Value(int64_t{-1})}, {"select_last_index", expr::Value(c.selectLast)}};
    req.forcedVariant = c.variant;
    req.tunables = tunables;
    const plan::Plan p = wgk::introspect::plan(k, req, /*renderShaders=*/false);
    ASSERT_EQ(p.passes[0].dispatch[0], 65535u);
    ASSERT_EQ(p.passes[0].dispatch[1], 2u);
    CallOptions o;
    o.variant = c.variant;
    o.attrs = attrs;
    o.placement = OutputPlacement::Host;
    const HostTensor got = wgk::introspect::call(k, {{"x", x}}, o, tunables).host.at("y");
    const HostTensor want =
        reference::runReference(kArgMax, {{"x", x}},
                                {{"axis", -1}, {"select_last_index", double(c.selectLast)}})
            .at("y");
    const CompareResult r = compareTensors(got, want, Tolerance{});
    EXPECT_TRUE(r.pass) << r.summary();
  }
}

}  // namespace
}  // namespace wgk::runtime_test

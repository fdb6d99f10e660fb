// ai.onnx.Gather on a real adapter, beyond test.json: grids folded into y. A workgroup size of 1
// makes each variant need more than 65,535 workgroups (one per output word); the kernel's linear
// index wid.x + wid.y * num_workgroups.x must then reach every word once, the overshoot of the
// last grid row guarded. The indices mix negative and out-of-range values (zero slices).
#include <gtest/gtest.h>

#include <cstring>

#include "runtime/introspect.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

const char* kGather = "ai.onnx.Gather";

// count indices in [-(size + 2), size + 1]: negative ones and a few out of range.
HostTensor indicesOf(DType t, int64_t count, int64_t size) {
  HostTensor idx(t, {count});
  for (int64_t i = 0; i < count; ++i) {
    const int64_t v = (i * 7919) % (2 * size + 4) - (size + 2);
    if (t == DType::Int64)
      std::memcpy(idx.bytes().data() + 8 * i, &v, 8);
    else {
      const int32_t w = static_cast<int32_t>(v);
      std::memcpy(idx.bytes().data() + 4 * i, &w, 4);
    }
  }
  return idx;
}

TEST(GatherKernel, FoldedGridsCoverEveryWord) {
  struct Case {
    const char* variant;
    DType dtype, indexType;
    Shape data;
    int64_t axis, count;
  };
  const std::vector<Case> cases = {
      {"rows_vec4", DType::Float32, DType::Int64, {300, 4}, 0, 65537},      // one 16-byte word a row
      {"rows_vec4", DType::Float16, DType::Int32, {3, 10, 8}, 1, 21846},    // outer 3: 65,538 words
      {"rows_words", DType::Float16, DType::Int64, {100, 2}, 0, 65537},     // one u32 word a row
      {"half_pairs", DType::Float16, DType::Int64, {2, 50, 1}, -2, 65537},  // 65,537 words of 2 halves
      {"elements", DType::Float16, DType::Int32, {2, 50, 1}, -2, 32769}};   // 65,538 halves
  Kernel k = kernel(kGather);
  const std::map<std::string, expr::Value> tunables = {{"WORKGROUP_SIZE", int64_t{1}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.variant) + " " + std::string(dtypeName(c.dtype)));
    const int64_t size =
        c.data[static_cast<size_t>(c.axis < 0 ? c.axis + static_cast<int64_t>(c.data.size()) : c.axis)];
    const HostTensor data = rnd(c.dtype, c.data, 31, -100, 100);
    const HostTensor idx = indicesOf(c.indexType, c.count, size);
    plan::PlanRequest req;
    req.inputs["data"] = {c.dtype, c.data};
    req.inputs["indices"] = {c.indexType, idx.shape()};
    req.attrs = {{"axis", expr::Value(c.axis)}};
    req.forcedVariant = c.variant;
    req.tunables = tunables;
    const plan::Plan p = wgk::introspect::plan(k, req, /*renderShaders=*/false);
    ASSERT_EQ(p.passes[0].dispatch[0], 65535u);
    ASSERT_EQ(p.passes[0].dispatch[1], 2u);
    CallOptions o;
    o.variant = c.variant;
    o.attrs = {{"axis", c.axis}};
    o.placement = OutputPlacement::Host;
    const HostTensor got =
        wgk::introspect::call(k, {{"data", data}, {"indices", idx}}, o, tunables).host.at("output");
    const HostTensor want =
        reference::runReference(kGather, {{"data", data}, {"indices", idx}}, {{"axis", double(c.axis)}})
            .at("output");
    ASSERT_EQ(got.shape(), want.shape());
    EXPECT_TRUE(sameBytes(got, want));
  }
}

}  // namespace
}  // namespace wgk::runtime_test

// ai.onnx.Transpose on a real adapter, beyond test.json: every bit pattern through every variant
// (float16's 65,536 values, float32 NaN payloads and signalling NaNs, int64 words over the whole
// range, which test.json's double-valued data cannot spell), grids folded into y, and the plan-time
// error for a perm that is not a permutation.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "runtime/attributes.h"
#include "runtime/introspect.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

const char* kTranspose = "ai.onnx.Transpose";

HostTensor bits(DType t, const Shape& shape, uint64_t seed) {
  HostTensor x(t, shape);
  uint64_t s = seed;
  auto* p = reinterpret_cast<uint8_t*>(x.bytes().data());
  for (size_t i = 0; i < x.byteSize(); ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = static_cast<uint8_t>(s >> 56);
  }
  return x;
}

HostTensor want(const HostTensor& x, const std::vector<int64_t>& perm) {
  return reference::runReference(kTranspose, {{"x", x}}, {}, {{"perm", perm}}).at("y");
}

HostTensor run(Kernel& k, const HostTensor& x, const std::vector<int64_t>& perm, const std::string& variant,
               const std::map<std::string, expr::Value>& tunables = {}) {
  CallOptions o;
  o.variant = variant;
  o.attrs = {{"perm", perm}};
  o.placement = OutputPlacement::Host;
  return wgk::introspect::call(k, {{"x", x}}, o, tunables).host.at("y");
}

// Bit patterns a float conversion could disturb: every float16 value (NaN payloads, -0,
// subnormals), float32 words of random bits (NaN payloads, signalling NaNs, subnormals) with the
// signalling NaN 0x7f800001 and -0 set, int64 words of random bits with INT64_MIN and INT64_MAX:
// each variant must hand back the reference's bytes.
TEST(TransposeKernel, EveryVariantMovesBitsUnchanged) {
  HostTensor every16(DType::Float16, {256, 256});
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = static_cast<uint16_t>(i * 40503u + 17u);
    std::memcpy(every16.bytes().data() + 2 * i, &h, 2);
  }
  HostTensor f32 = bits(DType::Float32, {64, 96}, 3);
  const uint32_t special[2] = {0x7f800001u, 0x80000000u};
  std::memcpy(f32.bytes().data(), special, sizeof special);
  HostTensor i64 = bits(DType::Int64, {48, 40}, 4);
  const int64_t extremes[2] = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  std::memcpy(i64.bytes().data(), extremes, sizeof extremes);
  auto reshaped = [](const HostTensor& t, Shape s) {
    return HostTensor(t.dtype(), std::move(s), std::vector<std::byte>(t.bytes().begin(), t.bytes().end()));
  };
  struct Case {
    const char* variant;
    HostTensor x;
    std::vector<int64_t> perm;
  };
  const std::vector<Case> cases = {
      {"tiled", every16, {1, 0}},
      {"rows", reshaped(every16, {16, 16, 256}), {1, 0, 2}},
      {"generic", reshaped(every16, {4, 64, 256}), {2, 0, 1}},
      {"generic", reshaped(every16, {65536}), {0}},  // one word per invocation, also through copy
      {"copy", reshaped(every16, {1, 65536}), {1, 0}},
      {"tiled", f32, {1, 0}},
      {"rows", reshaped(f32, {8, 8, 96}), {1, 0, 2}},
      {"generic", reshaped(f32, {8, 8, 96}), {2, 1, 0}},
      {"copy", f32, {0, 1}},
      {"tiled", i64, {1, 0}},
      {"rows", reshaped(i64, {6, 8, 40}), {1, 0, 2}},
      {"generic", reshaped(i64, {6, 8, 40}), {2, 1, 0}},
      {"copy", reshaped(i64, {48, 1, 40}), {1, 0, 2}},
  };
  Kernel k = kernel(kTranspose);
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.variant) + " " + std::string(dtypeName(c.x.dtype())) + " " +
                 std::to_string(c.x.shape().size()) + "-d");
    const HostTensor got = run(k, c.x, c.perm, c.variant);
    const HostTensor w = want(c.x, c.perm);
    ASSERT_EQ(got.shape(), w.shape());
    EXPECT_TRUE(sameBytes(got, w)) << "bytes differ";
  }
}

// Tunables that shrink a workgroup's share (WORKGROUP_SIZE 1; TILE 1, TILE_ROWS 1: one word per
// tile edge) make every variant need more than 65,535 workgroups: the grid folds into y
// (x = 65535) and the kernels' linear index wid.x + wid.y * num_workgroups.x must reach every
// element once, the overshoot of the last grid row guarded.
TEST(TransposeKernel, FoldedGridsCoverEveryElement) {
  struct Case {
    const char* variant;
    DType dtype;
    Shape x;
    std::vector<int64_t> perm;
  };
  const std::vector<Case> cases = {
      {"copy", DType::Float32, {65537, 4}, {0, 1}},        // 65,537 vec4 words
      {"copy", DType::Float16, {1, 131074}, {1, 0}},       // 65,537 u32 words of two halves
      {"rows", DType::Float32, {2, 32769, 4}, {1, 0, 2}},  // 65,538 vec4 words
      {"rows", DType::Float16, {3, 21846, 2}, {1, 0, 2}},  // 65,538 u32 words
      {"generic", DType::Int64, {65537, 2}, {1, 0}},       // 131,074 elements
      {"generic", DType::Float16, {3, 43691}, {1, 0}},     // 65,537 words, the last half padding
      {"tiled", DType::Float32, {256, 257}, {1, 0}},       // 65,792 tiles of one element
      {"tiled", DType::Float16, {258, 1020}, {1, 0}},      // 65,790 tiles of 2 x 2 halves
      {"tiled", DType::Int64, {3, 150, 151}, {0, 2, 1}},   // 67,950 tiles over 3 batches
  };
  const std::map<std::string, expr::Value> tunables = {
      {"WORKGROUP_SIZE", int64_t{1}}, {"TILE", int64_t{1}}, {"TILE_ROWS", int64_t{1}}};
  Kernel k = kernel(kTranspose);
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.variant) + " " + std::string(dtypeName(c.dtype)));
    const HostTensor x = bits(c.dtype, c.x, 7);
    plan::PlanRequest req;
    req.inputs["x"] = {c.dtype, c.x};
    req.attrs = {{"perm", wgk::runtime::toValue(c.perm)}};
    req.forcedVariant = c.variant;
    req.tunables = tunables;
    const plan::Plan p = wgk::introspect::plan(k, req, /*renderShaders=*/false);
    ASSERT_EQ(p.passes[0].dispatch[0], 65535u);
    ASSERT_GE(p.passes[0].dispatch[1], 2u);
    const HostTensor got = run(k, x, c.perm, c.variant, tunables);
    EXPECT_TRUE(sameBytes(got, want(x, c.perm))) << "bytes differ";
  }
}

// A perm that is not a permutation of 0..rank-1 is refused when the call is planned, naming perm.
TEST(TransposeKernel, PermThatIsNotAPermutationIsAPlanError) {
  Kernel k = kernel(kTranspose);
  const HostTensor x = bits(DType::Float32, {2, 3}, 1);
  for (const auto& perm : std::vector<std::vector<int64_t>>{{1, 1}, {0}, {0, 2}, {-1, 0}, {0, 1, 2}}) {
    SCOPED_TRACE(::testing::PrintToString(perm));
    try {
      run(k, x, perm, "");
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("perm"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace wgk::runtime_test

// ai.onnx.TensorScatter on a real adapter, beyond test.json (which passes host tensors only): the
// cache is an in/out port, so a host cache comes back as the output while a device cache is
// written in place, only the update's elements touched (the rest keeps its bits) and nothing
// returned; a decode loop appending token after token into one device cache (linear and a
// circular ring buffer) for each variant; the work is the update's size, not the cache's (the
// Gemma decode and prefill shapes); grids folded into y cover every unit; errors.
#include <gtest/gtest.h>

#include <cstring>

#include "reference/ops.h"
#include "runtime/introspect.h"
#include "runtime_test_util.h"
#include "support/expect_error.h"

namespace wgk::runtime_test {
namespace {

const char* kScatter = "ai.onnx.TensorScatter";

HostTensor indices(std::vector<int64_t> v) {
  HostTensor t(DType::Int64, {static_cast<int64_t>(v.size())});
  std::memcpy(t.bytes().data(), v.data(), v.size() * 8);
  return t;
}

Shape withSeq(Shape s, int64_t axis, int64_t seq) {
  s[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(s.size()) : axis)] = seq;
  return s;
}

void expectSameBits(const HostTensor& got, const HostTensor& want) {
  ASSERT_EQ(got.dtype(), want.dtype());
  ASSERT_EQ(got.shape(), want.shape());
  size_t bad = 0;
  const size_t esz = dtypeBytes(want.dtype());
  for (size_t i = 0; i < want.byteSize(); i += esz)
    if (std::memcmp(got.bytes().data() + i, want.bytes().data() + i, esz) != 0 && bad++ < 5)
      ADD_FAILURE() << "element " << i / esz << " differs";
  EXPECT_EQ(bad, 0u);
}

// Seeded values in [lo, hi]: rnd for floats, integers otherwise.
HostTensor values(DType t, const Shape& shape, uint64_t seed, int lo, int hi) {
  if (t == DType::Float32 || t == DType::Float16) return rnd(t, shape, seed, lo, hi);
  std::vector<double> v(static_cast<size_t>(numel(shape)));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = lo + static_cast<double>((i * 2654435761u + seed * 40503u) % static_cast<uint64_t>(hi - lo + 1));
  return HostTensor::fromDoubles(t, shape, v);
}

CallOptions options(int64_t axis, const char* mode = "linear",
                    OutputPlacement placement = OutputPlacement::Auto) {
  CallOptions o;
  o.attrs = {{"axis", axis}, {"mode", std::string(mode)}};
  o.placement = placement;
  return o;
}

TEST(TensorScatterKernel, HostCacheIsReturnedDeviceCacheIsWrittenInPlace) {
  const Shape shape = {2, 4, 64, 32};
  const HostTensor cache = rnd(DType::Float16, shape, 1),
                   update = rnd(DType::Float16, {2, 4, 3, 32}, 2, 10, 20);
  const HostTensor w = indices({5, 62});  // sample 1: positions 62 and 63 written, 64 is past the end
  const HostTensor want = reference::tensorScatter(cache, update, &w, -2, false);
  Kernel k = kernel(kScatter);
  // A host cache: uploaded into a fresh buffer that is the output, read back and returned.
  CallResult h = k.call({{"cache", cache}, {"update", update}, {"write_indices", w}}, options(-2));
  EXPECT_EQ(h.variant, "vec4");
  EXPECT_TRUE(h.device.empty());
  expectSameBits(h.host.at("cache"), want);
  // Left on the device, the host cache's fresh buffer is returned as a device tensor.
  CallResult hd = k.call({{"cache", cache}, {"update", update}, {"write_indices", w}},
                         options(-2, "linear", OutputPlacement::Device));
  ASSERT_EQ(hd.device.count("cache"), 1u);
  expectSameBits(runtime().download(hd.device.at("cache")), want);
  // A device cache: written in place, nothing returned; every element outside the update keeps
  // its bits (the rest of the buffer is never written).
  DeviceTensor cd = runtime().upload(cache);
  CallResult d = k.call({{"cache", cd}, {"update", update}, {"write_indices", w}}, options(-2));
  EXPECT_TRUE(d.device.empty());
  EXPECT_TRUE(d.host.empty());
  expectSameBits(runtime().download(cd), want);
  // A device cache with host placement: written in place and also read back.
  DeviceTensor cd2 = runtime().upload(cache);
  CallResult dh = k.call({{"cache", cd2}, {"update", update}, {"write_indices", w}},
                         options(-2, "linear", OutputPlacement::Host));
  expectSameBits(dh.host.at("cache"), want);
  expectSameBits(runtime().download(cd2), want);
}

// Token after token into one device cache, as a decoder calls it: every variant, linear (the
// last token past the end is dropped) and circular (a ring buffer wrapping twice), the update and
// the write index from the host, compared with the reference applied step by step.
TEST(TensorScatterKernel, DecodeLoopAppendsIntoOneDeviceCache) {
  struct Case {
    const char* variant;
    DType dtype;
    Shape cache;
    int64_t axis;
  };
  const std::vector<Case> cases = {{"vec4", DType::Float16, {2, 2, 12, 16}, -2},   // rows of 32 bytes
                                   {"words", DType::Float32, {2, 3, 5, 12}, -1},   // the transposed key cache
                                   {"halves", DType::Float16, {2, 3, 5, 11}, -1},  // rows of one half
                                   {"words", DType::Int8, {2, 2, 7, 3}, -2}};
  Kernel k = kernel(kScatter);
  for (const auto& c : cases) {
    for (const char* mode : {"linear", "circular"}) {
      SCOPED_TRACE(std::string(c.variant) + " " + mode + " " + std::string(dtypeName(c.dtype)));
      const bool circular = std::string(mode) == "circular";
      const int64_t maxSeq = c.cache[static_cast<size_t>(c.axis + 4)];
      HostTensor want = values(c.dtype, c.cache, 3, -50, 50);
      DeviceTensor cd = runtime().upload(want);
      const int64_t steps = circular ? 2 * maxSeq + 3 : maxSeq + 1;
      for (int64_t t = 0; t < steps; ++t) {
        const HostTensor update =
            values(c.dtype, withSeq(c.cache, c.axis, 1), 100 + static_cast<uint64_t>(t), 60, 90);
        const HostTensor w = indices({t, t / 2});  // the samples at different positions
        CallResult r =
            k.call({{"cache", cd}, {"update", update}, {"write_indices", w}}, options(c.axis, mode));
        ASSERT_EQ(r.variant, c.variant);
        want = reference::tensorScatter(want, update, &w, c.axis, circular);
      }
      expectSameBits(runtime().download(cd), want);
    }
  }
}

// The kernels dispatch one invocation per unit of the update, whatever the cache holds: the Gemma
// decode step (one token of 8 heads of 256 float16 into 8,192 positions: one workgroup) and the
// transposed key cache (8 workgroups), and 2,048-token prefills; one decode step runs on a 16 MiB
// device cache.
TEST(TensorScatterKernel, WorkIsTheUpdatesSizeNotTheCaches) {
  struct Case {
    Shape cache;
    int64_t axis, seq;
    const char* variant;
    uint32_t workgroups;
  };
  const std::vector<Case> cases = {{{1, 8, 8192, 256}, -2, 1, "vec4", 1},            // 4 KiB = 256 vec4 words
                                   {{1, 8, 256, 8192}, -1, 1, "halves", 8},          // 2,048 halves
                                   {{1, 8, 8192, 256}, -2, 2048, "vec4", 2048},      // 8 MiB = 524,288 words
                                   {{1, 8, 256, 8192}, -1, 2048, "halves", 16384}};  // 4,194,304 halves
  Kernel k = kernel(kScatter);
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.variant) + " seq " + std::to_string(c.seq));
    plan::PlanRequest req;
    req.inputs["cache"] = {DType::Float16, c.cache};
    req.inputs["update"] = {DType::Float16, withSeq(c.cache, c.axis, c.seq)};
    req.inputs["write_indices"] = {DType::Int64, {1}};
    req.attrs = {{"axis", expr::Value(c.axis)}};
    const plan::Plan p = wgk::introspect::plan(k, req, /*renderShaders=*/false);
    EXPECT_EQ(p.variant, c.variant);
    ASSERT_EQ(p.passes.size(), 1u);
    EXPECT_EQ(p.passes[0].dispatch[0] * p.passes[0].dispatch[1] * p.passes[0].dispatch[2], c.workgroups);
  }
  const Shape shape = {1, 4, 8192, 256};
  const HostTensor cache = rnd(DType::Float16, shape, 5), update = rnd(DType::Float16, {1, 4, 1, 256}, 6);
  const HostTensor w = indices({4095});
  DeviceTensor cd = runtime().upload(cache);
  k.call({{"cache", cd}, {"update", update}, {"write_indices", w}}, options(-2));
  expectSameBits(runtime().download(cd), reference::tensorScatter(cache, update, &w, -2, false));
}

// A workgroup size of 1 makes each variant need more than 65,535 workgroups: the grid folds into
// y and the kernels' linear index wid.x + wid.y * num_workgroups.x must reach every unit once.
TEST(TensorScatterKernel, FoldedGridsCoverEveryUnit) {
  struct Case {
    const char* variant;
    DType dtype;
    Shape cache;
    int64_t seq;
    const char* mode;
  };
  const std::vector<Case> cases = {
      {"vec4", DType::Float32, {2, 40000, 4}, 32769, "circular"},  // 65,538 words
      {"words", DType::Float32, {2, 40000, 1}, 32769, "linear"},
      {"halves", DType::Float16, {2, 40000, 1}, 32769, "circular"},
      {"halves_no_indices", DType::Float16, {2, 40001, 1}, 32769, "linear"}};
  Kernel k = kernel(kScatter);
  const std::map<std::string, expr::Value> tunables = {{"WORKGROUP_SIZE", int64_t{1}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.variant);
    const bool indexed = std::string(c.variant).find("no_indices") == std::string::npos;
    const HostTensor cache = rnd(c.dtype, c.cache, 7),
                     update = rnd(c.dtype, withSeq(c.cache, 1, c.seq), 8, 10, 20);
    const HostTensor w = indices({7000, 39990});  // sample 1 wraps (circular) or runs past the end (linear)
    plan::PlanRequest req;
    req.inputs["cache"] = {c.dtype, c.cache};
    req.inputs["update"] = {c.dtype, update.shape()};
    if (indexed) req.inputs["write_indices"] = {DType::Int64, {2}};
    req.attrs = {{"axis", expr::Value(int64_t{1})}, {"mode", expr::Value(std::string(c.mode))}};
    req.forcedVariant = c.variant;
    req.tunables = tunables;
    const plan::Plan p = wgk::introspect::plan(k, req, /*renderShaders=*/false);
    ASSERT_GE(p.passes[0].dispatch[1], 2u);  // folded (balanced: x = ceil(groups / y) <= 65535)
    ASSERT_LE(p.passes[0].dispatch[0], 65535u);
    ASSERT_GE(uint64_t{p.passes[0].dispatch[0]} * p.passes[0].dispatch[1], uint64_t{65538});
    CallOptions o = options(1, c.mode);
    o.variant = c.variant;
    std::map<std::string, TensorRef> in = {{"update", update}};
    if (indexed) in.emplace("write_indices", w);
    DeviceTensor cd = runtime().upload(cache);
    in.emplace("cache", cd);
    wgk::introspect::call(k, in, o, tunables);
    const HostTensor want =
        reference::tensorScatter(cache, update, indexed ? &w : nullptr, 1, std::string(c.mode) == "circular");
    expectSameBits(runtime().download(cd), want);
  }
}

TEST(TensorScatterKernel, Errors) {
  Kernel k = kernel(kScatter);
  const HostTensor cache(DType::Float32, {2, 4, 3}), update(DType::Float32, {2, 1, 3});
  test_support::expectError(
      [&] {
        k.call({{"cache", cache}, {"update", update}}, options(0));
      },
      ErrorCode::NoVariant, {"axis != 0"});
  test_support::expectError(
      [&] {
        k.call({{"cache", cache}, {"update", update}}, options(1, "ring"));
      },
      ErrorCode::Contract, {"mode"});
  test_support::expectError(
      [&] {
        k.call({{"cache", cache}, {"update", HostTensor(DType::Float32, {2, 5, 3})}}, options(1));
      },
      ErrorCode::NoVariant, {"seqLen <= maxSeq"});
  test_support::expectError(
      [&] {
        k.call({{"cache", cache}, {"update", update}, {"write_indices", indices({1})}}, options(1));
      },
      ErrorCode::NoVariant, {"write_indices"});
  // One device buffer as the update and the cache: bound read-only and writable in one pass.
  DeviceTensor big = runtime().upload(HostTensor(DType::Float32, {2, 4, 3}));
  const GpuTensor alias{big.view().buffer, DType::Float32, {2, 1, 3}, 0};
  test_support::expectError(
      [&] {
        k.call({{"cache", big}, {"update", alias}}, options(1));
      },
      ErrorCode::InvalidArgument, {"binds one GPU buffer as 'update' and 'cache'"});
}

}  // namespace
}  // namespace wgk::runtime_test

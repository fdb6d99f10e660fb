// Kernels on the device: f16 bit-exactness, subgroups, multi-pass batches, uniforms, timestamps.
#include <gtest/gtest.h>

#include "core/half.h"
#include "gpu/numerics_probe.h"
#include "gpu/self_check.h"
#include "test_device.h"
#include "wgk/error.h"

namespace wgk::gpu::test {
namespace {

TEST(Kernels, F16ArithmeticIsBitExact) {
  // y = (x * s) + b in f16: each operation rounds to binary16, or (WGSL allows it; NVIDIA does) the
  // multiply-add is fused into one rounding; the host reproduces both. The constants
  // are exact in f16 on purpose: this Dawn's WGSL compiler truncates inexact f16 literals (0.7h
  // becomes 0x3999, not the nearest 0x399a), while run-time f16 arithmetic rounds to nearest even.
  const char* wgsl = R"(enable f16;
@group(0) @binding(0) var<storage, read> x : array<f16>;
@group(0) @binding(1) var<storage, read_write> y : array<f16>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let i = gid.x;
  if (i < arrayLength(&x)) {
    let p = x[i] * 0.6875h;
    y[i] = p + 3.25h;
  }
}
)";
  Device& dev = sharedDevice();
  const size_t n = 1000;  // not a multiple of the workgroup, nor of 2 f16 per word: odd-size buffers
  std::vector<uint16_t> x(n), want(n), fused(n);
  const uint16_t b = floatToHalf(3.25f);
  for (size_t i = 0; i < n; ++i) {
    x[i] = floatToHalf((static_cast<float>(i) - 500.f) * 0.0371f);
    want[i] = f16MulAddUnfused(x[i], 0.6875f, b);
    fused[i] = f16MulAddFused(x[i], 0.6875f, b);
  }
  Buffer bx = dev.createBuffer(n * 2, kInOut), by = dev.createBuffer(n * 2, kInOut);
  bx.upload(bytesOf(x));
  ComputePipeline pipe = dev.createComputePipeline(wgsl, {RO, RW}, "f16 affine");
  CommandRecorder rec = dev.recorder();
  rec.dispatch(pipe, {{bx.handle(), 0, 0}, {by.handle(), 0, 0}}, (n + 63) / 64);
  rec.submit();
  std::vector<uint16_t> got = readAll<uint16_t>(by, n);
  size_t shown = 0;
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i] && got[i] != fused[i] && shown++ < 5)
      ADD_FAILURE() << "element " << i << ": got 0x" << std::hex << got[i] << " want 0x" << want[i]
                    << " (fused: 0x" << fused[i] << ")";
  EXPECT_EQ(checkF16MulAdd(got, want, fused).bad, 0u);
}

// The host forms themselves: the two differ where the product's rounding matters (the H200 gave
// the fused 0xc7ff where the two-rounding form is 0xc800), and a value matching neither is caught.
TEST(Kernels, F16MulAddFormsOnTheHost) {
  const uint16_t x = floatToHalf((59.f - 500.f) * 0.0371f), b = floatToHalf(3.25f);
  EXPECT_EQ(f16MulAddUnfused(x, 0.6875f, b), 0xc800);
  EXPECT_EQ(f16MulAddFused(x, 0.6875f, b), 0xc7ff);
  const std::vector<uint16_t> unfused{0xc800, 0x3c00}, fused{0xc7ff, 0x3c00};
  EXPECT_EQ(checkF16MulAdd(std::vector<uint16_t>{0xc800, 0x3c00}, unfused, fused).bad, 0u);
  const F16MulAddCheck f = checkF16MulAdd(std::vector<uint16_t>{0xc7ff, 0x3c00}, unfused, fused);
  EXPECT_EQ(f.bad, 0u);
  EXPECT_TRUE(f.fusedSeen);
  const F16MulAddCheck bad = checkF16MulAdd(std::vector<uint16_t>{0xc7fe, 0x3c01}, unfused, fused);
  EXPECT_EQ(bad.bad, 2u);
  EXPECT_EQ(bad.firstBad, 0);
}

TEST(Kernels, SelfCheckPasses) {
  std::string summary = runF16SelfCheck(sharedDevice());
  EXPECT_NE(summary.find("bit-exact"), std::string::npos);
}

// The numerics probe ran at device creation. lavapipe and the H200 round f16 to nearest even
// (their runs of the ulp-0 product_rounding_exact cases pass), so the fact is expected there; the
// probe run again by hand agrees with what the profile recorded.
TEST(Kernels, NumericsProbeFindsRoundToNearestEven) {
  Device& d = sharedDevice();
  EXPECT_EQ(d.profile().numerics.count(kF16RoundingRne), 1u) << d.numericsProbe();
  EXPECT_NE(d.numericsProbe().find("match round-to-nearest-even"), std::string::npos) << d.numericsProbe();
  const NumericsProbe again = probeNumerics(d);
  EXPECT_EQ(again.facts, d.profile().numerics) << again.detail;
  // The round-trip form ran too and said which way it went (lavapipe drops the f32(f16(x)) pair).
  const bool roundTrip = d.profile().numerics.count(kF16RoundTripRne) == 1;
  EXPECT_NE(d.numericsProbe().find(roundTrip ? "as well" : "no f16-round-trip-rne"), std::string::npos)
      << d.numericsProbe();
}

TEST(Kernels, SubgroupAddMatchesTheAdapterSubgroupSize) {
  const char* wgsl = R"(enable subgroups;
@group(0) @binding(0) var<storage, read_write> o : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>, @builtin(subgroup_size) sgs : u32,
        @builtin(subgroup_invocation_id) sid : u32) {
  o[gid.x * 3u] = subgroupAdd(1u);
  o[gid.x * 3u + 1u] = sgs;
  o[gid.x * 3u + 2u] = subgroupMax(sid);
}
)";
  Device& dev = sharedDevice();
  const uint32_t groups = 4, n = groups * 64;
  Buffer out = dev.createBuffer(n * 3 * 4, kInOut);
  ComputePipeline pipe = dev.createComputePipeline(wgsl, {RW}, "subgroups");
  CommandRecorder rec = dev.recorder();
  rec.dispatch(pipe, {{out.handle()}}, groups);
  rec.submit();
  std::vector<uint32_t> v = readAll<uint32_t>(out, n * 3);
  const int64_t lo = dev.profile().adapterInfoNumbers.at("subgroupMinSize");
  const int64_t hi = dev.profile().adapterInfoNumbers.at("subgroupMaxSize");
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t sum = v[i * 3], size = v[i * 3 + 1], maxId = v[i * 3 + 2];
    ASSERT_GE(size, lo) << "invocation " << i;
    ASSERT_LE(size, hi) << "invocation " << i;
    // 64 is a multiple of every subgroup size up to 64: subgroups are full.
    ASSERT_EQ(sum, size) << "invocation " << i;
    ASSERT_EQ(maxId, size - 1) << "invocation " << i;
  }
}

TEST(Kernels, TwoPassesInOneSubmitSecondReadsTheFirst) {
  const char* addOne = R"(
@group(0) @binding(0) var<storage, read> a : array<u32>;
@group(0) @binding(1) var<storage, read_write> b : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  if (gid.x < arrayLength(&a)) { b[gid.x] = a[gid.x] + 1u; }
}
)";
  const char* timesThree = R"(
@group(0) @binding(0) var<storage, read> b : array<u32>;
@group(0) @binding(1) var<storage, read_write> c : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  if (gid.x < arrayLength(&b)) { c[gid.x] = b[gid.x] * 3u; }
}
)";
  Device& dev = sharedDevice();
  const uint32_t n = 300;
  std::vector<uint32_t> a(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = i * 5;
  Buffer ba = dev.createBuffer(n * 4, kInOut), bb = dev.createBuffer(n * 4, kInOut),
         bc = dev.createBuffer(n * 4, kInOut);
  ba.upload(bytesOf(a));
  ComputePipeline p1 = dev.createComputePipeline(addOne, {RO, RW}, "add one");
  ComputePipeline p2 = dev.createComputePipeline(timesThree, {RO, RW}, "times three");
  CommandRecorder rec = dev.recorder({.timestamps = true});
  rec.dispatch(p1, {{ba.handle()}, {bb.handle()}}, (n + 63) / 64);
  rec.dispatch(p2, {{bb.handle()}, {bc.handle()}}, (n + 63) / 64);
  rec.dispatch(p2, {{bb.handle()}, {bc.handle()}}, 0);  // zero workgroups: skipped
  EXPECT_EQ(rec.dispatchCount(), 3u);
  SubmitResult r = rec.submit();
  ASSERT_EQ(r.passNs.size(), 3u);
  EXPECT_GT(r.passNs[0], 0u);
  EXPECT_GT(r.passNs[1], 0u);
  EXPECT_EQ(r.passNs[2], 0u);
  EXPECT_EQ(r.totalNs(), r.passNs[0] + r.passNs[1]);
  std::vector<uint32_t> c = readAll<uint32_t>(bc, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], (a[i] + 1) * 3) << i;
  EXPECT_EQ(rec.dispatchCount(), 0u);  // reusable
}

TEST(Kernels, TimestampsArePositiveAcrossManyPasses) {
  const char* spin = R"(
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  var acc = 0.0;
  for (var k = 0u; k < 256u; k++) { acc = acc + sin(f32(gid.x + k)); }
  o[gid.x] = acc;
}
)";
  Device& dev = sharedDevice();
  Buffer o = dev.createBuffer(64 * 16 * 4, kInOut);
  ComputePipeline pipe = dev.createComputePipeline(spin, {RW}, "spin");
  CommandRecorder rec = dev.recorder({.timestamps = true});
  for (int i = 0; i < 40; ++i) rec.dispatch(pipe, {{o.handle()}}, 16);  // grows the query set past 64
  SubmitResult r = rec.submit();
  ASSERT_EQ(r.passNs.size(), 40u);
  for (size_t i = 0; i < r.passNs.size(); ++i) EXPECT_GT(r.passNs[i], 0u) << "pass " << i;
  EXPECT_LT(r.totalNs(), 60ull * 1000 * 1000 * 1000);
}

TEST(Kernels, UniformParamsAndAReusedBindGroup) {
  const char* wgsl = R"(
struct Params { n : u32, scale : f32, bias : f32, pad : u32 }
@group(0) @binding(0) var<uniform> params : Params;
@group(0) @binding(1) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  if (gid.x < params.n) { o[gid.x] = o[gid.x] * params.scale + params.bias; }
}
)";
  Device& dev = sharedDevice();
  struct Params {
    uint32_t n;
    float scale, bias;
    uint32_t pad;
  } params{50, 2.0f, 1.0f, 0};
  Buffer u = dev.createBuffer(sizeof params, BufferUsage::Uniform | BufferUsage::CopyDst);
  u.upload(std::as_bytes(std::span(&params, 1)));
  std::vector<float> data(64, 1.0f);
  Buffer o = dev.createBuffer(64 * 4, kInOut);
  o.upload(bytesOf(data));
  ComputePipeline pipe = dev.createComputePipeline(wgsl, {UNI, RW}, "affine");
  BindingEntry entries[] = {{u.handle()}, {o.handle()}};
  BindGroup group = dev.createBindGroup(pipe, entries, "affine group");
  CommandRecorder rec = dev.recorder();
  rec.dispatch(pipe, group, 2);
  rec.dispatch(pipe, group, 2);  // (1*2+1)*2+1 = 7 for the first 50, untouched after
  rec.submit();
  std::vector<float> got = readAll<float>(o, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], i < 50 ? 7.0f : 1.0f) << i;
}

TEST(Kernels, BindsBufferRangesAtAlignedOffsets) {
  const char* wgsl = R"(
@group(0) @binding(0) var<storage, read_write> o : array<u32>;
@compute @workgroup_size(1)
fn main() { o[0] = arrayLength(&o); }
)";
  Device& dev = sharedDevice();
  const uint64_t align = dev.profile().limit("minStorageBufferOffsetAlignment");
  Buffer b = dev.createBuffer(align + 64, kInOut);
  ComputePipeline pipe = dev.createComputePipeline(wgsl, {RW}, "length");
  CommandRecorder rec = dev.recorder();
  rec.dispatch(pipe, {{b.handle(), align, 40}}, 1);
  rec.submit();
  uint32_t len = 0;
  b.readback(&len, 4, align);
  EXPECT_EQ(len, 10u);
}

}  // namespace
}  // namespace wgk::gpu::test

#include "gpu/numerics_probe.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "core/half.h"
#include "gpu/run_once.h"
#include "wgk/error.h"

namespace wgk::gpu {
namespace {

// The three forms, written as the templates write them (vec4 lanes, f16 values held in f32 where
// the kernels hold them so):
//   y[3i]     GemmaRoPE rotate:      f16(f32(q) * c) + f16(f32(q_rot) * s)   (f16 add)
//   y[3i + 1] plain conversion:      f16(v)
//   y[3i + 2] RMSNormalization f16:  f16(v) * f16(c)                        (f16 multiply)
//   y32[i]    RMSNormalization f16 -> f32: f32(f16(v)) * s                  (f32 output)
// The first three make kF16RoundingRne; the last, kF16RoundTripRne, also needs the f32(f16(x))
// pair kept (f16-emulating compilers drop it: Mesa lavapipe does).
constexpr const char* kProbeKernel = R"(enable f16;
@group(0) @binding(0) var<storage, read> q : array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> qr : array<vec4<f16>>;
@group(0) @binding(2) var<storage, read> c : array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> s : array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> v : array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> y : array<vec4<f16>>;
@group(0) @binding(6) var<storage, read_write> y32 : array<vec4<f32>>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let i = gid.x;
  if (i < arrayLength(&v)) {
    y[3u * i] = vec4<f16>(vec4<f32>(q[i]) * c[i]) + vec4<f16>(vec4<f32>(qr[i]) * s[i]);
    y[3u * i + 1u] = vec4<f16>(v[i]);
    y[3u * i + 2u] = vec4<f16>(v[i]) * vec4<f16>(c[i]);
    y32[i] = vec4<f32>(vec4<f16>(v[i])) * s[i];
  }
}
)";

constexpr size_t kLanes = 256;  // 64 vec4 words

struct Inputs {
  std::vector<uint16_t> q, qr;
  std::vector<float> c, s, v;
};

// Designed lanes first (ties, values just off a tie, the subnormal range, overflow, and pairs where
// an unrounded or fused product changes the sum), then pseudo-random ones.
Inputs makeInputs() {
  Inputs in;
  in.q.resize(kLanes), in.qr.resize(kLanes), in.c.resize(kLanes), in.s.resize(kLanes), in.v.resize(kLanes);
  const float tie = 1.0f + 0x1p-11f;  // halfway between 1 and 1 + 2^-10
  const float v0[] = {tie,      -tie,     1.0f + 3 * 0x1p-11f, tie + 0x1p-20f,  0x1p-25f,     3 * 0x1p-25f,
                      65519.0f, 65520.0f, -65520.0f,           1.0f + 0x1p-10f, 0.333333343f, 1e-6f};
  // q, q_rot with c = s = f16(cos(pi/4)) = 0.70703125: f16(q c) + f16(q_rot s) differs from the
  // unrounded sum and from both fused forms (tests/.. product_rounding_exact has more of them).
  const float qs[][2] = {{-5.8515625f, 5.55859375f},  {4.21875f, -3.91796875f}, {6.421875f, -7.51171875f},
                         {-7.44921875f, -4.1171875f}, {7.3125f, -7.91015625f},  {6.1796875f, 3.84765625f}};
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) * 0x1p-24f;  // [0, 1)
  };
  for (size_t i = 0; i < kLanes; ++i) {
    float qv = (next() - 0.5f) * 16, rv = (next() - 0.5f) * 16, cv = 0.70703125f, sv = 0.70703125f;
    float vv = (next() - 0.5f) * 8;
    if (i < std::size(qs))
      qv = qs[i][0], rv = qs[i][1];
    else
      cv = roundToHalf(next() * 2 - 1), sv = roundToHalf(next() * 2 - 1);
    if (i < std::size(v0)) vv = v0[i];
    if (i == std::size(v0)) vv = 1.0f + 0x1p-10f, cv = 1.5f;  // f16 product 1.5 + 3 * 2^-11: a tie
    in.q[i] = floatToHalf(qv), in.qr[i] = floatToHalf(rv), in.c[i] = cv, in.s[i] = sv, in.v[i] = vv;
  }
  return in;
}

// Host binary16 results of the three forms (products of two binary16 values and sums of two are
// exact in float, so one floatToHalf is the correctly rounded binary16 operation).
std::vector<float> expected32(const Inputs& in) {
  std::vector<float> want(kLanes);
  for (size_t i = 0; i < kLanes; ++i) want[i] = roundToHalf(in.v[i]) * in.s[i];
  return want;
}

std::vector<uint16_t> expected(const Inputs& in) {
  std::vector<uint16_t> want(3 * kLanes);
  for (size_t i = 0; i < kLanes; ++i) {
    const size_t w = i / 4, l = i % 4, o = 12 * w + l;
    const float p = roundToHalf(halfToFloat(in.q[i]) * in.c[i]);
    const float r = roundToHalf(halfToFloat(in.qr[i]) * in.s[i]);
    want[o] = floatToHalf(p + r);
    want[o + 4] = floatToHalf(in.v[i]);
    want[o + 8] = floatToHalf(roundToHalf(in.v[i]) * roundToHalf(in.c[i]));
  }
  return want;
}

}  // namespace

NumericsProbe probeNumerics(Device& device) {
  return withContext("while probing the device's f16 rounding", [&] {
    if (!device.profile().hasFeature("shader-f16"))
      throw Error(ErrorCode::Setup, "the device lacks shader-f16, so the f16 rounding probe cannot run");
    const Inputs in = makeInputs();
    const std::vector<uint16_t> want = expected(in);
    const std::vector<float> want32 = expected32(in);
    auto bytes = [](const auto& v) { return std::as_bytes(std::span(v)); };
    const auto results =
        runOnce(device, kProbeKernel, {bytes(in.q), bytes(in.qr), bytes(in.c), bytes(in.s), bytes(in.v)},
                {want.size() * 2, kLanes * 4}, kLanes / 4 / 64, "f16 rounding probe");
    std::vector<uint16_t> got(want.size());
    std::memcpy(got.data(), results[0].data(), want.size() * 2);
    std::vector<float> got32(kLanes);
    std::memcpy(got32.data(), results[1].data(), kLanes * 4);
    static const char* kForm[] = {"f16(f32(q) * c) + f16(f32(q_rot) * s)", "f16(v)", "f16(v) * f16(c)"};
    NumericsProbe out;
    for (size_t o = 0; o < want.size(); ++o) {
      if (got[o] == want[o]) continue;
      const size_t w = o / 12, k = (o % 12) / 4, lane = w * 4 + o % 4;
      char msg[200];
      std::snprintf(msg, sizeof msg, "%s, lane %zu: 0x%04x (%g), round-to-nearest-even gives 0x%04x (%g)",
                    kForm[k], lane, got[o], halfToFloat(got[o]), want[o], halfToFloat(want[o]));
      out.detail = msg;
      return out;
    }
    out.facts.insert(kF16RoundingRne);
    out.detail = std::to_string(want.size()) +
                 " f16 roundings (conversion, f16 add, f16 multiply) match round-to-nearest-even";
    for (size_t i = 0; i < kLanes; ++i) {
      if (std::memcmp(&got32[i], &want32[i], 4) == 0) continue;
      char msg[200];
      std::snprintf(msg, sizeof msg, "; f32(f16(v)) * s, lane %zu: %.9g, expected %.9g (no %s)", i, got32[i],
                    want32[i], kF16RoundTripRne);
      out.detail += msg;
      return out;
    }
    out.facts.insert(kF16RoundTripRne);
    out.detail += ", and " + std::to_string(kLanes) + " f32(f16(v)) * s as well";
    return out;
  });
}

}  // namespace wgk::gpu

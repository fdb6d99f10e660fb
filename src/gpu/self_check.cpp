#include "gpu/self_check.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "core/half.h"
#include "gpu/run_once.h"
#include "wgk/error.h"

namespace wgk::gpu {
namespace {

constexpr const char* kSelfCheckKernel = R"(enable f16;
@group(0) @binding(0) var<storage, read> x : array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> b : array<vec4<f16>>;
@group(0) @binding(2) var<storage, read_write> y : array<vec4<f16>>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let i = gid.x;
  if (i < arrayLength(&y)) {
    y[i] = x[i] * 1.5h + b[i];
  }
}
)";

}  // namespace

uint16_t f16MulAddUnfused(uint16_t x, float s, uint16_t b) {
  // Products and sums of binary16 values are exact in float, so each floatToHalf is one correctly
  // rounded binary16 operation.
  return floatToHalf(roundToHalf(halfToFloat(x) * s) + halfToFloat(b));
}

uint16_t f16MulAddFused(uint16_t x, float s, uint16_t b) {
  // One rounding of the exact x * s + b: exact in double for binary16 operands (s a binary16 value).
  return doubleToHalf(static_cast<double>(halfToFloat(x)) * s + halfToFloat(b));
}

F16MulAddCheck checkF16MulAdd(std::span<const uint16_t> got, std::span<const uint16_t> unfused,
                              std::span<const uint16_t> fused) {
  F16MulAddCheck c;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == unfused[i]) continue;
    if (got[i] == fused[i]) {
      c.fusedSeen = true;
      continue;
    }
    if (c.firstBad < 0) c.firstBad = static_cast<int64_t>(i);
    ++c.bad;
  }
  return c;
}

std::string runF16SelfCheck(Device& device) {
  return withContext("while running the f16 self-check kernel", [&] {
    if (!device.profile().hasFeature("shader-f16"))
      throw Error(ErrorCode::Setup, "the device lacks shader-f16, so the f16 self-check cannot run");
    constexpr size_t kCount = 256;  // 64 vec4<f16>
    std::vector<uint16_t> x(kCount), b(kCount), unfused(kCount), fused(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      // Values whose products and sums round in f16: the check covers rounding, not only exact cases.
      const float xv = static_cast<float>(static_cast<int>(i) - 128) * 0.3173f;
      const float bv = static_cast<float>(static_cast<int>(i * 7 % 101) - 50) * 0.0419f;
      x[i] = floatToHalf(xv);
      b[i] = floatToHalf(bv);
      unfused[i] = f16MulAddUnfused(x[i], 1.5f, b[i]);
      fused[i] = f16MulAddFused(x[i], 1.5f, b[i]);
    }
    const auto out =
        runOnce(device, kSelfCheckKernel, {std::as_bytes(std::span(x)), std::as_bytes(std::span(b))},
                {kCount * sizeof(uint16_t)}, kCount / 4 / 64, "self-check f16");
    std::vector<uint16_t> got(kCount);
    std::memcpy(got.data(), out[0].data(), kCount * sizeof(uint16_t));
    const F16MulAddCheck check = checkF16MulAdd(got, unfused, fused);
    if (check.firstBad >= 0) {
      const size_t i = static_cast<size_t>(check.firstBad);
      char msg[200];
      std::snprintf(msg, sizeof msg, "element %zu is 0x%04x (%g), expected 0x%04x (%g) or, fused, 0x%04x", i,
                    got[i], halfToFloat(got[i]), unfused[i], halfToFloat(unfused[i]), fused[i]);
      throw Error(ErrorCode::Gpu, std::string("the f16 kernel is not bit-exact: ") + msg);
    }
    return "f16 kernel (y = x * 1.5h + b): " + std::to_string(kCount) + " values bit-exact (" +
           (check.fusedSeen ? "multiply-add fused, as WGSL allows" : "multiply and add rounded apart") + ")";
  });
}

}  // namespace wgk::gpu

#include "gpu/self_check.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "core/half.h"
#include "gpu/run_once.h"
#include "wgk/error.h"

namespace wgk::gpu {
namespace {

constexpr const char* kKernel = R"(enable f16;
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

std::string runF16SelfCheck(Device& device) {
  return withContext("while running the f16 self-check kernel", [&] {
    if (!device.profile().hasFeature("shader-f16"))
      throw Error(ErrorCode::Setup, "the device lacks shader-f16, so the f16 self-check cannot run");
    constexpr size_t kCount = 256;  // 64 vec4<f16>
    std::vector<uint16_t> x(kCount), b(kCount), want(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      // Values whose products and sums round in f16: the check covers rounding, not only exact cases.
      const float xv = static_cast<float>(static_cast<int>(i) - 128) * 0.3173f;
      const float bv = static_cast<float>(static_cast<int>(i * 7 % 101) - 50) * 0.0419f;
      x[i] = floatToHalf(xv);
      b[i] = floatToHalf(bv);
      // f16 arithmetic: each operation rounds to binary16 (exact in float before rounding).
      const float prod = roundToHalf(halfToFloat(x[i]) * 1.5f);
      want[i] = floatToHalf(prod + halfToFloat(b[i]));
    }
    const auto out = runOnce(device, kKernel, {std::as_bytes(std::span(x)), std::as_bytes(std::span(b))},
                             {kCount * sizeof(uint16_t)}, kCount / 4 / 64, "self-check f16");
    std::vector<uint16_t> got(kCount);
    std::memcpy(got.data(), out[0].data(), kCount * sizeof(uint16_t));
    for (size_t i = 0; i < kCount; ++i) {
      if (got[i] != want[i]) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "element %zu is 0x%04x (%g), expected 0x%04x (%g)", i, got[i],
                      halfToFloat(got[i]), want[i], halfToFloat(want[i]));
        throw Error(ErrorCode::Gpu, std::string("the f16 kernel is not bit-exact: ") + msg);
      }
    }
    return "f16 kernel (y = x * 1.5h + b): " + std::to_string(kCount) + " values bit-exact";
  });
}

}  // namespace wgk::gpu

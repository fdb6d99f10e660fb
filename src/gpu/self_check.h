// The start-up self-check behind `wgk devices --self-check`: runs a tiny `enable f16;` kernel and
// compares every result bit for bit with the host's IEEE binary16 arithmetic. WGSL lets a compiler
// fuse a multiply and an add when the result is at least as accurate (NVIDIA's Vulkan driver does
// for f16: one rounding of x * s + b), so each element must equal either the two-rounding or the
// fused result; anything else (f32 kept, truncation, a wrong rounding) fails.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "gpu/device.h"

namespace wgk::gpu {

// Host binary16 results of x * s + b (x, b binary16 bits; s a value exact in binary16): the product
// and the sum rounded apart, and the fused form (one rounding of the exact value).
uint16_t f16MulAddUnfused(uint16_t x, float s, uint16_t b);
uint16_t f16MulAddFused(uint16_t x, float s, uint16_t b);

struct F16MulAddCheck {
  int64_t firstBad = -1;   // first element equal to neither form, -1 if none
  size_t bad = 0;          // elements equal to neither form
  bool fusedSeen = false;  // some element matched only the fused form
};
F16MulAddCheck checkF16MulAdd(std::span<const uint16_t> got, std::span<const uint16_t> unfused,
                              std::span<const uint16_t> fused);

// Returns a one-line summary ("f16 kernel ...: 256 values bit-exact (multiply-add fused, ...)"); throws Error(Gpu) naming the
// first mismatching element, or Error(Setup) when the device lacks shader-f16.
std::string runF16SelfCheck(Device& device);

}  // namespace wgk::gpu

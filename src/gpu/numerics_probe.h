// The numerics probe: at device creation, one small kernel checks the roundings that WebGPU leaves
// to the implementation (WGSL lets an f32 -> f16 conversion and f16 arithmetic round either way,
// and lets a compiler fuse a product into a sum) in exactly the expression forms the kernels use
// for their fast f16 paths, against the host's binary16 arithmetic. The result goes into
// DeviceProfile::numerics, where templates read it (`device.numerics.has("f16-rounding-rne")`)
// to choose between one conversion per rounding and the portable roundF16 (round() on a scaled
// f32, exact on any device).
#pragma once

#include <set>
#include <string>

#include "gpu/device.h"

namespace wgk::gpu {

inline constexpr const char* kF16RoundingRne = "f16-rounding-rne";
// kF16RoundingRne, and f32(f16(x)) really rounds (the pair is kept) before an f32 multiply. No
// kernel relies on it: lavapipe and the H200 both drop the pair (measured), which is why the
// templates round values that must come back to f32 with roundF16. Reported by `wgk devices`.
inline constexpr const char* kF16RoundTripRne = "f16-round-trip-rne";

struct NumericsProbe {
  std::set<std::string> facts;  // kF16RoundingRne, kF16RoundTripRne: the forms that matched
  std::string detail;           // what matched, or the first value that did not
};

// Runs the probe kernel on `device` (which must have shader-f16). Throws Error(Gpu) only when the
// kernel cannot run; a rounding that differs is a result (facts empty, detail says where).
NumericsProbe probeNumerics(Device& device);

}  // namespace wgk::gpu

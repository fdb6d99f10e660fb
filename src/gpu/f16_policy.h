// The shader-f16 decision: every wgk kernel stores or computes in f16, so the runtime refuses an
// adapter without it (DeviceOptions::requireF16, default true) and `wgk devices` reports it and
// exits non-zero. Kept as a pure function of the adapter's profile so the refusal path is tested
// with a profile, without pretending a real adapter lacks the feature.
#pragma once

#include <string>

#include "wgk/device.h"

namespace wgk::gpu {

// Empty when `adapter` offers shader-f16; otherwise the message saying so and what to check.
std::string missingF16Reason(const DeviceProfile& adapter);
// Throws Error(Setup) with missingF16Reason() when it is not empty.
void requireShaderF16(const DeviceProfile& adapter);

}  // namespace wgk::gpu

// The start-up self-check behind `wgk devices --self-check`: runs a tiny `enable f16;` kernel and
// compares every result bit for bit with the host's IEEE binary16 arithmetic.
#pragma once

#include <string>

#include "gpu/device.h"

namespace wgk::gpu {

// Returns a one-line summary ("f16 kernel: 256 values bit-exact"); throws Error(Gpu) naming the
// first mismatching element, or Error(Setup) when the device lacks shader-f16.
std::string runF16SelfCheck(Device& device);

}  // namespace wgk::gpu

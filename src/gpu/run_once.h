// One small kernel, run once on host arrays: the start-up checks (self_check.h, numerics_probe.h)
// upload a few inputs, dispatch, and read a few outputs back, waiting for each step.
//
//   std::vector<std::vector<std::byte>> out =
//       runOnce(dev, wgsl, {bytesOfX, bytesOfB}, {yBytes}, workgroups, "self-check");
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpu/device.h"

namespace wgk::gpu {

// Bindings 0 .. inputs.size() - 1 of group 0 are read-only storage buffers holding `inputs`; the
// next outputBytes.size() bindings are storage buffers of those sizes, returned in that order.
// Entry point "main", `workgroups` workgroups in x. Errors name `label`.
std::vector<std::vector<std::byte>> runOnce(Device& device, const std::string& wgsl,
                                            std::vector<std::span<const std::byte>> inputs,
                                            std::vector<uint64_t> outputBytes, uint32_t workgroups,
                                            const std::string& label);

}  // namespace wgk::gpu

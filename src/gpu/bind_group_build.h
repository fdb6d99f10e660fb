// Internal to src/gpu: host-side checks of binding entries and raw bind group creation, shared by
// Device::createBindGroup and CommandRecorder.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "gpu/device_state.h"
#include "gpu/pipeline.h"

namespace wgk::gpu {

// Cheap checks with precise messages (entry count, null buffer, offset alignment, range inside
// the buffer, binding size limits); Dawn validates the rest. Throws Error(InvalidArgument).
void validateBindingEntries(const DeviceState& s, const std::vector<BindingKind>& kinds,
                            std::span<const BindingEntry> entries, std::string_view label);
// No error scope: the caller holds one.
WGPUBindGroup makeBindGroup(DeviceState& s, WGPUBindGroupLayout layout, std::span<const BindingEntry> entries,
                            std::string_view label);

}  // namespace wgk::gpu

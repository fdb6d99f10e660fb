// Internal to src/gpu: building a DeviceProfile from an adapter or a device.
#pragma once

#include <set>
#include <string>

#include "gpu/webgpu_procs.h"
#include "wgk/device.h"

namespace wgk::gpu {

// adapterInfo (spec names; backendType "vulkan", adapterType "discrete-gpu"|...|"unknown").
void fillAdapterInfo(DeviceProfile& p, const WGPUAdapterInfo& info);
void fillSubgroupMatrixConfigs(DeviceProfile& p, const WGPUAdapterPropertiesSubgroupMatrixConfigs& configs);
std::set<std::string> featureNames(const WGPUSupportedFeatures& f);
std::set<std::string> wgslLanguageFeatureNames(WGPUInstance instance);

// The profile of an adapter (its features and limits): what the f16 decision looks at.
DeviceProfile adapterProfile(WGPUInstance instance, WGPUAdapter adapter);
// The profile of a device: the features and limits it was created with.
DeviceProfile deviceProfile(WGPUInstance instance, WGPUDevice device, WGPULimits* limitsOut);

}  // namespace wgk::gpu

// Internal to src/gpu: WebGPU spec names for webgpu.h enum values and struct fields.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "gpu/webgpu_procs.h"

namespace wgk::gpu {

// "shader-f16", "timestamp-query", Dawn's own features by Dawn's names; empty for unknown values.
std::string featureName(WGPUFeatureName f);
// "subgroup_id", "pointer_composite_access", ...; empty for unknown values.
std::string wgslLanguageFeatureName(WGPUWGSLLanguageFeatureName f);
// "vulkan", "metal", ... (GPUAdapterInfo has no backend field; this follows Dawn's JS names).
std::string backendTypeName(WGPUBackendType b);
// "discrete-gpu", "integrated-gpu", "cpu", "unknown".
std::string adapterTypeName(WGPUAdapterType t);
// "validation", "out-of-memory", "internal", "unknown".
std::string errorTypeName(WGPUErrorType t);
// Every field of WGPULimits by its spec name (maxComputeWorkgroupsPerDimension, ...).
std::map<std::string, uint64_t> limitsByName(const WGPULimits& l);

}  // namespace wgk::gpu

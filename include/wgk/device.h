// wgk/device.h — what wgk knows about a WebGPU device, and how it creates one.
//
// DeviceProfile is plain data: the JSON of `wgk devices --json`, and what `wgk plan
// --device-profile FILE` reads. WebGPU spec names throughout:
//
//   {"adapterInfo": {"vendor": "...", "architecture": "...", "device": "...", "description": "...",
//                    "backendType": "vulkan", "adapterType": "cpu", "subgroupMinSize": 8,
//                    "subgroupMaxSize": 8},
//    "features": ["shader-f16", "subgroups", "timestamp-query"],
//    "wgslLanguageFeatures": ["subgroup_id", ...],
//    "limits": {"maxComputeWorkgroupsPerDimension": 65535, ...},
//    "numerics": ["f16-rounding-rne"]}
//
// adapterInfo keys are optional (a profile may omit subgroup sizes: manifests test has()); so is
// numerics (facts the runtime probes on a real device; a profile without it has none).
//
//   wgk::DeviceProfile p = wgk::DeviceProfile::load("h200.json");
//   if (p.hasFeature("shader-f16")) ...; uint64_t n = p.limit("maxStorageBufferBindingSize");
//   std::string text = p.toJsonText();   // what `wgk devices --json` prints
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "wgk/export.h"

namespace wgk {

// How wgk creates its own device (Runtime::create, `wgk devices`).
struct DeviceOptions {
  bool requireF16 = true;                    // refuse an adapter without shader-f16 (every kernel needs it)
  std::vector<std::string> adapterToggles;   // added to the defaults (vulkan_enable_f16_on_nvidia)
  std::vector<std::string> enableToggles;    // device toggles
  std::vector<std::string> disableToggles;   // added to the defaults (timestamp_quantization)
  // Request chromium-experimental-subgroup-matrix (WGSL subgroup matrices: NVIDIA's tensor cores)
  // whenever the adapter offers it; Dawn offers it only with the adapter toggle allow_unsafe_apis,
  // which wgk then adds. false (RuntimeOptions, WGK_NO_SUBGROUP_MATRIX=1, `--no-subgroup-matrix`)
  // leaves both out, so no variant that needs subgroup matrices is eligible.
  bool subgroupMatrix = true;
  // The WebGPU library, loaded once per process by its first device (docs/setup.md): a library
  // exporting webgpu.h's C API (WGK_WEBGPU_LIBRARY), else npm webgpu's dawn.node (WGK_DAWN_NODE)
  // with wgk's N-API stubs (WGK_NAPI_STUBS). Empty: searched in the install prefix wgk runs from,
  // the build's default and next to the executable.
  std::string webgpuLibrary, dawnNode, napiStubs;
};


// One entry of GPUAdapterInfo.subgroupMatrixConfigs (chromium-experimental-subgroup-matrix).
struct SubgroupMatrixConfig {
  std::string componentType, resultComponentType;  // "f16", "f32", ...
  uint32_t M = 0, N = 0, K = 0;
};

struct WGK_API DeviceProfile {
  // String or integer fields of GPUAdapterInfo, by spec name. Integers stored as int64.
  std::map<std::string, std::string> adapterInfoStrings;
  std::map<std::string, int64_t> adapterInfoNumbers;
  bool isFallbackAdapter = false;                          // adapterInfo.isFallbackAdapter
  std::vector<SubgroupMatrixConfig> subgroupMatrixConfigs;  // adapterInfo.subgroupMatrixConfigs
  std::set<std::string> features;
  std::set<std::string> wgslLanguageFeatures;
  std::map<std::string, uint64_t> limits;
  // Facts measured on the device when it is created, by a probe kernel (src/gpu/numerics_probe.h),
  // which WebGPU does not promise: "f16-rounding-rne" when f32 -> f16 conversions and f16 adds and
  // multiplies, written as the kernels write them, round to nearest even and are not fused
  // (kernels take faster rounding paths only then); "f16-round-trip-rne" when, besides,
  // f32(f16(x)) is kept and rounds (informational). A profile without the field has none.
  std::set<std::string> numerics;

  bool hasFeature(std::string_view f) const { return features.count(std::string(f)) != 0; }
  // Throws Error(NotFound) naming the limit when the profile lacks it.
  uint64_t limit(std::string_view name) const;

  // The profile as JSON text, indented by `indent` spaces (-1: one line).
  std::string toJsonText(int indent = 2) const;
  // Parses JSON text and validates the shape (objects, arrays of strings, integer limits): errors
  // (Parse, Manifest) name the JSON path.
  static DeviceProfile fromJsonText(std::string_view text);
  static DeviceProfile load(const std::string& path);  // reads + parses a profile file
};

}  // namespace wgk

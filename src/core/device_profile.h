// What planning needs to know about a device, as plain data: the JSON of `wgk devices --json`
// and the file `wgk plan --device-profile FILE` reads. WebGPU spec names throughout:
//
//   {"adapterInfo": {"vendor": "...", "architecture": "...", "device": "...", "description": "...",
//                    "backendType": "vulkan", "adapterType": "cpu", "subgroupMinSize": 8,
//                    "subgroupMaxSize": 8},
//    "features": ["shader-f16", "subgroups", "timestamp-query"],
//    "wgslLanguageFeatures": ["subgroup_id", ...],
//    "limits": {"maxComputeWorkgroupsPerDimension": 65535, ...}}
//
// adapterInfo keys are optional (a profile may omit subgroup sizes: the RMS manifest tests has()).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace wgk {

struct DeviceProfile {
  // String or integer fields of GPUAdapterInfo, by spec name. Integers stored as int64.
  std::map<std::string, std::string> adapterInfoStrings;
  std::map<std::string, int64_t> adapterInfoNumbers;
  std::set<std::string> features;
  std::set<std::string> wgslLanguageFeatures;
  std::map<std::string, uint64_t> limits;

  bool hasFeature(std::string_view f) const { return features.count(std::string(f)) != 0; }
  // Throws Error(NotFound) naming the limit when the profile lacks it.
  uint64_t limit(std::string_view name) const;

  nlohmann::json toJson() const;
  // Validates the shape (objects, arrays of strings, integer limits); errors name the JSON path.
  static DeviceProfile fromJson(const nlohmann::json& j);
  static DeviceProfile load(const std::string& path);  // reads + parses a profile file
};

}  // namespace wgk

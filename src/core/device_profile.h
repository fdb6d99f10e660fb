// DeviceProfile lives in the public header wgk/device.h; this private header adds its JSON form
// as the layers use it (the public header names no third-party type).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "wgk/device.h"

namespace wgk {

nlohmann::json toJson(const DeviceProfile& profile);
// Validates the shape (objects, arrays of strings, integer limits); errors name the JSON path.
DeviceProfile deviceProfileFromJson(const nlohmann::json& j);

}  // namespace wgk

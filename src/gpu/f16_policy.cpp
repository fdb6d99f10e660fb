#include "gpu/f16_policy.h"

#include "wgk/error.h"

namespace wgk::gpu {

std::string missingF16Reason(const DeviceProfile& adapter) {
  if (adapter.hasFeature("shader-f16")) return {};
  auto field = [&](const char* k) {
    auto it = adapter.adapterInfoStrings.find(k);
    return it == adapter.adapterInfoStrings.end() || it->second.empty() ? std::string("?") : it->second;
  };
  return "the WebGPU adapter '" + field("description") + "' (vendor " + field("vendor") + ", backend " +
         field("backendType") +
         ") does not offer shader-f16, which every wgk kernel needs. On NVIDIA wgk already enables Dawn's "
         "adapter toggle vulkan_enable_f16_on_nvidia: the driver must support VK_KHR_shader_float16_int8 and "
         "16-bit storage; on a CPU, lavapipe must be Mesa 25 (mesa-vulkan-drivers from bookworm-backports: "
         "scripts/setup.sh installs it)";
}

void requireShaderF16(const DeviceProfile& adapter) {
  if (std::string why = missingF16Reason(adapter); !why.empty()) throw Error(ErrorCode::Setup, why);
}

}  // namespace wgk::gpu

#include "gpu/device_profile_build.h"

#include "gpu/names.h"
#include "core/log.h"
#include "wgk/error.h"

namespace wgk::gpu {
namespace {
const char* componentTypeName(WGPUSubgroupMatrixComponentType t) {
  switch (t) {
    case WGPUSubgroupMatrixComponentType_F32: return "f32";
    case WGPUSubgroupMatrixComponentType_F16: return "f16";
    case WGPUSubgroupMatrixComponentType_U32: return "u32";
    case WGPUSubgroupMatrixComponentType_I32: return "i32";
    case WGPUSubgroupMatrixComponentType_U8: return "u8";
    case WGPUSubgroupMatrixComponentType_I8: return "i8";
    default: return "unknown";
  }
}
}  // namespace

// The Dawn inside webgpu@0.6.2's dawn.node lays WGPUSubgroupMatrixConfig out wider than the
// header of react-native-webgpu@0.10.2 declares (measured on the H200: 28 bytes per entry, the five
// declared fields first, then two more u32), so the array is read by words with the stride that
// makes every entry a known component type and a plausible M x N x K: the header's 20 bytes first,
// then each wider candidate. None fits: no configs (and a log line), never garbage.
void fillSubgroupMatrixConfigs(DeviceProfile& p, const WGPUAdapterPropertiesSubgroupMatrixConfigs& c) {
  p.subgroupMatrixConfigs.clear();
  if (c.configCount == 0 || c.configs == nullptr) return;
  const auto* words = reinterpret_cast<const uint32_t*>(c.configs);
  auto known = [](uint32_t t) {
    return t >= WGPUSubgroupMatrixComponentType_F32 && t <= WGPUSubgroupMatrixComponentType_I8;
  };
  auto dim = [](uint32_t d) { return d >= 1 && d <= 256; };
  for (size_t stride : {5u, 6u, 7u, 8u}) {
    bool fits = true;
    for (size_t i = 0; i < c.configCount && fits; ++i) {
      const uint32_t* w = words + i * stride;
      fits = known(w[0]) && known(w[1]) && dim(w[2]) && dim(w[3]) && dim(w[4]);
    }
    if (!fits) continue;
    for (size_t i = 0; i < c.configCount; ++i) {
      const uint32_t* w = words + i * stride;
      p.subgroupMatrixConfigs.push_back(
          {componentTypeName(static_cast<WGPUSubgroupMatrixComponentType>(w[0])),
           componentTypeName(static_cast<WGPUSubgroupMatrixComponentType>(w[1])), w[2], w[3], w[4]});
    }
    return;
  }
  log::warn("gpu", "the adapter reports " + std::to_string(c.configCount) +
            " subgroup matrix configs in a layout wgk cannot read: none are used");
}

void fillAdapterInfo(DeviceProfile& p, const WGPUAdapterInfo& info) {
  p.adapterInfoStrings["vendor"] = fromView(info.vendor);
  p.adapterInfoStrings["architecture"] = fromView(info.architecture);
  p.adapterInfoStrings["device"] = fromView(info.device);
  p.adapterInfoStrings["description"] = fromView(info.description);
  p.adapterInfoStrings["backendType"] = backendTypeName(info.backendType);
  p.adapterInfoStrings["adapterType"] = adapterTypeName(info.adapterType);
  p.adapterInfoNumbers["subgroupMinSize"] = info.subgroupMinSize;
  p.adapterInfoNumbers["subgroupMaxSize"] = info.subgroupMaxSize;
}


std::set<std::string> featureNames(const WGPUSupportedFeatures& f) {
  std::set<std::string> out;
  for (size_t i = 0; i < f.featureCount; ++i)
    if (std::string n = featureName(f.features[i]); !n.empty()) out.insert(n);
  return out;
}

std::set<std::string> wgslLanguageFeatureNames(WGPUInstance instance) {
  WGPUSupportedWGSLLanguageFeatures f = WGPU_SUPPORTED_WGSL_LANGUAGE_FEATURES_INIT;
  procs().InstanceGetWGSLLanguageFeatures(instance, &f);
  std::set<std::string> out;
  for (size_t i = 0; i < f.featureCount; ++i)
    if (std::string n = wgslLanguageFeatureName(f.features[i]); !n.empty()) out.insert(n);
  procs().SupportedWGSLLanguageFeaturesFreeMembers(f);
  return out;
}

namespace {
// The profile of an adapter or of a device: the same queries through the adapter's or the
// device's getters (`of` is a WGPUAdapter or a WGPUDevice), with errors coded `code`.
template <class Object, class GetInfo, class GetFeatures, class GetLimits>
DeviceProfile queryProfile(WGPUInstance instance, Object of, GetInfo getInfo, GetFeatures getFeatures,
                           GetLimits getLimits, ErrorCode code, const char* what, const char* noInfo,
                           WGPULimits* limitsOut) {
  const Procs& p = procs();
  DeviceProfile prof;
  WGPUSupportedFeatures f = WGPU_SUPPORTED_FEATURES_INIT;
  getFeatures(of, &f);
  prof.features = featureNames(f);
  p.SupportedFeaturesFreeMembers(f);
  // The configs are chained into the info only where the feature exists (Dawn refuses the chain
  // otherwise): adapterInfo.subgroupMatrixConfigs of the Hub's device view.
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  WGPUAdapterPropertiesSubgroupMatrixConfigs configs = WGPU_ADAPTER_PROPERTIES_SUBGROUP_MATRIX_CONFIGS_INIT;
  const bool matrices = prof.hasFeature("chromium-experimental-subgroup-matrix");
  if (matrices) info.nextInChain = &configs.chain;
  if (getInfo(of, &info) != WGPUStatus_Success) throw Error(code, noInfo);
  fillAdapterInfo(prof, info);
  if (matrices) {
    fillSubgroupMatrixConfigs(prof, configs);
    p.AdapterPropertiesSubgroupMatrixConfigsFreeMembers(configs);
  }
  info.nextInChain = nullptr;
  p.AdapterInfoFreeMembers(info);
  WGPULimits limits = WGPU_LIMITS_INIT;
  if (getLimits(of, &limits) != WGPUStatus_Success)
    throw Error(code, std::string("the WebGPU ") + what + " did not report its limits");
  prof.limits = limitsByName(limits);
  if (limitsOut) *limitsOut = limits;
  prof.wgslLanguageFeatures = wgslLanguageFeatureNames(instance);
  return prof;
}
}  // namespace

DeviceProfile adapterProfile(WGPUInstance instance, WGPUAdapter adapter) {
  const Procs& p = procs();
  return queryProfile(instance, adapter, p.AdapterGetInfo, p.AdapterGetFeatures, p.AdapterGetLimits,
                      ErrorCode::Setup, "adapter", "the WebGPU adapter did not report its info", nullptr);
}

DeviceProfile deviceProfile(WGPUInstance instance, WGPUDevice device, WGPULimits* limitsOut) {
  const Procs& p = procs();
  return queryProfile(instance, device, p.DeviceGetAdapterInfo, p.DeviceGetFeatures, p.DeviceGetLimits,
                      ErrorCode::Gpu, "device", "the WebGPU device did not report its adapter info",
                      limitsOut);
}

}  // namespace wgk::gpu

#include "gpu/device_profile_build.h"

#include "gpu/names.h"
#include "wgk/error.h"

namespace wgk::gpu {

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
  WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
  if (getInfo(of, &info) != WGPUStatus_Success) throw Error(code, noInfo);
  fillAdapterInfo(prof, info);
  p.AdapterInfoFreeMembers(info);
  WGPUSupportedFeatures f = WGPU_SUPPORTED_FEATURES_INIT;
  getFeatures(of, &f);
  prof.features = featureNames(f);
  p.SupportedFeaturesFreeMembers(f);
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

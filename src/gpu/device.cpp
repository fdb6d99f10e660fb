// Device creation (instance, Vulkan adapter, device), wrapping, and the Device methods that are not
// about buffers or pipelines.
#include "gpu/device.h"

#include <algorithm>
#include <optional>

#include "gpu/callback_result.h"
#include "gpu/dawn_log.h"
#include "gpu/device_profile_build.h"
#include "gpu/device_state.h"
#include "gpu/f16_policy.h"
#include "gpu/loader.h"
#include "gpu/numerics_probe.h"
#include "wgk/error.h"

namespace wgk::gpu {
namespace {

constexpr size_t kMaxUncaptured = 32;  // keep the first errors; later ones add nothing

void onDeviceLost(WGPUDevice const*, WGPUDeviceLostReason reason, WGPUStringView message, void* u1, void*) {
  auto* s = static_cast<DeviceState*>(u1);
  std::string why = reason == WGPUDeviceLostReason_Destroyed           ? "destroyed"
                    : reason == WGPUDeviceLostReason_CallbackCancelled ? "its instance was released"
                    : reason == WGPUDeviceLostReason_FailedCreation    ? "device creation failed"
                                                                       : "lost";
  std::string msg = fromView(message);
  std::lock_guard<std::mutex> lock(s->callbackMutex);
  s->lostMessage = msg.empty() ? why : why + " (" + msg + ")";
  s->lost.store(true);
}

void onUncapturedError(WGPUDevice const*, WGPUErrorType type, WGPUStringView message, void* u1, void*) {
  auto* s = static_cast<DeviceState*>(u1);
  std::lock_guard<std::mutex> lock(s->callbackMutex);
  if (s->uncaptured.size() < kMaxUncaptured)
    s->uncaptured.push_back((type == WGPUErrorType_OutOfMemory ? "out of memory: " : "") + fromView(message));
}

WGPUAdapter requestAdapter(DeviceState& s, const DeviceOptions& o) {
  std::vector<std::string> toggles = {"vulkan_enable_f16_on_nvidia"};
  if (o.subgroupMatrix) toggles.push_back("allow_unsafe_apis");  // Dawn's gate on subgroup matrices
  toggles.insert(toggles.end(), o.adapterToggles.begin(), o.adapterToggles.end());
  std::vector<const char*> ptrs;
  for (const auto& t : toggles) ptrs.push_back(t.c_str());
  WGPUDawnTogglesDescriptor td = WGPU_DAWN_TOGGLES_DESCRIPTOR_INIT;
  td.enabledToggleCount = ptrs.size();
  td.enabledToggles = ptrs.data();
  WGPURequestAdapterOptions ao = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  ao.nextInChain = &td.chain;
  ao.featureLevel = WGPUFeatureLevel_Core;
  ao.powerPreference = WGPUPowerPreference_HighPerformance;
  ao.forceFallbackAdapter = false;
  ao.backendType = WGPUBackendType_Vulkan;
  CallbackResult<WGPURequestAdapterStatus, WGPUAdapter> r;
  s.wait(procs().InstanceRequestAdapter(s.instance, &ao,
                                        requestCallback(WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT, r)),
         "a WebGPU adapter");
  if (r.status != WGPURequestAdapterStatus_Success && r.handle) {
    procs().AdapterRelease(r.handle);
    r.handle = nullptr;
  }
  if (!r.handle)
    throw Error(
        ErrorCode::Setup,
        "no Vulkan adapter found: is a Vulkan driver installed (lavapipe: mesa-vulkan-drivers 25 from "
        "bookworm-backports; NVIDIA: VK_DRIVER_FILES)" +
            (r.message.empty() ? std::string() : "; Dawn said: " + r.message));
  return r.handle;
}

// Dawn's blob cache hooks (gpu/blob_cache.h). userdata1 is the BlobCache, kept alive by the DeviceState.
size_t loadBlob(size_t keySize, const uint8_t* key, size_t valueSize, uint8_t* value, void* u1, void*) {
  return static_cast<BlobCache*>(u1)->load({reinterpret_cast<const std::byte*>(key), keySize},
                                           {reinterpret_cast<std::byte*>(value), value ? valueSize : 0});
}

void storeBlob(size_t keySize, const uint8_t* key, size_t valueSize, const uint8_t* value, void* u1, void*) {
  static_cast<BlobCache*>(u1)->store({reinterpret_cast<const std::byte*>(key), keySize},
                                     {reinterpret_cast<const std::byte*>(value), valueSize});
}

WGPUDevice requestDevice(DeviceState& s, const DeviceOptions& o, const DeviceProfile& adapter) {
  std::vector<WGPUFeatureName> features;
  if (adapter.hasFeature("shader-f16")) features.push_back(WGPUFeatureName_ShaderF16);
  if (adapter.hasFeature("subgroups")) features.push_back(WGPUFeatureName_Subgroups);
  if (adapter.hasFeature("timestamp-query")) features.push_back(WGPUFeatureName_TimestampQuery);
  // As the Hub's loader does: manifests read device.features.has("subgroup-size-control").
  if (adapter.hasFeature("subgroup-size-control")) features.push_back(WGPUFeatureName_SubgroupSizeControl);
  if (o.subgroupMatrix && adapter.hasFeature("subgroups") &&
      adapter.hasFeature("chromium-experimental-subgroup-matrix"))
    features.push_back(WGPUFeatureName_ChromiumExperimentalSubgroupMatrix);

  WGPULimits limits = WGPU_LIMITS_INIT;
  if (procs().AdapterGetLimits(s.adapter, &limits) != WGPUStatus_Success)
    throw Error(ErrorCode::Setup, "the WebGPU adapter did not report its limits");
  limits.nextInChain = nullptr;  // every limit raised to what the adapter offers

  std::vector<std::string> disable = {"timestamp_quantization"};  // ns timestamps, not 100 us steps
  disable.insert(disable.end(), o.disableToggles.begin(), o.disableToggles.end());
  std::vector<const char*> dis, en;
  for (const auto& t : disable) dis.push_back(t.c_str());
  for (const auto& t : o.enableToggles) en.push_back(t.c_str());
  WGPUDawnTogglesDescriptor td = WGPU_DAWN_TOGGLES_DESCRIPTOR_INIT;
  td.enabledToggleCount = en.size();
  td.enabledToggles = en.data();
  td.disabledToggleCount = dis.size();
  td.disabledToggles = dis.data();

  WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
  dd.nextInChain = &td.chain;
  // The blob cache: Dawn asks it for compiled code before compiling and offers it what it compiled.
  WGPUDawnCacheDeviceDescriptor cd = WGPU_DAWN_CACHE_DEVICE_DESCRIPTOR_INIT;
  if (s.blobCache) {
    cd.isolationKey = toView("wgk");
    cd.dawnLoadCacheDataCallbackInfo.callback = loadBlob;
    cd.dawnLoadCacheDataCallbackInfo.userdata1 = s.blobCache.get();
    cd.dawnStoreCacheDataCallbackInfo.callback = storeBlob;
    cd.dawnStoreCacheDataCallbackInfo.userdata1 = s.blobCache.get();
    cd.chain.next = &td.chain;
    dd.nextInChain = &cd.chain;
  }
  dd.label = toView("wgk");
  dd.requiredFeatureCount = features.size();
  dd.requiredFeatures = features.data();
  dd.requiredLimits = &limits;
  dd.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  dd.deviceLostCallbackInfo.callback = onDeviceLost;
  dd.deviceLostCallbackInfo.userdata1 = &s;
  dd.uncapturedErrorCallbackInfo.callback = onUncapturedError;
  dd.uncapturedErrorCallbackInfo.userdata1 = &s;

  CallbackResult<WGPURequestDeviceStatus, WGPUDevice> r;
  s.wait(procs().AdapterRequestDevice(s.adapter, &dd,
                                      requestCallback(WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT, r)),
         "a WebGPU device");
  if (r.status != WGPURequestDeviceStatus_Success) r.handle = nullptr;
  if (!r.handle)
    throw Error(ErrorCode::Setup, "Dawn refused to create a device on the adapter '" +
                                      adapter.adapterInfoStrings.at("description") + "': " + r.message);
  return r.handle;
}

}  // namespace

std::string BlobCacheIdentity::text() const {
  std::string out;
  for (const char* k : {"vendor", "architecture", "device", "description", "backendType", "adapterType"}) {
    auto it = adapter.adapterInfoStrings.find(k);
    out += std::string(k) + "=" + (it == adapter.adapterInfoStrings.end() ? "" : it->second) + ";";
  }
  return out + "dawn=" + dawnBuild;
}

Device Device::create(const DeviceOptions& options, const BlobCacheFactory& blobCache) {
  return withContext("while creating the WebGPU device", [&] {
    const LoaderInfo& loaded = ensureLoaded(options);
    const Procs& p = procs();
    auto s = std::make_shared<DeviceState>();
    WGPUInstanceFeatureName timedWait = WGPUInstanceFeatureName_TimedWaitAny;
    WGPUInstanceDescriptor id = WGPU_INSTANCE_DESCRIPTOR_INIT;
    id.requiredFeatureCount = 1;
    id.requiredFeatures = &timedWait;
    // Dawn writes some setup warnings straight to stderr: into wgk's log instead (gpu/dawn_log.h).
    std::optional<DawnStderrCapture> capture(std::in_place);
    s->instance = p.CreateInstance(&id);
    if (!s->instance)
      throw Error(ErrorCode::Setup,
                  "Dawn could not create a WebGPU instance (wgpuCreateInstance returned null)");
    s->adapter = requestAdapter(*s, options);
    DeviceProfile adapter = adapterProfile(s->instance, s->adapter);
    s->adapterFeatures = adapter.features;
    if (options.requireF16) requireShaderF16(adapter);
    if (blobCache) s->blobCache = blobCache(BlobCacheIdentity{adapter, loaded.build});
    s->device = requestDevice(*s, options, adapter);
    WGPULoggingCallbackInfo logInfo = WGPU_LOGGING_CALLBACK_INFO_INIT;
    logInfo.callback = onDawnLog;
    p.DeviceSetLoggingCallback(s->device, logInfo);
    capture.reset();
    s->queue = p.DeviceGetQueue(s->device);
    s->profile = deviceProfile(s->instance, s->device, &s->limits);
    return probed(Device(std::move(s)));
  });
}

Device Device::wrap(WGPUDevice device, const DeviceOptions& options) {
  if (!device) throw Error(ErrorCode::InvalidArgument, "Device::wrap: the WGPUDevice is null");
  return withContext("while wrapping the caller's WebGPU device", [&] {
    ensureLoaded(options);
    const Procs& p = procs();
    auto s = std::make_shared<DeviceState>();
    s->owned = false;
    p.DeviceAddRef(device);
    s->device = device;
    s->adapter = p.DeviceGetAdapter(device);  // new references, released by ~DeviceState
    if (!s->adapter) throw Error(ErrorCode::Setup, "the caller's device has no adapter");
    s->instance = p.AdapterGetInstance(s->adapter);
    s->queue = p.DeviceGetQueue(device);
    s->adapterFeatures = adapterProfile(s->instance, s->adapter).features;
    s->profile = deviceProfile(s->instance, device, &s->limits);
    return probed(Device(std::move(s)));
  });
}

const DeviceProfile& Device::profile() const {
  return state_->profile;
}
const std::string& Device::numericsProbe() const {
  return state_->numericsProbe;
}

// Runs the numerics probe on a new device and records its facts in the profile. A probe that
// cannot run leaves the facts empty (kernels then take their portable paths) and says why.
Device Device::probed(Device d) {
  if (!d.state_->profile.hasFeature("shader-f16")) {
    d.state_->numericsProbe = "not run: no shader-f16";
    return d;
  }
  try {
    NumericsProbe p = probeNumerics(d);
    d.state_->profile.numerics = std::move(p.facts);
    d.state_->numericsProbe = std::move(p.detail);
  } catch (const Error& e) {
    d.state_->numericsProbe = std::string("could not run: ") + e.what();
  }
  return d;
}
const std::set<std::string>& Device::adapterFeatures() const {
  return state_->adapterFeatures;
}
WGPUDevice Device::handle() const {
  return state_->device;
}

CommandRecorder Device::recorder(const RecorderOptions& options) {
  state_->checkAlive();
  if (options.timestamps && !state_->profile.hasFeature("timestamp-query"))
    throw Error(ErrorCode::Unsupported,
                "GPU timestamps need the device feature timestamp-query, which this "
                "adapter does not offer");
  return CommandRecorder(state_, options);
}

void Device::waitIdle() {
  state_->checkAlive();
  state_->flushPending();
  state_->waitQueueIdle();
  state_->raiseUncaptured();
}

void Device::setBeforeQueueUse(std::function<void()> hook) {
  state_->beforeQueueUse = std::move(hook);
}

void Device::destroy() {
  if (!state_->lost.load()) procs().DeviceDestroy(state_->device);
  procs().InstanceProcessEvents(state_->instance);  // deliver the lost callback now
  std::lock_guard<std::mutex> lock(state_->callbackMutex);
  if (state_->lostMessage.empty()) state_->lostMessage = "destroyed by Device::destroy()";
  state_->lost.store(true);  // also for wrapped devices, where wgk has no lost callback
}

void Device::simulateLoss(std::string_view message) {
  state_->checkAlive();
  procs().DeviceForceLoss(state_->device, WGPUDeviceLostReason_Unknown, toView(message));
  procs().InstanceProcessEvents(state_->instance);
  if (!state_->owned) {  // no lost callback on a wrapped device: record it ourselves
    std::lock_guard<std::mutex> lock(state_->callbackMutex);
    state_->lostMessage = std::string(message);
    state_->lost.store(true);
  }
}

bool Device::isLost() const {
  return state_->lost.load();
}

void Device::setWaitDeadline(uint64_t milliseconds) {
  state_->waitTimeoutNs = (milliseconds ? milliseconds : 600'000) * 1'000'000;
}

uint64_t Device::waitDeadlineMs() const {
  return state_->waitTimeoutNs / 1'000'000;
}

std::vector<std::string> Device::takeUncapturedErrors() {
  std::lock_guard<std::mutex> lock(state_->callbackMutex);
  std::vector<std::string> out;
  out.swap(state_->uncaptured);
  return out;
}

}  // namespace wgk::gpu

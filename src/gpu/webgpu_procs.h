// Internal to src/gpu: the webgpu.h functions wgk uses, resolved at run time by the loader.
// webgpu.h is included with WGPU_SKIP_DECLARATIONS, so a direct call such as wgpuDeviceCreateBuffer()
// does not compile: every call goes through the table, e.g. `procs().DeviceCreateBuffer(device, &d)`.
#pragma once

#include <string>
#include <string_view>

#define WGPU_SKIP_DECLARATIONS
#include <webgpu/webgpu.h>

// X(Name): the function `wgpu<Name>`, typed `WGPUProc<Name>` by webgpu.h.
#define WGK_WEBGPU_PROCS(X)                   \
  X(CreateInstance)                           \
  X(InstanceAddRef)                           \
  X(InstanceRelease)                          \
  X(InstanceRequestAdapter)                   \
  X(InstanceWaitAny)                          \
  X(InstanceProcessEvents)                    \
  X(InstanceGetWGSLLanguageFeatures)          \
  X(SupportedWGSLLanguageFeaturesFreeMembers) \
  X(AdapterAddRef)                            \
  X(AdapterRelease)                           \
  X(AdapterGetInfo)                           \
  X(AdapterInfoFreeMembers)                   \
  X(AdapterPropertiesSubgroupMatrixConfigsFreeMembers) \
  X(AdapterGetFeatures)                       \
  X(AdapterGetLimits)                         \
  X(AdapterRequestDevice)                     \
  X(AdapterGetInstance)                       \
  X(SupportedFeaturesFreeMembers)             \
  X(DeviceAddRef)                             \
  X(DeviceRelease)                            \
  X(DeviceDestroy)                            \
  X(DeviceForceLoss)                          \
  X(DeviceGetQueue)                           \
  X(DeviceGetFeatures)                        \
  X(DeviceGetLimits)                          \
  X(DeviceGetAdapter)                         \
  X(DeviceGetAdapterInfo)                     \
  X(DeviceSetLoggingCallback)                 \
  X(DeviceCreateBuffer)                       \
  X(DeviceCreateShaderModule)                 \
  X(DeviceCreateBindGroupLayout)              \
  X(DeviceCreatePipelineLayout)               \
  X(DeviceCreateComputePipeline)              \
  X(DeviceCreateBindGroup)                    \
  X(DeviceCreateCommandEncoder)               \
  X(DeviceCreateQuerySet)                     \
  X(DevicePushErrorScope)                     \
  X(DevicePopErrorScope)                      \
  X(QueueRelease)                             \
  X(QueueSubmit)                              \
  X(QueueWriteBuffer)                         \
  X(QueueOnSubmittedWorkDone)                 \
  X(BufferRelease)                            \
  X(BufferDestroy)                            \
  X(BufferMapAsync)                           \
  X(BufferGetConstMappedRange)                \
  X(BufferUnmap)                              \
  X(BufferGetSize)                            \
  X(ShaderModuleRelease)                      \
  X(ShaderModuleGetCompilationInfo)           \
  X(BindGroupLayoutRelease)                   \
  X(PipelineLayoutRelease)                    \
  X(ComputePipelineRelease)                   \
  X(BindGroupRelease)                         \
  X(CommandEncoderRelease)                    \
  X(CommandEncoderBeginComputePass)           \
  X(CommandEncoderFinish)                     \
  X(CommandEncoderCopyBufferToBuffer)         \
  X(CommandEncoderClearBuffer)                \
  X(CommandEncoderResolveQuerySet)            \
  X(ComputePassEncoderSetPipeline)            \
  X(ComputePassEncoderSetBindGroup)           \
  X(ComputePassEncoderDispatchWorkgroups)     \
  X(ComputePassEncoderEnd)                    \
  X(ComputePassEncoderRelease)                \
  X(CommandBufferRelease)                     \
  X(QuerySetDestroy)                          \
  X(QuerySetRelease)

namespace wgk::gpu {

struct Procs {
#define WGK_DECLARE_PROC(Name) WGPUProc##Name Name = nullptr;
  WGK_WEBGPU_PROCS(WGK_DECLARE_PROC)
#undef WGK_DECLARE_PROC
};

// The process-wide table; loads the library on first use (thread-safe). Throws Error(Setup).
const Procs& procs();

// WGPUStringView helpers.
inline WGPUStringView toView(const char* s) {
  return WGPUStringView{s, WGPU_STRLEN};
}
inline WGPUStringView toView(std::string_view s) {
  return WGPUStringView{s.data(), s.size()};
}
std::string fromView(WGPUStringView v);

}  // namespace wgk::gpu

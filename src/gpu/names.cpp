#include "gpu/names.h"

#include <span>

namespace wgk::gpu {

namespace {

struct FeatureNameRow {
  WGPUFeatureName feature;
  const char* name;
};

// WebGPU spec names.
constexpr FeatureNameRow kSpecFeatureNames[] = {
    {WGPUFeatureName_CoreFeaturesAndLimits, "core-features-and-limits"},
    {WGPUFeatureName_DepthClipControl, "depth-clip-control"},
    {WGPUFeatureName_Depth32FloatStencil8, "depth32float-stencil8"},
    {WGPUFeatureName_TextureCompressionBC, "texture-compression-bc"},
    {WGPUFeatureName_TextureCompressionBCSliced3D, "texture-compression-bc-sliced-3d"},
    {WGPUFeatureName_TextureCompressionETC2, "texture-compression-etc2"},
    {WGPUFeatureName_TextureCompressionASTC, "texture-compression-astc"},
    {WGPUFeatureName_TextureCompressionASTCSliced3D, "texture-compression-astc-sliced-3d"},
    {WGPUFeatureName_TimestampQuery, "timestamp-query"},
    {WGPUFeatureName_IndirectFirstInstance, "indirect-first-instance"},
    {WGPUFeatureName_ShaderF16, "shader-f16"},
    {WGPUFeatureName_RG11B10UfloatRenderable, "rg11b10ufloat-renderable"},
    {WGPUFeatureName_BGRA8UnormStorage, "bgra8unorm-storage"},
    {WGPUFeatureName_Float32Filterable, "float32-filterable"},
    {WGPUFeatureName_Float32Blendable, "float32-blendable"},
    {WGPUFeatureName_ClipDistances, "clip-distances"},
    {WGPUFeatureName_DualSourceBlending, "dual-source-blending"},
    {WGPUFeatureName_Subgroups, "subgroups"},
    {WGPUFeatureName_TextureFormatsTier1, "texture-formats-tier1"},
    {WGPUFeatureName_TextureFormatsTier2, "texture-formats-tier2"},
    {WGPUFeatureName_PrimitiveIndex, "primitive-index"},
    {WGPUFeatureName_TextureComponentSwizzle, "texture-component-swizzle"},
    {WGPUFeatureName_SubgroupSizeControl, "subgroup-size-control"},
};

// Dawn extensions, by the names Dawn's JavaScript binding uses.
constexpr FeatureNameRow kDawnFeatureNames[] = {
    {WGPUFeatureName_DawnInternalUsages, "dawn-internal-usages"},
    {WGPUFeatureName_DawnMultiPlanarFormats, "dawn-multi-planar-formats"},
    {WGPUFeatureName_DawnNative, "dawn-native"},
    {WGPUFeatureName_ChromiumExperimentalTimestampQueryInsidePasses, "chromium-experimental-timestamp-query-inside-passes"},
    {WGPUFeatureName_ImplicitDeviceSynchronization, "implicit-device-synchronization"},
    {WGPUFeatureName_TransientAttachments, "transient-attachments"},
    {WGPUFeatureName_MSAARenderToSingleSampled, "msaa-render-to-single-sampled"},
    {WGPUFeatureName_Unorm16TextureFormats, "unorm16-texture-formats"},
    {WGPUFeatureName_HostMappedPointer, "host-mapped-pointer"},
    {WGPUFeatureName_FramebufferFetch, "framebuffer-fetch"},
    {WGPUFeatureName_BufferMapExtendedUsages, "buffer-map-extended-usages"},
    {WGPUFeatureName_AdapterPropertiesMemoryHeaps, "adapter-properties-memory-heaps"},
    {WGPUFeatureName_AdapterPropertiesVk, "adapter-properties-vk"},
    {WGPUFeatureName_DawnFormatCapabilities, "dawn-format-capabilities"},
    {WGPUFeatureName_DawnDrmFormatCapabilities, "dawn-drm-format-capabilities"},
    {WGPUFeatureName_SharedTextureMemoryDmaBuf, "shared-texture-memory-dma-buf"},
    {WGPUFeatureName_SharedTextureMemoryOpaqueFD, "shared-texture-memory-opaque-fd"},
    {WGPUFeatureName_SharedFenceVkSemaphoreOpaqueFD, "shared-fence-vk-semaphore-opaque-fd"},
    {WGPUFeatureName_SharedFenceSyncFD, "shared-fence-sync-fd"},
    {WGPUFeatureName_StaticSamplers, "static-samplers"},
    {WGPUFeatureName_YCbCrVulkanSamplers, "ycbcr-vulkan-samplers"},
    {WGPUFeatureName_ShaderModuleCompilationOptions, "shader-module-compilation-options"},
    {WGPUFeatureName_DawnLoadResolveTexture, "dawn-load-resolve-texture"},
    {WGPUFeatureName_DawnPartialLoadResolveTexture, "dawn-partial-load-resolve-texture"},
    {WGPUFeatureName_MultiDrawIndirect, "multi-draw-indirect"},
    {WGPUFeatureName_DawnTexelCopyBufferRowAlignment, "dawn-texel-copy-buffer-row-alignment"},
    {WGPUFeatureName_FlexibleTextureViews, "flexible-texture-views"},
    {WGPUFeatureName_ChromiumExperimentalSubgroupMatrix, "chromium-experimental-subgroup-matrix"},
    {WGPUFeatureName_DawnDeviceAllocatorControl, "dawn-device-allocator-control"},
    {WGPUFeatureName_AdapterPropertiesWGPU, "adapter-properties-wgpu"},
    {WGPUFeatureName_AtomicVec2uMinMax, "atomic-vec2u-min-max"},
    {WGPUFeatureName_Unorm16Filterable, "unorm16-filterable"},
    {WGPUFeatureName_RenderPassRenderArea, "render-pass-render-area"},
    {WGPUFeatureName_AdapterPropertiesDrm, "adapter-properties-drm"},
    {WGPUFeatureName_TextureCompressionUnaligned, "texture-compression-unaligned"},
};

}  // namespace

std::string featureName(WGPUFeatureName f) {
  const std::span<const FeatureNameRow> tables[] = {kSpecFeatureNames, kDawnFeatureNames};
  for (const auto& table : tables)
    for (const FeatureNameRow& row : table)
      if (row.feature == f) return row.name;
  return {};
}

std::string wgslLanguageFeatureName(WGPUWGSLLanguageFeatureName f) {
  switch (f) {
    case WGPUWGSLLanguageFeatureName_ReadonlyAndReadwriteStorageTextures:
      return "readonly_and_readwrite_storage_textures";
    case WGPUWGSLLanguageFeatureName_Packed4x8IntegerDotProduct:
      return "packed_4x8_integer_dot_product";
    case WGPUWGSLLanguageFeatureName_UnrestrictedPointerParameters:
      return "unrestricted_pointer_parameters";
    case WGPUWGSLLanguageFeatureName_PointerCompositeAccess:
      return "pointer_composite_access";
    case WGPUWGSLLanguageFeatureName_UniformBufferStandardLayout:
      return "uniform_buffer_standard_layout";
    case WGPUWGSLLanguageFeatureName_SubgroupId:
      return "subgroup_id";
    case WGPUWGSLLanguageFeatureName_TextureAndSamplerLet:
      return "texture_and_sampler_let";
    case WGPUWGSLLanguageFeatureName_SubgroupUniformity:
      return "subgroup_uniformity";
    case WGPUWGSLLanguageFeatureName_TextureFormatsTier1:
      return "texture_formats_tier1";
    case WGPUWGSLLanguageFeatureName_LinearIndexing:
      return "linear_indexing";
    case WGPUWGSLLanguageFeatureName_ImmediateAddressSpace:
      return "immediate_address_space";
    case WGPUWGSLLanguageFeatureName_BufferView:
      return "buffer_view";
    case WGPUWGSLLanguageFeatureName_SwizzleAssignment:
      return "swizzle_assignment";
    case WGPUWGSLLanguageFeatureName_FragmentDepth:
      return "fragment_depth";
    case WGPUWGSLLanguageFeatureName_SizedBindingArray:
      return "sized_binding_array";
    default:
      return {};  // includes Chromium's testing-only features
  }
}

std::string backendTypeName(WGPUBackendType b) {
  switch (b) {
    case WGPUBackendType_Null:
      return "null";
    case WGPUBackendType_WebGPU:
      return "webgpu";
    case WGPUBackendType_D3D11:
      return "d3d11";
    case WGPUBackendType_D3D12:
      return "d3d12";
    case WGPUBackendType_Metal:
      return "metal";
    case WGPUBackendType_Vulkan:
      return "vulkan";
    case WGPUBackendType_OpenGL:
      return "opengl";
    case WGPUBackendType_OpenGLES:
      return "opengles";
    default:
      return "undefined";
  }
}

std::string adapterTypeName(WGPUAdapterType t) {
  switch (t) {
    case WGPUAdapterType_DiscreteGPU:
      return "discrete-gpu";
    case WGPUAdapterType_IntegratedGPU:
      return "integrated-gpu";
    case WGPUAdapterType_CPU:
      return "cpu";
    default:
      return "unknown";
  }
}

std::string errorTypeName(WGPUErrorType t) {
  switch (t) {
    case WGPUErrorType_NoError:
      return "no-error";
    case WGPUErrorType_Validation:
      return "validation";
    case WGPUErrorType_OutOfMemory:
      return "out-of-memory";
    case WGPUErrorType_Internal:
      return "internal";
    default:
      return "unknown";
  }
}

std::map<std::string, uint64_t> limitsByName(const WGPULimits& l) {
  return {
      {"maxTextureDimension1D", l.maxTextureDimension1D},
      {"maxTextureDimension2D", l.maxTextureDimension2D},
      {"maxTextureDimension3D", l.maxTextureDimension3D},
      {"maxTextureArrayLayers", l.maxTextureArrayLayers},
      {"maxBindGroups", l.maxBindGroups},
      {"maxBindGroupsPlusVertexBuffers", l.maxBindGroupsPlusVertexBuffers},
      {"maxBindingsPerBindGroup", l.maxBindingsPerBindGroup},
      {"maxDynamicUniformBuffersPerPipelineLayout", l.maxDynamicUniformBuffersPerPipelineLayout},
      {"maxDynamicStorageBuffersPerPipelineLayout", l.maxDynamicStorageBuffersPerPipelineLayout},
      {"maxSampledTexturesPerShaderStage", l.maxSampledTexturesPerShaderStage},
      {"maxSamplersPerShaderStage", l.maxSamplersPerShaderStage},
      {"maxStorageBuffersPerShaderStage", l.maxStorageBuffersPerShaderStage},
      {"maxStorageTexturesPerShaderStage", l.maxStorageTexturesPerShaderStage},
      {"maxUniformBuffersPerShaderStage", l.maxUniformBuffersPerShaderStage},
      {"maxUniformBufferBindingSize", l.maxUniformBufferBindingSize},
      {"maxStorageBufferBindingSize", l.maxStorageBufferBindingSize},
      {"minUniformBufferOffsetAlignment", l.minUniformBufferOffsetAlignment},
      {"minStorageBufferOffsetAlignment", l.minStorageBufferOffsetAlignment},
      {"maxVertexBuffers", l.maxVertexBuffers},
      {"maxBufferSize", l.maxBufferSize},
      {"maxVertexAttributes", l.maxVertexAttributes},
      {"maxVertexBufferArrayStride", l.maxVertexBufferArrayStride},
      {"maxInterStageShaderVariables", l.maxInterStageShaderVariables},
      {"maxColorAttachments", l.maxColorAttachments},
      {"maxColorAttachmentBytesPerSample", l.maxColorAttachmentBytesPerSample},
      {"maxComputeWorkgroupStorageSize", l.maxComputeWorkgroupStorageSize},
      {"maxComputeInvocationsPerWorkgroup", l.maxComputeInvocationsPerWorkgroup},
      {"maxComputeWorkgroupSizeX", l.maxComputeWorkgroupSizeX},
      {"maxComputeWorkgroupSizeY", l.maxComputeWorkgroupSizeY},
      {"maxComputeWorkgroupSizeZ", l.maxComputeWorkgroupSizeZ},
      {"maxComputeWorkgroupsPerDimension", l.maxComputeWorkgroupsPerDimension},
      {"maxImmediateSize", l.maxImmediateSize},
  };
}

}  // namespace wgk::gpu

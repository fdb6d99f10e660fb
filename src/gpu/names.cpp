#include "gpu/names.h"

namespace wgk::gpu {

std::string featureName(WGPUFeatureName f) {
  switch (f) {
    // WebGPU spec names.
    case WGPUFeatureName_CoreFeaturesAndLimits:
      return "core-features-and-limits";
    case WGPUFeatureName_DepthClipControl:
      return "depth-clip-control";
    case WGPUFeatureName_Depth32FloatStencil8:
      return "depth32float-stencil8";
    case WGPUFeatureName_TextureCompressionBC:
      return "texture-compression-bc";
    case WGPUFeatureName_TextureCompressionBCSliced3D:
      return "texture-compression-bc-sliced-3d";
    case WGPUFeatureName_TextureCompressionETC2:
      return "texture-compression-etc2";
    case WGPUFeatureName_TextureCompressionASTC:
      return "texture-compression-astc";
    case WGPUFeatureName_TextureCompressionASTCSliced3D:
      return "texture-compression-astc-sliced-3d";
    case WGPUFeatureName_TimestampQuery:
      return "timestamp-query";
    case WGPUFeatureName_IndirectFirstInstance:
      return "indirect-first-instance";
    case WGPUFeatureName_ShaderF16:
      return "shader-f16";
    case WGPUFeatureName_RG11B10UfloatRenderable:
      return "rg11b10ufloat-renderable";
    case WGPUFeatureName_BGRA8UnormStorage:
      return "bgra8unorm-storage";
    case WGPUFeatureName_Float32Filterable:
      return "float32-filterable";
    case WGPUFeatureName_Float32Blendable:
      return "float32-blendable";
    case WGPUFeatureName_ClipDistances:
      return "clip-distances";
    case WGPUFeatureName_DualSourceBlending:
      return "dual-source-blending";
    case WGPUFeatureName_Subgroups:
      return "subgroups";
    case WGPUFeatureName_TextureFormatsTier1:
      return "texture-formats-tier1";
    case WGPUFeatureName_TextureFormatsTier2:
      return "texture-formats-tier2";
    case WGPUFeatureName_PrimitiveIndex:
      return "primitive-index";
    case WGPUFeatureName_TextureComponentSwizzle:
      return "texture-component-swizzle";
    case WGPUFeatureName_SubgroupSizeControl:
      return "subgroup-size-control";
    // Dawn extensions, by the names Dawn's JavaScript binding uses.
    case WGPUFeatureName_DawnInternalUsages:
      return "dawn-internal-usages";
    case WGPUFeatureName_DawnMultiPlanarFormats:
      return "dawn-multi-planar-formats";
    case WGPUFeatureName_DawnNative:
      return "dawn-native";
    case WGPUFeatureName_ChromiumExperimentalTimestampQueryInsidePasses:
      return "chromium-experimental-timestamp-query-inside-passes";
    case WGPUFeatureName_ImplicitDeviceSynchronization:
      return "implicit-device-synchronization";
    case WGPUFeatureName_TransientAttachments:
      return "transient-attachments";
    case WGPUFeatureName_MSAARenderToSingleSampled:
      return "msaa-render-to-single-sampled";
    case WGPUFeatureName_Unorm16TextureFormats:
      return "unorm16-texture-formats";
    case WGPUFeatureName_HostMappedPointer:
      return "host-mapped-pointer";
    case WGPUFeatureName_FramebufferFetch:
      return "framebuffer-fetch";
    case WGPUFeatureName_BufferMapExtendedUsages:
      return "buffer-map-extended-usages";
    case WGPUFeatureName_AdapterPropertiesMemoryHeaps:
      return "adapter-properties-memory-heaps";
    case WGPUFeatureName_AdapterPropertiesVk:
      return "adapter-properties-vk";
    case WGPUFeatureName_DawnFormatCapabilities:
      return "dawn-format-capabilities";
    case WGPUFeatureName_DawnDrmFormatCapabilities:
      return "dawn-drm-format-capabilities";
    case WGPUFeatureName_SharedTextureMemoryDmaBuf:
      return "shared-texture-memory-dma-buf";
    case WGPUFeatureName_SharedTextureMemoryOpaqueFD:
      return "shared-texture-memory-opaque-fd";
    case WGPUFeatureName_SharedFenceVkSemaphoreOpaqueFD:
      return "shared-fence-vk-semaphore-opaque-fd";
    case WGPUFeatureName_SharedFenceSyncFD:
      return "shared-fence-sync-fd";
    case WGPUFeatureName_StaticSamplers:
      return "static-samplers";
    case WGPUFeatureName_YCbCrVulkanSamplers:
      return "ycbcr-vulkan-samplers";
    case WGPUFeatureName_ShaderModuleCompilationOptions:
      return "shader-module-compilation-options";
    case WGPUFeatureName_DawnLoadResolveTexture:
      return "dawn-load-resolve-texture";
    case WGPUFeatureName_DawnPartialLoadResolveTexture:
      return "dawn-partial-load-resolve-texture";
    case WGPUFeatureName_MultiDrawIndirect:
      return "multi-draw-indirect";
    case WGPUFeatureName_DawnTexelCopyBufferRowAlignment:
      return "dawn-texel-copy-buffer-row-alignment";
    case WGPUFeatureName_FlexibleTextureViews:
      return "flexible-texture-views";
    case WGPUFeatureName_ChromiumExperimentalSubgroupMatrix:
      return "chromium-experimental-subgroup-matrix";
    case WGPUFeatureName_DawnDeviceAllocatorControl:
      return "dawn-device-allocator-control";
    case WGPUFeatureName_AdapterPropertiesWGPU:
      return "adapter-properties-wgpu";
    case WGPUFeatureName_AtomicVec2uMinMax:
      return "atomic-vec2u-min-max";
    case WGPUFeatureName_Unorm16Filterable:
      return "unorm16-filterable";
    case WGPUFeatureName_RenderPassRenderArea:
      return "render-pass-render-area";
    case WGPUFeatureName_AdapterPropertiesDrm:
      return "adapter-properties-drm";
    case WGPUFeatureName_TextureCompressionUnaligned:
      return "texture-compression-unaligned";
    default:
      return {};
  }
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

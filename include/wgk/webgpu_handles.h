// wgk/webgpu_handles.h — the WebGPU handle types wgk's headers name, declared exactly as webgpu.h
// declares them (a repeated typedef of the same type is allowed in C and C++), so that a header can
// take or return a WGPUDevice or WGPUBuffer without including webgpu.h. The one copy of these
// declarations: every other wgk header that needs a handle includes this one.
#pragma once

typedef struct WGPUDeviceImpl* WGPUDevice;
typedef struct WGPUBufferImpl* WGPUBuffer;
typedef struct WGPUComputePipelineImpl* WGPUComputePipeline;
typedef struct WGPUBindGroupLayoutImpl* WGPUBindGroupLayout;
typedef struct WGPUBindGroupImpl* WGPUBindGroup;

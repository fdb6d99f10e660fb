// Compute pipelines with an explicit bind group layout, and bind groups.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wgk/webgpu_handles.h"

namespace wgk::gpu {

struct DeviceState;

// One binding of bind group 0; its position in the layout list is its @binding index.
enum class BindingKind {
  ReadOnlyStorage,  // var<storage, read>
  Storage,          // var<storage, read_write>
  Uniform,          // var<uniform>
};
const char* bindingKindName(BindingKind k);  // "read-only-storage", "storage", "uniform"

// A buffer range bound to one binding. size 0 means "from offset to the end of the buffer".
struct BindingEntry {
  WGPUBuffer buffer = nullptr;
  uint64_t offset = 0;
  uint64_t size = 0;
};

// Shared, immutable: copies refer to the same pipeline (the runtime caches them).
class ComputePipeline {
 public:
  ComputePipeline() = default;
  explicit operator bool() const { return impl_ != nullptr; }
  WGPUComputePipeline handle() const;
  WGPUBindGroupLayout layout() const;
  const std::vector<BindingKind>& bindings() const;
  const std::string& label() const;

  struct Impl;

 private:
  friend class Device;
  friend class CommandRecorder;
  std::shared_ptr<Impl> impl_;
};

// A bind group (RAII, move-only).
class BindGroup {
 public:
  BindGroup() = default;
  BindGroup(BindGroup&& o) noexcept;
  BindGroup& operator=(BindGroup&& o) noexcept;
  BindGroup(const BindGroup&) = delete;
  BindGroup& operator=(const BindGroup&) = delete;
  ~BindGroup();
  WGPUBindGroup handle() const { return group_; }
  explicit operator bool() const { return group_ != nullptr; }

 private:
  friend class Device;
  BindGroup(std::shared_ptr<DeviceState> s, WGPUBindGroup g) : state_(std::move(s)), group_(g) {}
  std::shared_ptr<DeviceState> state_;
  WGPUBindGroup group_ = nullptr;
};

}  // namespace wgk::gpu

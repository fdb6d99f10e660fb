#include "gpu/bind_group_build.h"

#include "wgk/error.h"

namespace wgk::gpu {

void validateBindingEntries(const DeviceState& s, const std::vector<BindingKind>& kinds,
                            std::span<const BindingEntry> entries, std::string_view label) {
  auto where = [&](size_t i) {
    return std::string(label.empty() ? "" : "'" + std::string(label) + "' ") + "binding " +
           std::to_string(i) + " (" + bindingKindName(kinds[i]) + ")";
  };
  if (entries.size() != kinds.size())
    throw Error(ErrorCode::InvalidArgument,
                std::string(label.empty() ? "dispatch" : "'" + std::string(label) + "'") + " got " +
                    std::to_string(entries.size()) + " buffers for a layout of " +
                    std::to_string(kinds.size()) + " bindings");
  const Procs& p = procs();
  for (size_t i = 0; i < entries.size(); ++i) {
    const BindingEntry& e = entries[i];
    if (!e.buffer) throw Error(ErrorCode::InvalidArgument, where(i) + " has no buffer");
    const bool uniform = kinds[i] == BindingKind::Uniform;
    const uint64_t align =
        uniform ? s.limits.minUniformBufferOffsetAlignment : s.limits.minStorageBufferOffsetAlignment;
    if (align && e.offset % align)
      throw Error(ErrorCode::InvalidArgument,
                  where(i) + ": offset " + std::to_string(e.offset) + " is not a multiple of " +
                      (uniform ? "minUniformBufferOffsetAlignment " : "minStorageBufferOffsetAlignment ") +
                      std::to_string(align));
    const uint64_t bufSize = p.BufferGetSize(e.buffer);
    if (e.offset > bufSize || e.size > bufSize - e.offset)
      throw Error(ErrorCode::InvalidArgument, where(i) + ": range [" + std::to_string(e.offset) + ", " +
                                                  std::to_string(e.offset + e.size) +
                                                  ") lies outside its buffer of " + std::to_string(bufSize) +
                                                  " bytes");
    const uint64_t bound = e.size ? e.size : bufSize - e.offset;
    const uint64_t max =
        uniform ? s.limits.maxUniformBufferBindingSize : s.limits.maxStorageBufferBindingSize;
    if (bound > max)
      throw Error(ErrorCode::InvalidArgument,
                  where(i) + " binds " + std::to_string(bound) + " bytes, more than " +
                      (uniform ? "maxUniformBufferBindingSize " : "maxStorageBufferBindingSize ") +
                      std::to_string(max));
  }
}

WGPUBindGroup makeBindGroup(DeviceState& s, WGPUBindGroupLayout layout, std::span<const BindingEntry> entries,
                            std::string_view label) {
  // Kernels bind a handful of buffers: a fixed array avoids a heap allocation per dispatch.
  constexpr size_t kInline = 16;
  WGPUBindGroupEntry inlineEntries[kInline];
  std::vector<WGPUBindGroupEntry> heap;
  WGPUBindGroupEntry* es = inlineEntries;
  if (entries.size() > kInline) {
    heap.resize(entries.size());
    es = heap.data();
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    es[i] = WGPU_BIND_GROUP_ENTRY_INIT;
    es[i].binding = static_cast<uint32_t>(i);
    es[i].buffer = entries[i].buffer;
    es[i].offset = entries[i].offset;
    es[i].size = entries[i].size ? entries[i].size : WGPU_WHOLE_SIZE;
  }
  WGPUBindGroupDescriptor d = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  d.label = toView(label);
  d.layout = layout;
  d.entryCount = entries.size();
  d.entries = es;
  return procs().DeviceCreateBindGroup(s.device, &d);
}

}  // namespace wgk::gpu

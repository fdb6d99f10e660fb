#include "gpu/run_once.h"

namespace wgk::gpu {

std::vector<std::vector<std::byte>> runOnce(Device& device, const std::string& wgsl,
                                            std::vector<std::span<const std::byte>> inputs,
                                            std::vector<uint64_t> outputBytes, uint32_t workgroups,
                                            const std::string& label) {
  std::vector<Buffer> buffers;
  std::vector<BindingKind> layout;
  for (const auto& in : inputs) {
    buffers.push_back(device.createBuffer(in.size(), BufferUsage::Storage | BufferUsage::CopyDst, label + " in"));
    buffers.back().upload(in);
    layout.push_back(BindingKind::ReadOnlyStorage);
  }
  for (uint64_t bytes : outputBytes) {
    buffers.push_back(device.createBuffer(bytes, BufferUsage::Storage | BufferUsage::CopySrc, label + " out"));
    layout.push_back(BindingKind::Storage);
  }
  ComputePipeline pipe = device.createComputePipeline(wgsl, layout, label);
  std::vector<BindingEntry> entries;
  for (const Buffer& b : buffers) entries.push_back({b.handle()});
  CommandRecorder rec = device.recorder();
  rec.dispatch(pipe, std::span<const BindingEntry>(entries), workgroups);
  rec.submit();
  std::vector<std::vector<std::byte>> out;
  for (size_t i = 0; i < outputBytes.size(); ++i) {
    out.emplace_back(outputBytes[i]);
    buffers[inputs.size() + i].readback(out.back().data(), outputBytes[i]);
  }
  return out;
}

}  // namespace wgk::gpu

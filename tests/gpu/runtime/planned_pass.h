// Runs the single pass of a plan made outside the runtime (e.g. for a device profile whose
// numerics facts were cleared, to reach the portable float16 rounding on a device that has the
// fast one) on the test runtime's device: inputs from host tensors in the storage ABI, the device
// bytes of `output` returned. Shared by the element-wise kernels' GPU tests (add_test, mul_test).
//
//   const auto bytes = runPlanned(plan, {{"a", a}, {"b", b}}, numel * 2);
#pragma once

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "gpu/device.h"
#include "plan/plan.h"
#include "runtime/binding_layout.h"
#include "runtime/introspect.h"
#include "runtime/tensor_storage.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {

inline std::vector<std::byte> runPlanned(const plan::Plan& p, const std::map<std::string, HostTensor>& in,
                                         uint64_t outBytes, const std::string& output = "c") {
  gpu::Device& dev = wgk::introspect::device(runtime());
  const auto usage = gpu::BufferUsage::Storage | gpu::BufferUsage::CopyDst | gpu::BufferUsage::CopySrc;
  const plan::PlannedPass& pass = p.passes.at(0);
  std::vector<gpu::Buffer> buffers;
  const std::vector<gpu::BindingKind> kinds = runtime::bindingLayout(pass);
  size_t outIndex = 0;
  for (const auto& b : pass.bindings) {
    if (b.kind == package::ResourceKind::Uniform) {
      buffers.push_back(
          dev.createBuffer(b.uniformBytes.size(), gpu::BufferUsage::Uniform | gpu::BufferUsage::CopyDst));
      buffers.back().upload(std::as_bytes(std::span(b.uniformBytes)));
    } else if (b.resource == output) {
      outIndex = buffers.size();
      buffers.push_back(dev.createBuffer((outBytes + 3) / 4 * 4, usage));
    } else {
      const HostTensor& h = in.at(b.resource);
      std::vector<std::byte> words =
          runtime::toDevice(h, runtime::storageFor(nullptr, h.dtype()), b.resource);
      words.resize(std::max<size_t>(4, (words.size() + 3) / 4 * 4));
      buffers.push_back(dev.createBuffer(words.size(), usage));
      buffers.back().upload(words);
    }
  }
  gpu::ComputePipeline pipe = dev.createComputePipeline(pass.wgsl, kinds, "planned pass test");
  std::vector<gpu::BindingEntry> entries;
  for (const auto& b : buffers) entries.push_back({b.handle()});
  gpu::CommandRecorder rec = dev.recorder();
  rec.dispatch(pipe, entries, pass.dispatch[0], pass.dispatch[1], pass.dispatch[2]);
  rec.submit();
  std::vector<std::byte> out(outBytes);
  buffers[outIndex].readback(out.data(), outBytes);
  return out;
}

}  // namespace wgk::runtime_test

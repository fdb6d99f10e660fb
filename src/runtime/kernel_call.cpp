// One kernel call: validate tensors, find or build the prepared plan, bind buffers, record every
// pass into one submission, and read outputs back when they go to the host.
#include <chrono>
#include <cstring>

#include "runtime/attributes.h"
#include "runtime/runtime_impl.h"
#include "wgk/error.h"

namespace wgk {
namespace {
using Clock = std::chrono::steady_clock;
double usSince(Clock::time_point t) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
}

constexpr gpu::BufferUsage kIoUsage =
    gpu::BufferUsage::Storage | gpu::BufferUsage::CopySrc | gpu::BufferUsage::CopyDst;
constexpr size_t kMaxBindGroupsPerPass = 32;

// A bound buffer range; its size is the tensor's bytes rounded up to 4 (WebGPU's storage binding
// granularity), at least 4, and never past the end of the buffer.
struct Bound {
  WGPUBuffer buffer = nullptr;
  uint64_t offset = 0, size = 0;
};

uint64_t bindSize(uint64_t bytes) {
  return std::max<uint64_t>(4, (bytes + 3) & ~uint64_t{3});
}

void appendKey(std::string& key, const Bound& b) {
  char raw[sizeof(void*) + 16];
  std::memcpy(raw, &b.buffer, sizeof(void*));
  std::memcpy(raw + sizeof(void*), &b.offset, 8);
  std::memcpy(raw + sizeof(void*) + 8, &b.size, 8);
  key.append(raw, sizeof raw);
}

// "[2, 8]"
std::string shapeString(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// The output dtype/shape the plan derived, by arg name.
const plan::PlannedOutput& plannedOutput(const plan::Plan& p, const std::string& name) {
  if (const auto* o = p.findOutput(name)) return *o;
  throw Error(ErrorCode::Internal, "plan has no output '" + name + "'");
}
}  // namespace

CallResult KernelImpl::call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options) {
  static const std::map<std::string, expr::Value> kNoTunables;
  return call(inputs, options, kNoTunables);
}

CallResult KernelImpl::call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                            const std::map<std::string, expr::Value>& tunables) {
  const auto t0 = Clock::now();
  const package::Manifest& m = planner_.package().manifest();
  CallResult result;

  plan::PlanRequest request;
  bool anyGpuInput = false;
  const uint64_t maxBinding = runtime_.profile().limit("maxStorageBufferBindingSize");
  for (const auto& [name, ref] : inputs) {
    request.inputs[name] = {ref.dtype(), ref.shape()};
    if (!ref.onHost()) {
      anyGpuInput = true;
      runtime_.checkGpuTensor(name, ref.gpu());
    }
    // Checked before planning: every tensor is bound whole, so no variant could take it, and this
    // says why more directly than each variant's rejection would.
    if (const uint64_t bytes = tensorBytes(ref.dtype(), ref.shape()); bytes > maxBinding)
      throw Error(ErrorCode::Contract, "input '" + name + "' has " + std::to_string(bytes) +
                                           " bytes, more than the device's maxStorageBufferBindingSize (" +
                                           std::to_string(maxBinding) + ")");
  }
  request.attrs = runtime::toValues(options.attrs);
  request.args = runtime::toValues(options.args);
  request.forcedVariant = options.variant;
  request.tunables = tunables;
  applyTuning(request);
  for (const auto& [name, t] : options.outputs) {
    const package::PortSpec* port = m.findPort(name);
    if (!port || !port->isOutput())
      throw Error(ErrorCode::Contract,
                  "'" + name + "' given as an output buffer is not an output of " + source_.opId);
    runtime_.checkGpuTensor(name, t);
  }

  std::shared_ptr<PreparedPlan> prepared = prepare(request);
  const plan::Plan& p = prepared->plan;
  result.variant = p.variant;
  result.selectedBy = p.selectedBy;
  const bool toHost = options.placement == OutputPlacement::Host ||
                      (options.placement == OutputPlacement::Auto && !anyGpuInput);

  // Caller-given outputs must match what the manifest derives.
  for (const auto& [name, t] : options.outputs) {
    const auto& o = plannedOutput(p, name);
    if (t.dtype != o.dtype || t.shape != o.shape)
      throw Error(ErrorCode::Contract, "output buffer '" + name + "' is " + std::string(dtypeName(t.dtype)) +
                                           " " + shapeString(t.shape) + "; the manifest derives " +
                                           std::string(dtypeName(o.dtype)) + " " + shapeString(o.shape) +
                                           " for these inputs");
  }

  std::lock_guard gpuLock(runtime_.gpuMutex());
  gpu::Device& dev = runtime_.device();
  std::map<std::string, Bound> bound;

  // Inputs: GPU tensors bind in place; host tensors are written into the plan's upload buffers.
  const auto tUpload = Clock::now();
  for (const auto& [name, ref] : inputs) {
    const uint64_t bytes = tensorBytes(ref.dtype(), ref.shape());
    if (ref.onHost()) {
      gpu::Buffer& b = prepared->hostInputs[name];
      if (!b || b.size() < bindSize(bytes)) b = dev.createBuffer(bindSize(bytes), kIoUsage, "input " + name);
      if (bytes) dev.write(b.handle(), 0, ref.host().bytes().data(), bytes);
      bound[name] = {b.handle(), 0, bindSize(bytes)};
    } else {
      const GpuTensor& g = ref.gpu();
      bound[name] = {g.buffer, g.offset, std::min(bindSize(bytes), gpu::bufferSize(g.buffer) - g.offset)};
    }
  }
  result.timings.uploadUs = usSince(tUpload);

  // Outputs: the caller's buffers, the plan's readback buffers, or new device tensors.
  for (const plan::PlannedOutput& o : p.outputs) {
    const uint64_t bytes = tensorBytes(o.dtype, o.shape);
    if (bytes > maxBinding)
      throw Error(ErrorCode::Contract, "output '" + o.name + "' would have " + std::to_string(bytes) +
                                           " bytes, more than the device's maxStorageBufferBindingSize (" +
                                           std::to_string(maxBinding) + ")");
    if (auto it = options.outputs.find(o.name); it != options.outputs.end()) {
      const GpuTensor& g = it->second;
      bound[o.name] = {g.buffer, g.offset, std::min(bindSize(bytes), gpu::bufferSize(g.buffer) - g.offset)};
    } else if (toHost) {
      gpu::Buffer& b = prepared->hostOutputs[o.name];
      if (!b) b = dev.createBuffer(bindSize(bytes), kIoUsage, "output " + o.name);
      bound[o.name] = {b.handle(), 0, bindSize(bytes)};
    } else {
      DeviceTensor t =
          runtime_.wrapBuffer(runtime_.pool().acquire(bindSize(bytes), kIoUsage), o.dtype, o.shape);
      bound[o.name] = {t.view().buffer, 0, bindSize(bytes)};
      result.device.emplace(o.name, std::move(t));
    }
  }
  for (const auto& [id, b] : prepared->intermediates) bound["intermediate:" + id] = {b.handle(), 0, b.size()};

  // Record every pass into one submission.
  // No wait after submit: host outputs are read back below (the read waits for the queue), device
  // outputs are used by later work on the same in-order queue. Host overhead stays off the GPU's clock.
  gpu::CommandRecorder rec = dev.recorder({.timestamps = options.timestamps, .wait = false});
  std::string key;
  std::vector<gpu::BindingEntry> entries;
  for (PreparedPass& pass : prepared->passes) {
    const plan::PlannedPass& pp = *pass.planned;
    if (pp.skipped) continue;
    key.clear();
    entries.clear();
    for (size_t i = 0; i < pp.bindings.size(); ++i) {
      const plan::PlannedBinding& b = pp.bindings[i];
      Bound x;
      if (b.kind == plan::BindingKind::Uniform) {
        x = {pass.uniforms[i].handle(), 0, pass.uniforms[i].size()};
      } else {
        auto it =
            bound.find(b.kind == plan::BindingKind::Intermediate ? "intermediate:" + b.resource : b.resource);
        if (it == bound.end())
          throw Error(ErrorCode::Contract,
                      "pass '" + pp.id + "' binds '" + b.resource +
                          "', which the call did not provide (an absent optional input?)");
        x = it->second;
      }
      appendKey(key, x);
      entries.push_back({x.buffer, x.offset, x.size});
    }
    auto it = pass.bindGroups.find(key);
    if (it == pass.bindGroups.end()) {
      ++runtime_.bindGroupMisses;
      if (pass.bindGroups.size() >= kMaxBindGroupsPerPass) pass.bindGroups.clear();
      it = pass.bindGroups.emplace(key, dev.createBindGroup(pass.pipeline, entries, pp.name)).first;
    } else {
      ++runtime_.bindGroupHits;
    }
    rec.dispatch(pass.pipeline, it->second, pp.dispatch[0], pp.dispatch[1], pp.dispatch[2], pp.name);
  }
  gpu::SubmitResult submitted =
      withContext("running " + source_.opId + " variant " + p.variant, [&] { return rec.submit(); });
  if (options.timestamps) result.timings.gpuUs = static_cast<double>(submitted.totalNs()) / 1e3;

  // Host outputs.
  const auto tRead = Clock::now();
  if (toHost) {
    for (const plan::PlannedOutput& o : p.outputs) {
      if (options.outputs.count(o.name)) continue;
      HostTensor h(o.dtype, o.shape);
      if (h.byteSize()) dev.read(bound[o.name].buffer, 0, h.bytes().data(), h.byteSize());
      result.host.emplace(o.name, std::move(h));
    }
  }
  result.timings.readbackUs = usSince(tRead);
  runtime_.pool().trim();
  result.timings.totalUs = usSince(t0);
  return result;
}

}  // namespace wgk

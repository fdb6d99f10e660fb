// One kernel call: validate tensors, find or build the prepared plan, bind buffers, record every
// pass into one submission, and read outputs back when they go to the host.
#include <chrono>
#include <cstring>

#include "runtime/attributes.h"
#include "runtime/runtime_impl.h"
#include "runtime/tensor_storage.h"
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

bool overlaps(const Bound& a, const Bound& b) {
  return a.buffer == b.buffer && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

// WebGPU usage scopes cover whole buffers: a buffer bound read-only and read-write in one pass is
// a validation error that poisons the command buffer, and two overlapping writable ranges race.
void checkAliasing(const plan::PlannedPass& pp, const std::vector<Bound>& bound) {
  for (size_t i = 0; i < bound.size(); ++i)
    for (size_t j = i + 1; j < bound.size(); ++j) {
      const auto ti = pp.bindings[i].type, tj = pp.bindings[j].type;
      if (ti == package::BufferType::Uniform || tj == package::BufferType::Uniform) continue;
      if (bound[i].buffer != bound[j].buffer) continue;
      const bool wi = ti == package::BufferType::Storage, wj = tj == package::BufferType::Storage;
      if (!wi && !wj) continue;
      if (wi && wj && !overlaps(bound[i], bound[j])) continue;
      throw Error(ErrorCode::InvalidArgument,
                  "pass '" + pp.id + "' binds one GPU buffer as '" + pp.bindings[i].name + "' and '" +
                      pp.bindings[j].name + "'" + (wi && wj ? " with overlapping writable ranges" : ", once read-only and once writable") +
                      ": pass distinct buffers (an in-place tensor is bound once, as its in/out port)");
    }
}

// viewAlias: the pass is an identity (e.g. a reshape in place) when every pair views the same bytes.
bool aliasedAway(const plan::PlannedPass& pp, const std::vector<Bound>& bound) {
  if (pp.viewAlias.empty()) return false;
  auto find = [&](const std::string& name) -> const Bound* {
    for (size_t i = 0; i < pp.bindings.size(); ++i)
      if (pp.bindings[i].name == name) return &bound[i];
    return nullptr;
  };
  for (const auto& a : pp.viewAlias) {
    const Bound *in = find(a.input), *out = find(a.output);
    if (!in || !out || in->buffer != out->buffer || in->offset != out->offset || in->size != out->size) return false;
  }
  return true;
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
    const runtime::StorageLayout layout = runtime::storageFor(m.findPort(name), ref.dtype());
    if (!ref.onHost()) {
      anyGpuInput = true;
      runtime_.checkGpuTensor(name, ref.gpu());
      if (!layout.identity() && (layout.packed || layout.storage != layout.logical))
        throw Error(ErrorCode::InvalidArgument,
                    "input '" + name + "' is a GPU tensor, but its port stores it " +
                        (layout.packed ? std::string("packed") : "as " + std::string(dtypeName(layout.storage))) +
                        ": pass a host tensor (the runtime converts it)");
    }
    // Checked before planning: every tensor is bound whole, so no variant could take it, and this
    // says why more directly than each variant's rejection would.
    if (const uint64_t bytes = layout.bytes(ref.shape()); bytes > maxBinding)
      throw Error(ErrorCode::Contract, "input '" + name + "' has " + std::to_string(bytes) +
                                           " bytes, more than the device's maxStorageBufferBindingSize (" +
                                           std::to_string(maxBinding) + ")");
  }
  request.attrs = runtime::toValues(options.attrs);
  request.args = runtime::toValues(options.args);
  for (const auto& [name, t] : options.outputs) request.outputs[name] = {t.dtype, t.shape};
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
  std::map<std::string, DeviceTensor> inPlace;  // in/out ports given as host tensors
  for (const auto& [name, ref] : inputs) {
    const package::PortSpec* port = m.findPort(name);
    const runtime::StorageLayout layout = runtime::storageFor(port, ref.dtype());
    const uint64_t bytes = layout.bytes(ref.shape());
    if (ref.onHost()) {
      WGPUBuffer target = nullptr;
      if (port && port->isOutput()) {
        DeviceTensor t = runtime_.wrapBuffer(runtime_.pool().acquire(bindSize(bytes), kIoUsage), ref.dtype(),
                                             ref.shape());
        target = t.view().buffer;
        inPlace.emplace(name, std::move(t));
      } else {
        gpu::Buffer& b = prepared->hostInputs[name];
        if (!b || b.size() < bindSize(bytes)) b = dev.createBuffer(bindSize(bytes), kIoUsage, "input " + name);
        target = b.handle();
      }
      if (bytes && layout.identity()) {
        dev.write(target, 0, ref.host().bytes().data(), bytes);
      } else if (bytes) {
        const std::vector<std::byte> words = runtime::toDevice(ref.host(), layout, name);
        dev.write(target, 0, words.data(), words.size());
      }
      bound[name] = {target, 0, bindSize(bytes)};
    } else {
      const GpuTensor& g = ref.gpu();
      bound[name] = {g.buffer, g.offset, std::min(bindSize(bytes), gpu::bufferSize(g.buffer) - g.offset)};
    }
  }
  result.timings.uploadUs = usSince(tUpload);

  // Outputs: the caller's buffers, the plan's readback buffers, or new device tensors.
  for (const plan::PlannedOutput& o : p.outputs) {
    const package::PortSpec* port = m.findPort(o.name);
    const runtime::StorageLayout layout = runtime::storageFor(port, o.dtype);
    const uint64_t bytes = layout.bytes(o.shape);
    if (port && port->isInput()) {
      // An in/out port: the input's buffer is the output (written in place).
      if (auto t = inPlace.find(o.name); t != inPlace.end() && !toHost) result.device.emplace(o.name, t->second);
      continue;
    }
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
          runtime_.wrapBuffer(runtime_.pool().acquire(bindSize(bytes), kIoUsage), layout.storage, o.shape);
      bound[o.name] = {t.view().buffer, 0, bindSize(bytes)};
      result.device.emplace(o.name, std::move(t));
    }
  }
  for (const auto& [id, b] : prepared->intermediates) bound["intermediate:" + id] = {b.handle(), 0, b.size()};
  // zeroInit intermediates are cleared before the passes run (queue order puts the write first).
  for (const plan::PlannedIntermediate& pi : p.intermediates)
    if (pi.zeroInit && pi.bytes > 0) {
      const gpu::Buffer& b = prepared->intermediates.at(pi.id);
      static const std::vector<std::byte> kZeros(1 << 16);
      for (uint64_t at = 0; at < b.size(); at += kZeros.size())
        dev.write(b.handle(), at, kZeros.data(), std::min<uint64_t>(kZeros.size(), b.size() - at));
    }

  // Record every pass into one submission.
  // No wait after submit: host outputs are read back below (the read waits for the queue), device
  // outputs are used by later work on the same in-order queue. Host overhead stays off the GPU's clock.
  gpu::CommandRecorder rec = dev.recorder({.timestamps = options.timestamps, .wait = false});
  std::string key;
  std::vector<gpu::BindingEntry> entries;
  std::vector<Bound> passBound;
  uint64_t gpuNs = 0;
  for (PreparedPass& pass : prepared->passes) {
    const plan::PlannedPass& pp = *pass.planned;
    if (pp.skipped) continue;
    key.clear();
    entries.clear();
    passBound.clear();
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
      passBound.push_back(x);
    }
    if (aliasedAway(pp, passBound)) continue;  // before the aliasing check: that is the point of it
    checkAliasing(pp, passBound);
    auto it = pass.bindGroups.find(key);
    if (it == pass.bindGroups.end()) {
      ++runtime_.bindGroupMisses;
      if (pass.bindGroups.size() >= kMaxBindGroupsPerPass) pass.bindGroups.clear();
      it = pass.bindGroups.emplace(key, dev.createBindGroup(pass.pipeline, entries, pp.name)).first;
    } else {
      ++runtime_.bindGroupHits;
    }
    rec.dispatch(pass.pipeline, it->second, pp.dispatch[0], pp.dispatch[1], pp.dispatch[2], pp.name);
    // submitAfter: the work so far goes to the queue now (later passes follow in queue order).
    if (pp.submitAfter)
      gpuNs += withContext("running " + source_.opId + " variant " + p.variant, [&] { return rec.submit(); }).totalNs();
  }
  gpuNs += withContext("running " + source_.opId + " variant " + p.variant, [&] { return rec.submit(); }).totalNs();
  if (options.timestamps) result.timings.gpuUs = static_cast<double>(gpuNs) / 1e3;

  // Host outputs.
  const auto tRead = Clock::now();
  if (toHost) {
    for (const plan::PlannedOutput& o : p.outputs) {
      if (options.outputs.count(o.name)) continue;
      const Bound& b = bound.at(o.name);
      const runtime::StorageLayout layout = runtime::storageFor(m.findPort(o.name), o.dtype);
      HostTensor h(o.dtype, o.shape);
      if (h.byteSize() && layout.identity()) {
        dev.read(b.buffer, b.offset, h.bytes().data(), h.byteSize());
      } else if (h.byteSize()) {
        std::vector<std::byte> words(layout.bytes(o.shape));
        dev.read(b.buffer, b.offset, words.data(), words.size());
        runtime::fromDevice(words, h, layout);
      }
      result.host.emplace(o.name, std::move(h));
    }
  }
  result.timings.readbackUs = usSince(tRead);
  runtime_.pool().trim();
  result.timings.totalUs = usSince(t0);
  return result;
}

}  // namespace wgk

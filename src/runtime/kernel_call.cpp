// One kernel call, in steps shared with Batch and Graph: resolve (validate tensors, find or build
// the prepared plan), record (bind buffers, append the passes to a command list), submit, and read
// outputs back when they go to the host. The warm path of a repeated call is kept cheap: the plan
// comes from a field-by-field memo of recent requests, each pass first checks the bind group it
// used last, and the command list is reused (docs/runtime.md "Host overhead per call").
#include <chrono>
#include <cstring>
#include <exception>
#include <span>

#include "core/shape_text.h"
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

// WebGPU's storage binding granularity: the tensor's bytes rounded up to 4, at least 16 (an empty
// tensor still binds as array<vec4<f32>>, whose elements are 16 bytes; its buffer has that much).
uint64_t bindSize(uint64_t bytes) {
  return std::max<uint64_t>(16, (bytes + 3) & ~uint64_t{3});
}

// A caller's tensor, bound whole: never past the end of its buffer.
Bound boundOf(const GpuTensor& g, uint64_t bytes) {
  return {g.buffer, g.offset, std::min(bindSize(bytes), gpu::bufferSize(g.buffer) - g.offset)};
}

}  // namespace

CallRecord::~CallRecord() {
  if (auto p = pool.lock())
    for (gpu::Buffer& b : staging) p->release(std::move(b));
}

// ---- resolve: validation and the plan ---------------------------------------------------------

bool CallMemo::matches(const std::map<std::string, TensorRef>& in, const CallOptions& o) const {
  if (!prepared || in.size() != inputs.size() || o.outputs.size() != outputs.size() || o.variant != variant)
    return false;
  size_t i = 0;
  for (const auto& [name, ref] : in) {
    const Tensor& t = inputs[i++];
    if (t.onHost != ref.onHost() || t.dtype != ref.dtype() || t.name != name || t.shape != ref.shape())
      return false;
  }
  i = 0;
  for (const auto& [name, g] : o.outputs) {
    const Tensor& t = outputs[i++];
    if (t.dtype != g.dtype || t.name != name || t.shape != g.shape) return false;
  }
  return attrs == o.attrs && args == o.args;
}

std::shared_ptr<PreparedPlan> KernelImpl::findMemo(const std::map<std::string, TensorRef>& inputs,
                                                   const CallOptions& options) const {
  // A lost device is replaced before any work; the memo holds plans of the first device only, so
  // after a replacement calls take prepare()'s path, whose key names the device generation.
  runtime_.recoverIfLost();
  if (runtime_.deviceGeneration() != 0) return nullptr;
  std::shared_lock lock(plansMutex_);
  for (const CallMemo& m : memo_)
    if (m.matches(inputs, options)) return m.prepared;
  return nullptr;
}

void KernelImpl::remember(const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                          const std::shared_ptr<PreparedPlan>& prepared) {
  CallMemo m;
  for (const auto& [name, ref] : inputs) m.inputs.push_back({name, ref.dtype(), ref.shape(), ref.onHost()});
  for (const auto& [name, g] : options.outputs) m.outputs.push_back({name, g.dtype, g.shape, false});
  m.attrs = options.attrs;
  m.args = options.args;
  m.variant = options.variant;
  m.prepared = prepared;
  std::unique_lock lock(plansMutex_);
  memo_[memoNext_] = std::move(m);
  memoNext_ = (memoNext_ + 1) % kMemoSize;
}

// Everything that depends only on the request (dtypes, shapes, attributes, args, options):
// checked once per distinct request, then remembered with its plan.
std::shared_ptr<PreparedPlan> KernelImpl::resolveSlow(const std::map<std::string, TensorRef>& inputs,
                                                      const CallOptions& options,
                                                      const std::map<std::string, expr::Value>& tunables) {
  const package::Manifest& m = planner_.package().manifest();
  plan::PlanRequest request;
  for (const auto& [name, ref] : inputs) {
    request.inputs[name] = {ref.dtype(), ref.shape()};
    const runtime::StorageLayout layout = runtime::storageFor(m.findPort(name), ref.dtype());
    if (!ref.onHost() && !layout.identity() && (layout.packed || layout.storage != layout.logical))
      throw Error(
          ErrorCode::InvalidArgument,
          "input '" + name + "' is a GPU tensor, but its port stores it " +
              (layout.packed ? std::string("packed") : "as " + std::string(dtypeName(layout.storage))) +
              ": pass a host tensor (the runtime converts it)");
  }
  // Before planning: a tensor too large to bind says so directly rather than through each variant's
  // rejection (the planner applies the same rule, and the output one, after choosing a variant).
  plan::checkInputBindingLimits(m, request, runtime_.profile());
  request.attrs = runtime::toValues(options.attrs);
  request.args = runtime::toValues(options.args);
  for (const auto& [name, t] : options.outputs) {
    const package::PortSpec* port = m.findPort(name);
    if (!port || !port->isOutput())
      throw Error(ErrorCode::Contract,
                  "'" + name + "' given as an output buffer is not an output of " + source_.opId);
    request.outputs[name] = {t.dtype, t.shape};
  }
  request.forcedVariant = options.variant;
  request.tunables = tunables;
  applyTuning(request);

  std::shared_ptr<PreparedPlan> prepared = prepare(request);
  const plan::Plan& p = prepared->plan;
  for (const plan::PlannedOutput& o : p.outputs) {
    if (auto it = options.outputs.find(o.name); it != options.outputs.end()) {
      const GpuTensor& t = it->second;
      if (t.dtype != o.dtype || t.shape != o.shape)
        throw Error(ErrorCode::Contract, "output buffer '" + o.name + "' is " +
                                             std::string(dtypeName(t.dtype)) + " " + shapeText(t.shape) +
                                             "; the manifest derives " + std::string(dtypeName(o.dtype)) +
                                             " " + shapeText(o.shape) + " for these inputs");
    }
  }
  if (tunables.empty()) remember(inputs, options, prepared);
  return prepared;
}

// What differs between calls of one request: the caller's buffers.
void KernelImpl::checkPerCall(const std::map<std::string, TensorRef>& inputs, const CallOptions& options) {
  for (const auto& [name, ref] : inputs)
    if (!ref.onHost()) runtime_.checkGpuTensor(name, ref.gpu());
  for (const auto& [name, t] : options.outputs) runtime_.checkGpuTensor(name, t);
}

ResolvedCall KernelImpl::resolve(const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                                 const std::map<std::string, expr::Value>& tunables) {
  checkPerCall(inputs, options);
  ResolvedCall rc;
  if (tunables.empty()) rc.prepared = findMemo(inputs, options);
  if (rc.prepared)
    ++runtime_.planHits;
  else
    rc.prepared = resolveSlow(inputs, options, tunables);
  bool anyGpuInput = false;
  for (const auto& [name, ref] : inputs) anyGpuInput |= !ref.onHost();
  rc.toHost = options.placement == OutputPlacement::Host ||
              (options.placement == OutputPlacement::Auto && !anyGpuInput);
  return rc;
}

// ---- record: buffers and passes ---------------------------------------------------------------

// GPU inputs bind in place; host inputs are written into an upload buffer: the plan's own (a
// single call: reused, queue-ordered) or a pooled staging buffer the batch holds. An in/out port
// given as a host tensor gets a fresh buffer that is then its output.
void KernelImpl::bindInputs(PreparedPlan& pp, const std::map<std::string, TensorRef>& inputs, RecordMode mode,
                            CallRecord* keep, CallResult& result, std::vector<Bound>& slots) {
  gpu::Device& dev = runtime_.device();
  for (size_t i = 0; i < pp.slots.size(); ++i) {
    const PlanSlot& s = pp.slots[i];
    if (s.kind != PlanSlot::Kind::Input && s.kind != PlanSlot::Kind::InOut) continue;
    const TensorRef& ref = inputs.at(s.name);
    if (!ref.onHost()) {
      slots[i] = boundOf(ref.gpu(), s.bytes);
      // A batch's own outputs are not kept: dropped by the caller, they are free for its later calls.
      if (keep && ref.owner() && !(keep->local && ref.owner()->homeIs(keep->local)))
        keep->keep.push_back(ref.owner());
      continue;
    }
    WGPUBuffer target = nullptr;
    if (s.kind == PlanSlot::Kind::InOut) {
      DeviceTensor t =
          runtime_.wrapBuffer(runtime_.pool().acquire(bindSize(s.bytes), kIoUsage), ref.dtype(), ref.shape());
      target = t.view().buffer;
      if (keep) keep->keep.push_back(TensorRef(t).owner());
      result.device.emplace(s.name, std::move(t));  // held until the readback when toHost
    } else if (mode == RecordMode::Batch) {
      keep->staging.push_back(runtime_.pool().acquire(bindSize(s.bytes), kIoUsage));
      target = keep->staging.back().handle();
      if (keep->stats) ++keep->stats->stagingBuffers;
    } else {
      gpu::Buffer& b = pp.hostInputs[s.name];
      if (!b || b.size() < bindSize(s.bytes))
        b = dev.createBuffer(bindSize(s.bytes), kIoUsage, "input " + s.name);
      target = b.handle();
    }
    if (s.bytes && s.layout.identity()) {
      dev.write(target, 0, ref.host().bytes().data(), s.bytes);
    } else if (s.bytes) {
      const std::vector<std::byte> words = runtime::toDevice(ref.host(), s.layout, s.name);
      dev.write(target, 0, words.data(), words.size());
    }
    slots[i] = {target, 0, bindSize(s.bytes)};
  }
}

// Outputs: the caller's buffers, the plan's readback buffers, or new device tensors.
void KernelImpl::bindOutputs(PreparedPlan& pp, const CallOptions& options, bool toHost, CallRecord* keep,
                             CallResult& result, std::vector<Bound>& slots) {
  for (size_t i = 0; i < pp.slots.size(); ++i) {
    const PlanSlot& s = pp.slots[i];
    if (s.kind == PlanSlot::Kind::Intermediate) {
      slots[i] = {pp.intermediates.at(s.name).handle(), 0, pp.intermediates.at(s.name).size()};
      continue;
    }
    if (s.kind != PlanSlot::Kind::Output) continue;
    if (auto it = options.outputs.find(s.name); it != options.outputs.end()) {
      slots[i] = boundOf(it->second, s.bytes);
    } else if (toHost) {
      gpu::Buffer& b = pp.hostOutputs[s.name];
      if (!b) b = runtime_.device().createBuffer(bindSize(s.bytes), kIoUsage, "output " + s.name);
      slots[i] = {b.handle(), 0, bindSize(s.bytes)};
    } else {
      bool local = false;
      gpu::Buffer b = outputBuffer(bindSize(s.bytes), keep, local);
      DeviceTensor t = local ? runtime_.wrapBuffer(std::move(b), s.layout.storage, s.shape, keep->local)
                             : runtime_.wrapBuffer(std::move(b), s.layout.storage, s.shape);
      slots[i] = {t.view().buffer, 0, bindSize(s.bytes)};
      if (keep && !local) keep->keep.push_back(TensorRef(t).owner());
      result.device.emplace(s.name, std::move(t));
    }
  }
}

// A runtime-allocated output: in a batch, first a buffer a dropped output of the same batch freed
// (every call reading it is recorded before this one, in the same command buffer), else the
// runtime's pool. `local`: the tensor's home is the batch's pool.
gpu::Buffer KernelImpl::outputBuffer(uint64_t bytes, CallRecord* keep, bool& local) {
  local = keep && keep->local;
  if (!local) return runtime_.pool().acquire(bytes, kIoUsage);
  if (gpu::Buffer b = keep->local->take(bytes, kIoUsage)) {
    if (keep->stats) ++keep->stats->outputsReused;
    return b;
  }
  if (keep->stats) ++keep->stats->outputsAllocated;
  return runtime_.pool().acquire(bytes, kIoUsage);
}

namespace {
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
      throw Error(
          ErrorCode::InvalidArgument,
          "pass '" + pp.id + "' binds one GPU buffer as '" + pp.bindings[i].name + "' and '" +
              pp.bindings[j].name + "'" +
              (wi && wj ? " with overlapping writable ranges" : ", once read-only and once writable") +
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
    if (!in || !out || in->buffer != out->buffer || in->offset != out->offset || in->size != out->size)
      return false;
  }
  return true;
}

std::string bindGroupKey(const std::vector<Bound>& bound) {
  std::string key(bound.size() * sizeof(Bound), '\0');
  for (size_t i = 0; i < bound.size(); ++i) {
    char* at = key.data() + i * sizeof(Bound);
    std::memcpy(at, &bound[i].buffer, sizeof(WGPUBuffer));
    std::memcpy(at + sizeof(WGPUBuffer), &bound[i].offset, 8);
    std::memcpy(at + sizeof(WGPUBuffer) + 8, &bound[i].size, 8);
  }
  return key;
}
constexpr size_t kMaxBindGroupsPerPass = 32;

// Every planned pass with its share of submitTimed's per-dispatch nanoseconds. recordPasses
// dispatched exactly the passes that are not skipped and not aliased away (lastAliased is this
// call's verdict), in plan order, so the i-th dispatched pass owns ns[i]; a zero-sized dispatch
// is recorded but does not run (0 ns): skipped too. gpuUs is summed from the same doubles.
void passTimings(const PreparedPlan& pp, const std::vector<uint64_t>& ns, CallTimings& t) {
  t.passes.clear();
  t.passes.reserve(pp.passes.size());
  size_t i = 0;
  double sum = 0;
  for (const PreparedPass& pass : pp.passes) {
    const plan::PlannedPass& p = *pass.planned;
    PassTiming pt{p.id, 0, true};
    if (!p.skipped && !pass.lastAliased) {
      if (i >= ns.size()) break;
      pt.skipped = p.dispatch[0] == 0 || p.dispatch[1] == 0 || p.dispatch[2] == 0;
      pt.gpuUs = static_cast<double>(ns[i++]) / 1e3;
    }
    sum += pt.gpuUs;
    t.passes.push_back(std::move(pt));
  }
  if (i != ns.size() || t.passes.size() != pp.passes.size())
    throw Error(ErrorCode::Internal, "timed " + std::to_string(ns.size()) + " dispatches for " +
                                         std::to_string(i) + " dispatched passes of the plan");
  t.gpuUs = sum;
}
}  // namespace

// Per pass: the bound ranges, the bind group (the last one when the ranges are the same, else the
// pass's cache, else a new one), one dispatch; a submitAfter pass ends the submission there.
void KernelImpl::recordPasses(PreparedPlan& pp, const std::vector<Bound>& slots, gpu::CommandList& commands,
                              CallRecord* keep) {
  static thread_local std::vector<Bound> bound;
  for (const auto& [slot, buffer] : pp.zeroInit) commands.clear(buffer, 0, slots[slot].size);
  for (PreparedPass& pass : pp.passes) {
    const plan::PlannedPass& p = *pass.planned;
    if (p.skipped) continue;
    bound.clear();
    for (size_t i = 0; i < p.bindings.size(); ++i) {
      const int32_t slot = pass.slotOf[i];
      if (slot == kMissingSlot)
        throw Error(ErrorCode::Contract, "pass '" + p.id + "' binds '" + p.bindings[i].resource +
                                             "', which the call did not provide (an absent optional input?)");
      bound.push_back(slot == kUniformSlot ? Bound{pass.uniforms[i].handle(), 0, pass.uniforms[i].size()}
                                           : slots[slot]);
    }
    if (pass.lastGroup && bound == pass.lastBound) {
      ++runtime_.bindGroupHits;
    } else {
      pass.lastAliased = aliasedAway(p, bound);  // before the aliasing check: that is the point of it
      if (!pass.lastAliased) checkAliasing(p, bound);
      std::string key = bindGroupKey(bound);
      auto it = pass.bindGroups.find(key);
      if (it == pass.bindGroups.end()) {
        ++runtime_.bindGroupMisses;
        if (pass.bindGroups.size() >= kMaxBindGroupsPerPass) pass.bindGroups.clear();
        std::vector<gpu::BindingEntry> entries;
        for (const Bound& b : bound) entries.push_back({b.buffer, b.offset, b.size});
        auto group = std::make_shared<const gpu::BindGroup>(
            runtime_.device().createBindGroup(pass.pipeline, entries, p.name));
        it = pass.bindGroups.emplace(std::move(key), std::move(group)).first;
      } else {
        ++runtime_.bindGroupHits;
      }
      pass.lastBound = bound;
      pass.lastGroup = it->second;
    }
    if (pass.lastAliased) continue;
    if (keep && keep->dispatches)
      keep->dispatches->push_back({commands.size(), commands.dispatchCount(), pass.pipeline, bound, &p.name});
    commands.dispatch(pass.pipeline, pass.lastGroup, p.dispatch[0], p.dispatch[1], p.dispatch[2]);
    if (p.submitAfter) commands.boundary();  // later passes follow in queue order
  }
}

void KernelImpl::record(const ResolvedCall& rc, const std::map<std::string, TensorRef>& inputs,
                        const CallOptions& options, RecordMode mode, gpu::CommandList& commands,
                        CallRecord* keep, CallResult& result, std::vector<Bound>& slots) {
  PreparedPlan& pp = *rc.prepared;
  slots.assign(pp.slots.size(), Bound{});
  const auto tUpload = Clock::now();
  bindInputs(pp, inputs, mode, keep, result, slots);
  result.timings.uploadUs = usSince(tUpload);
  bindOutputs(pp, options, rc.toHost, keep, result, slots);
  recordPasses(pp, slots, commands, keep);
}

// ---- a single call ----------------------------------------------------------------------------

// One readback for every host output, copied into a staging buffer of its own: the wait happens
// without the GPU lock, and other threads' calls queue behind these copies, so a later call of the
// same plan rewriting its output buffers cannot change what this one reads.
gpu::Pending KernelImpl::readBackStart(PreparedPlan& pp, const CallOptions& options,
                                       const std::vector<Bound>& slots) {
  const plan::Plan& p = pp.plan;
  std::vector<gpu::Pending::Range> ranges;
  for (size_t k = 0; k < p.outputs.size(); ++k) {
    const plan::PlannedOutput& o = p.outputs[k];
    if (options.outputs.count(o.name)) continue;
    const int32_t slot = pp.outputSlots[k];
    if (slot < 0) throw Error(ErrorCode::Internal, "output '" + o.name + "' was not bound");
    const Bound& b = slots[slot];
    const runtime::StorageLayout& layout = pp.slots[slot].layout;
    const uint64_t bytes = layout.identity() ? static_cast<uint64_t>(numel(o.shape)) * dtypeBytes(o.dtype)
                                             : layout.bytes(o.shape);
    ranges.push_back({b.buffer, b.offset, bytes});
  }
  return runtime_.device().readLater(ranges);
}

void KernelImpl::readBackFinish(PreparedPlan& pp, const CallOptions& options, const gpu::Pending& read,
                                CallResult& result) {
  const plan::Plan& p = pp.plan;
  size_t i = 0;
  for (size_t k = 0; k < p.outputs.size(); ++k) {
    const plan::PlannedOutput& o = p.outputs[k];
    if (options.outputs.count(o.name)) continue;
    const runtime::StorageLayout& layout = pp.slots[pp.outputSlots[k]].layout;
    const std::span<const std::byte> bytes = read.bytes(i++);
    HostTensor h(o.dtype, o.shape);
    if (h.byteSize() && layout.identity()) {
      std::memcpy(h.bytes().data(), bytes.data(), h.byteSize());
    } else if (h.byteSize()) {
      runtime::fromDevice(bytes, h, layout);
    }
    result.host.emplace(o.name, std::move(h));
  }
}

CallResult KernelImpl::call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options) {
  static const std::map<std::string, expr::Value> kNoTunables;
  return call(inputs, options, kNoTunables);
}

CallResult KernelImpl::call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options,
                            const std::map<std::string, expr::Value>& tunables) {
  const auto t0 = Clock::now();
  const ResolvedCall rc = resolve(inputs, options, tunables);
  PreparedPlan& pp = *rc.prepared;
  CallResult result;
  result.variant = pp.plan.variant;
  result.selectedBy = pp.plan.selectedBy;

  // Device in, device out: recorded into the pending command buffer (RuntimeOptions::deferCalls).
  bool deviceOnly = !rc.toHost && !options.timestamps && tunables.empty() && runtime_.defers();
  for (const auto& [name, ref] : inputs) deviceOnly = deviceOnly && !ref.onHost();
  if (deviceOnly) {
    result = callDeferred(rc, inputs, options);
    result.timings.totalUs = usSince(t0);
    return result;
  }

  std::unique_lock gpuLock(runtime_.gpuMutex());
  static thread_local std::vector<Bound> slots;
  gpu::CommandList& commands = pp.commands;
  commands.reset();
  record(rc, inputs, options, RecordMode::Single, commands, nullptr, result, slots);
  // No wait after submit: host outputs are read back below (the read waits for the queue), device
  // outputs are used by later work on the same in-order queue. Host overhead stays off the GPU's clock.
  try {
    if (options.timestamps) {
      passTimings(pp, commands.submitTimed(runtime_.device()), result.timings);
    } else {
      commands.submit(runtime_.device(), /*checked=*/false);
    }
  } catch (Error& e) {
    commands.reset();
    throw e.with("while running " + source_.opId + " variant " + pp.plan.variant);
  }
  commands.reset();  // drop the bind group references until the next call

  const auto tRead = Clock::now();
  if (rc.toHost) {
    // The wait and the copy out happen without the GPU lock (other threads record meanwhile); the
    // readback is released under it, whichever way this ends (declared after the lock: destroyed first).
    gpu::Pending read;
    try {
      read = readBackStart(pp, options, slots);
      runtime_.await(gpuLock, read);
    } catch (Error& e) {
      throw e.with("while reading back the outputs of " + source_.opId + " variant " + pp.plan.variant);
    }
    gpuLock.unlock();
    std::exception_ptr failed;
    try {
      readBackFinish(pp, options, read, result);
    } catch (...) {
      failed = std::current_exception();
    }
    gpuLock.lock();
    read.release();
    result.device.clear();  // in/out buffers of host tensors: read back, not returned
    if (failed) std::rethrow_exception(failed);
  }
  result.timings.readbackUs = usSince(tRead);
  runtime_.trimPool();
  result.timings.totalUs = usSince(t0);
  return result;
}

// Appended to the runtime's pending commands; submitted with the calls around it (flushLocked).
// Nothing is kept for the inputs: every other queue use flushes first, so a buffer a dropped input
// returns to the pool is only rewritten after this call has run.
CallResult KernelImpl::callDeferred(const ResolvedCall& rc, const std::map<std::string, TensorRef>& inputs,
                                    const CallOptions& options) {
  static thread_local std::vector<Bound> slots;
  CallResult result;
  result.variant = rc.prepared->plan.variant;
  result.selectedBy = rc.prepared->plan.selectedBy;
  std::lock_guard gpuLock(runtime_.gpuMutex());
  gpu::CommandList& commands = runtime_.pendingCommands();
  const gpu::CommandList::Mark mark = commands.mark();
  try {
    record(rc, inputs, options, RecordMode::Single, commands, nullptr, result, slots);
  } catch (...) {
    commands.rollback(mark);
    throw;
  }
  runtime_.noteDeferred(*this, rc.prepared);  // may flush: past the size or time bound
  return result;
}

}  // namespace wgk

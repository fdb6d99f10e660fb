// CommandList: resolved GPU commands, re-encoded and submitted on every submit().
#include "gpu/command_list.h"

#include <algorithm>

#include "gpu/device.h"
#include "gpu/device_state.h"
#include "gpu/error_scope.h"
#include "gpu/pass_time.h"
#include "wgk/error.h"

namespace wgk::gpu {

void CommandList::dispatch(const ComputePipeline& pipeline, std::shared_ptr<const BindGroup> group,
                           uint32_t x, uint32_t y, uint32_t z) {
  if (!pipeline || !group || !*group)
    throw Error(ErrorCode::Internal, "CommandList::dispatch without a pipeline or bind group");
  Cmd c;
  c.kind = Kind::Dispatch;
  c.x = x, c.y = y, c.z = z;
  c.pipeline = pipeline.handle();
  c.group = group->handle();
  cmds_.push_back(c);
  groups_.emplace_back(pipeline, std::move(group));
  ++dispatches_;
}

void CommandList::rebind(size_t command, size_t dispatch, std::shared_ptr<const BindGroup> group) {
  if (command >= cmds_.size() || cmds_[command].kind != Kind::Dispatch || dispatch >= groups_.size() ||
      !group || !*group)
    throw Error(ErrorCode::Internal, "CommandList::rebind: no dispatch at that position");
  cmds_[command].group = group->handle();
  groups_[dispatch].second = std::move(group);
}

void CommandList::clear(WGPUBuffer buffer, uint64_t offset, uint64_t size) {
  if (size == 0) return;
  Cmd c;
  c.kind = Kind::Clear;
  c.dst = buffer, c.dstOffset = offset, c.size = size;
  cmds_.push_back(c);
}

void CommandList::copy(WGPUBuffer src, uint64_t srcOffset, WGPUBuffer dst, uint64_t dstOffset,
                       uint64_t size) {
  if (size == 0) return;
  Cmd c;
  c.kind = Kind::Copy;
  c.src = src, c.srcOffset = srcOffset, c.dst = dst, c.dstOffset = dstOffset, c.size = size;
  cmds_.push_back(c);
}

void CommandList::boundary() {
  if (!cmds_.empty() && cmds_.back().kind != Kind::Boundary) cmds_.push_back(Cmd{Kind::Boundary});
}

void CommandList::rollback(Mark m) {
  if (m.commands < cmds_.size()) cmds_.resize(m.commands);
  if (m.keep < groups_.size()) groups_.resize(m.keep);
  dispatches_ = m.dispatches;
}

void CommandList::reserve(size_t commands) {
  cmds_.reserve(commands);
  groups_.reserve(commands);
}

// One command encoder per segment; consecutive dispatches share a compute pass (WebGPU makes each
// dispatch see the writes of the ones before it, so a pass boundary adds nothing but cost). Timed:
// each dispatch gets its own pass with timestamp writes 2i and 2i + 1, resolved at the end; a
// list of more than kTimedPerQuerySet dispatches (WebGPU caps a query set at 4,096 queries) is
// timed a query set at a time: resolved, submitted and read back every kTimedPerQuerySet dispatches
// (a run of 3,000 passes failed with "Query count exceeds 4096").
// Untimed, a long segment is submitted in chunks (kFirstChunk dispatches, then every kChunk): the
// queue keeps their order, and the GPU runs the first chunks while the host still encodes the rest
// (one submission at the end would leave the GPU idle for the whole encoding).
constexpr uint32_t kFirstChunk = 16, kChunk = 64;
constexpr uint32_t kTimedPerQuerySet = 2048;

void CommandList::encodeSegments(DeviceState& s, std::span<const Copy> before, uint64_t* stamps) const {
  const Procs& p = procs();
  const bool timed = stamps != nullptr;
  uint32_t timedFrom = 0;  // the first dispatch whose timestamps the query set now holds
  WGPUCommandEncoder enc = nullptr;
  WGPUComputePassEncoder pass = nullptr;
  WGPUComputePipeline bound = nullptr;
  uint32_t dispatchIndex = 0, sinceFlush = 0, chunk = kFirstChunk;
  auto endPass = [&] {
    if (!pass) return;
    p.ComputePassEncoderEnd(pass);
    p.ComputePassEncoderRelease(pass);
    pass = nullptr;
    bound = nullptr;
  };
  auto flush = [&](bool last) {
    endPass();
    if (!enc) return;
    const uint32_t held = dispatchIndex - timedFrom;
    if (last && timed && held) {
      p.CommandEncoderResolveQuerySet(enc, s.querySet, 0, 2 * held, s.queryResolve, 0);
      p.CommandEncoderCopyBufferToBuffer(enc, s.queryResolve, 0, s.queryStaging, 0, 16ull * held);
    }
    WGPUCommandBuffer cb = p.CommandEncoderFinish(enc, nullptr);
    sinceFlush = 0;
    p.QueueSubmit(s.queue, 1, &cb);
    p.CommandBufferRelease(cb);
    p.CommandEncoderRelease(enc);
    enc = nullptr;
    if (last && timed && held) {  // the query set is free for the next kTimedPerQuerySet dispatches
      s.waitQueueIdle();
      s.mapAndCopy(s.queryStaging, 16ull * held, 0, stamps + 2ull * timedFrom, 16ull * held);
      timedFrom = dispatchIndex;
    }
  };
  enc = p.DeviceCreateCommandEncoder(s.device, nullptr);
  for (const Copy& c : before)
    p.CommandEncoderCopyBufferToBuffer(enc, c.src, c.srcOffset, c.dst, c.dstOffset, c.size);
  for (const Cmd& c : cmds_) {
    if (c.kind == Kind::Boundary) {
      flush(false);
      continue;
    }
    if (!enc) enc = p.DeviceCreateCommandEncoder(s.device, nullptr);
    switch (c.kind) {
      case Kind::Dispatch: {
        if (timed && dispatchIndex - timedFrom == kTimedPerQuerySet) {
          flush(true);
          enc = p.DeviceCreateCommandEncoder(s.device, nullptr);
        }
        const uint32_t i = dispatchIndex++ - timedFrom;
        if (c.x == 0 || c.y == 0 || c.z == 0) break;
        if (timed) {
          endPass();
          WGPUPassTimestampWrites tw = WGPU_PASS_TIMESTAMP_WRITES_INIT;
          tw.querySet = s.querySet;
          tw.beginningOfPassWriteIndex = 2 * i;
          tw.endOfPassWriteIndex = 2 * i + 1;
          WGPUComputePassDescriptor pd = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
          pd.timestampWrites = &tw;
          pass = p.CommandEncoderBeginComputePass(enc, &pd);
        } else if (!pass) {
          pass = p.CommandEncoderBeginComputePass(enc, nullptr);
        }
        if (c.pipeline != bound) p.ComputePassEncoderSetPipeline(pass, bound = c.pipeline);
        p.ComputePassEncoderSetBindGroup(pass, 0, c.group, 0, nullptr);
        p.ComputePassEncoderDispatchWorkgroups(pass, c.x, c.y, c.z);
        if (!timed && ++sinceFlush >= chunk) {
          flush(false);
          chunk = kChunk;
        }
        break;
      }
      case Kind::Clear:
        endPass();
        p.CommandEncoderClearBuffer(enc, c.dst, c.dstOffset, c.size);
        break;
      case Kind::Copy:
        endPass();
        p.CommandEncoderCopyBufferToBuffer(enc, c.src, c.srcOffset, c.dst, c.dstOffset, c.size);
        break;
      case Kind::Boundary:
        break;
    }
  }
  if (timed && !enc && dispatchIndex) enc = p.DeviceCreateCommandEncoder(s.device, nullptr);
  flush(true);
}

void CommandList::submit(Device& device, bool checked) const {
  submit(device, checked, {});
}

void CommandList::submit(Device& device, bool checked, std::span<const Copy> before) const {
  DeviceState& s = *device.state();
  s.checkAlive();
  if (cmds_.empty() && before.empty()) return;
  s.flushPending();
  // Without a callback of wgk's own (a wrapped device) only a scope sees validation errors.
  if (checked || !s.owned) {
    ErrorScope scope(s);
    encodeSegments(s, before, nullptr);
    scope.check();
  } else {
    encodeSegments(s, before, nullptr);
  }
  s.raiseUncaptured();
}

std::vector<uint64_t> CommandList::submitTimed(Device& device) const {
  DeviceState& s = *device.state();
  s.checkAlive();
  std::vector<uint64_t> ns(dispatches_, 0);
  if (cmds_.empty()) return ns;
  s.flushPending();
  const uint32_t n = static_cast<uint32_t>(dispatches_);
  if (n) ensureQueryCapacity(s, 2 * std::min(n, kTimedPerQuerySet));
  std::vector<uint64_t> stamps(2 * size_t{n});
  {
    ErrorScope scope(s);
    encodeSegments(s, {}, n > 0 ? stamps.data() : nullptr);  // reads the timestamps back
    scope.check();
  }
  s.waitQueueIdle();
  if (n) {
    std::vector<uint8_t> ran;
    ran.reserve(n);
    for (const Cmd& c : cmds_)
      if (c.kind == Kind::Dispatch) ran.push_back(c.x && c.y && c.z);
    ns = passDurations(stamps, ran);
  }
  s.raiseUncaptured();
  return ns;
}

}  // namespace wgk::gpu

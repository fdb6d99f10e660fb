// CommandRecorder: many dispatches, one command buffer, one submit, optional pass timestamps.
#include "gpu/recorder.h"

#include <algorithm>

#include "gpu/bind_group_build.h"
#include "gpu/device.h"
#include "gpu/device_state.h"
#include "gpu/error_scope.h"
#include "gpu/pass_time.h"
#include "wgk/error.h"

namespace wgk::gpu {

void ensureQueryCapacity(DeviceState& s, uint32_t queries) {
  if (s.querySet && s.queryCount >= queries) return;
  uint32_t cap = 64;
  while (cap < queries) cap *= 2;
  const Procs& p = procs();
  if (s.querySet) {
    p.QuerySetDestroy(s.querySet);
    p.QuerySetRelease(s.querySet);
    s.querySet = nullptr;
  }
  DeviceState::freeBuffer(s.queryResolve);
  DeviceState::freeBuffer(s.queryStaging);
  s.queryCount = 0;
  ErrorScope scope(s);
  WGPUQuerySetDescriptor qd = WGPU_QUERY_SET_DESCRIPTOR_INIT;
  qd.label = toView("wgk timestamps");
  qd.type = WGPUQueryType_Timestamp;
  qd.count = cap;
  s.querySet = p.DeviceCreateQuerySet(s.device, &qd);
  s.queryResolve = s.makeBuffer(8ull * cap, WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                                "wgk timestamp resolve");
  s.queryStaging =
      s.makeBuffer(8ull * cap, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, "wgk timestamp readback");
  scope.check();
  s.queryCount = cap;
}

void CommandRecorder::checkCounts(const ComputePipeline& pipeline, size_t entries, uint32_t x, uint32_t y,
                                  uint32_t z, std::string_view label) const {
  if (!pipeline)
    throw Error(ErrorCode::InvalidArgument, "dispatch '" + std::string(label) + "': empty pipeline");
  const uint32_t max = state_->limits.maxComputeWorkgroupsPerDimension;
  if (x > max || y > max || z > max)
    throw Error(ErrorCode::InvalidArgument, "dispatch '" + std::string(label) + "' of " + std::to_string(x) +
                                                " x " + std::to_string(y) + " x " + std::to_string(z) +
                                                " workgroups exceeds maxComputeWorkgroupsPerDimension " +
                                                std::to_string(max) + " (fold the excess into y)");
  (void)entries;
}

void CommandRecorder::dispatch(const ComputePipeline& pipeline, std::span<const BindingEntry> entries,
                               uint32_t x, uint32_t y, uint32_t z, std::string_view label) {
  state_->checkAlive();
  checkCounts(pipeline, entries.size(), x, y, z, label);
  validateBindingEntries(*state_, pipeline.bindings(), entries, label.empty() ? pipeline.label() : label);
  Pass pass;
  pass.pipeline = pipeline;
  pass.firstEntry = static_cast<uint32_t>(entries_.size());
  pass.entryCount = static_cast<uint32_t>(entries.size());
  pass.x = x, pass.y = y, pass.z = z;
  pass.label = label.empty() ? pipeline.label() : std::string(label);
  entries_.insert(entries_.end(), entries.begin(), entries.end());
  passes_.push_back(std::move(pass));
}

void CommandRecorder::dispatch(const ComputePipeline& pipeline, const BindGroup& group, uint32_t x,
                               uint32_t y, uint32_t z, std::string_view label) {
  state_->checkAlive();
  checkCounts(pipeline, pipeline.bindings().size(), x, y, z, label);
  if (!group)
    throw Error(ErrorCode::InvalidArgument, "dispatch '" + std::string(label) + "': empty bind group");
  Pass pass;
  pass.pipeline = pipeline;
  pass.group = group.handle();
  pass.x = x, pass.y = y, pass.z = z;
  pass.label = label.empty() ? pipeline.label() : std::string(label);
  passes_.push_back(std::move(pass));
}

SubmitResult CommandRecorder::submit() {
  DeviceState& s = *state_;
  SubmitResult result;
  if (passes_.empty()) return result;
  const Procs& p = procs();
  const size_t n = passes_.size();
  // Bind groups made here, released once submitted (Dawn keeps what the commands need).
  std::vector<WGPUBindGroup> made;
  auto cleanup = [&] {
    for (WGPUBindGroup g : made) p.BindGroupRelease(g);
    made.clear();
    passes_.clear();
    entries_.clear();
  };
  try {
    s.checkAlive();
    s.flushPending();
    if (options_.timestamps) ensureQueryCapacity(s, static_cast<uint32_t>(2 * n));
    made.reserve(n);
    ErrorScope scope(s);
    WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(s.device, nullptr);
    for (size_t i = 0; i < n; ++i) {
      Pass& pass = passes_[i];
      if (pass.x == 0 || pass.y == 0 || pass.z == 0) continue;  // nothing to run
      WGPUBindGroup group = pass.group;
      if (!group) {
        group = makeBindGroup(
            s, pass.pipeline.layout(),
            std::span<const BindingEntry>(entries_.data() + pass.firstEntry, pass.entryCount), pass.label);
        made.push_back(group);
      }
      WGPUPassTimestampWrites tw = WGPU_PASS_TIMESTAMP_WRITES_INIT;
      WGPUComputePassDescriptor pd = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
      pd.label = toView(pass.label);
      if (options_.timestamps) {
        tw.querySet = s.querySet;
        tw.beginningOfPassWriteIndex = static_cast<uint32_t>(2 * i);
        tw.endOfPassWriteIndex = static_cast<uint32_t>(2 * i + 1);
        pd.timestampWrites = &tw;
      }
      WGPUComputePassEncoder cp = p.CommandEncoderBeginComputePass(enc, &pd);
      p.ComputePassEncoderSetPipeline(cp, pass.pipeline.handle());
      p.ComputePassEncoderSetBindGroup(cp, 0, group, 0, nullptr);
      p.ComputePassEncoderDispatchWorkgroups(cp, pass.x, pass.y, pass.z);
      p.ComputePassEncoderEnd(cp);
      p.ComputePassEncoderRelease(cp);
    }
    if (options_.timestamps) {
      p.CommandEncoderResolveQuerySet(enc, s.querySet, 0, static_cast<uint32_t>(2 * n), s.queryResolve, 0);
      p.CommandEncoderCopyBufferToBuffer(enc, s.queryResolve, 0, s.queryStaging, 0, 16ull * n);
    }
    WGPUCommandBuffer cb = p.CommandEncoderFinish(enc, nullptr);
    p.QueueSubmit(s.queue, 1, &cb);
    p.CommandBufferRelease(cb);
    p.CommandEncoderRelease(enc);
    scope.check();
    if (options_.wait || options_.timestamps) s.waitQueueIdle();
    if (options_.timestamps) {
      std::vector<uint64_t> stamps(2 * n);
      s.mapAndCopy(s.queryStaging, 16ull * n, 0, stamps.data(), 16ull * n);
      std::vector<uint8_t> ran(n);
      for (size_t i = 0; i < n; ++i) ran[i] = passes_[i].x && passes_[i].y && passes_[i].z;
      result.passNs = passDurations(stamps, ran);
    }
    s.raiseUncaptured();
  } catch (Error& e) {
    std::string names;
    for (size_t i = 0; i < n && i < 6; ++i) names += (i ? ", " : "") + passes_[i].label;
    if (n > 6) names += ", ...";
    e.with("while submitting " + std::to_string(n) + " dispatch(es): " + names);
    cleanup();
    throw;
  }
  cleanup();
  return result;
}

}  // namespace wgk::gpu

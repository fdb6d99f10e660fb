// Records compute dispatches into ONE command buffer and submits them at once (per-submit cost is
// what dominates small kernels, so batching matters). Each dispatch is its own compute pass, in
// order, so a pass sees every earlier pass's writes. With timestamps, each pass's GPU time is
// measured (timestamp writes at the beginning and end of the pass) and returned in nanoseconds.
//
//   CommandRecorder rec = device.recorder({.timestamps = true});
//   rec.dispatch(pipeA, {{a.handle()}, {b.handle()}}, 64);
//   rec.dispatch(pipeB, {{b.handle()}, {c.handle()}}, 64);      // reads pass 1's output
//   SubmitResult r = rec.submit();                              // blocks until the GPU is done
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/pipeline.h"

namespace wgk::gpu {

struct DeviceState;

struct RecorderOptions {
  bool timestamps = false;  // needs the device feature timestamp-query (Error(Unsupported) without)
  // Block in submit() until the GPU has finished. Without it (and without timestamps) submit()
  // returns once the work is queued: later submissions, writes and readbacks on the queue still
  // see its results (the queue runs in order). Validation errors are still reported.
  bool wait = true;
};

struct SubmitResult {
  // One entry per dispatch, in order: GPU nanoseconds from the beginning to the end of its pass,
  // counted from the end of the pass before it where its beginning was stamped earlier
  // (gpu/pass_time.h); 0 for a dispatch skipped because a workgroup count was 0. Empty without
  // timestamps.
  std::vector<uint64_t> passNs;
  uint64_t totalNs() const {
    uint64_t t = 0;
    for (uint64_t n : passNs) t += n;
    return t;
  }
};

class CommandRecorder {
 public:
  // Bind group 0 built from `entries` (entry i -> binding i) at submit time; x, y, z workgroups.
  // A zero count skips the dispatch. Counts above maxComputeWorkgroupsPerDimension and a wrong
  // number of entries throw Error(InvalidArgument) here, naming the dispatch by `label`.
  void dispatch(const ComputePipeline& pipeline, std::span<const BindingEntry> entries, uint32_t x,
                uint32_t y = 1, uint32_t z = 1, std::string_view label = {});
  void dispatch(const ComputePipeline& pipeline, std::initializer_list<BindingEntry> entries, uint32_t x,
                uint32_t y = 1, uint32_t z = 1, std::string_view label = {}) {
    dispatch(pipeline, std::span<const BindingEntry>(entries.begin(), entries.size()), x, y, z, label);
  }
  // With a bind group made by Device::createBindGroup (kept alive by the caller until submit()).
  void dispatch(const ComputePipeline& pipeline, const class BindGroup& group, uint32_t x, uint32_t y = 1,
                uint32_t z = 1, std::string_view label = {});

  size_t dispatchCount() const { return passes_.size(); }
  // Encodes every dispatch into one command buffer, submits it and waits for completion.
  // Validation errors anywhere in the batch -> Error(Gpu); device loss -> Error(DeviceLost).
  // The recorder is empty afterwards and can be reused.
  SubmitResult submit();

 private:
  friend class Device;
  struct Pass {
    ComputePipeline pipeline;
    WGPUBindGroup group = nullptr;  // caller's bind group, or null: build from entries
    uint32_t firstEntry = 0, entryCount = 0;
    uint32_t x = 0, y = 0, z = 0;
    std::string label;
  };
  CommandRecorder(std::shared_ptr<DeviceState> s, RecorderOptions o) : state_(std::move(s)), options_(o) {}
  void checkCounts(const ComputePipeline& pipeline, size_t entries, uint32_t x, uint32_t y, uint32_t z,
                   std::string_view label) const;
  std::shared_ptr<DeviceState> state_;
  RecorderOptions options_;
  std::vector<Pass> passes_;
  std::vector<BindingEntry> entries_;
};

}  // namespace wgk::gpu

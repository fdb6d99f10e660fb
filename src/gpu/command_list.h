// A list of GPU commands (dispatches with prebuilt bind groups, buffer clears and copies, submit
// boundaries) that can be encoded and submitted any number of times. WebGPU command buffers are
// single-use, so "replaying" recorded work means re-encoding it: this keeps everything the
// encoding needs resolved (raw handles, kept alive by the list), so submit() does no look-up and
// no allocation in wgk: a walk over the list issuing WebGPU calls.
//
//   CommandList cl;
//   cl.clear(scratch.handle(), 0, scratch.size());       // outside any compute pass
//   cl.dispatch(pipeA, groupA, 64);                        // consecutive dispatches share one
//   cl.dispatch(pipeB, groupB, 64);                        //   compute pass (WebGPU orders them)
//   cl.boundary();                                         // a separate queue submission after this
//   cl.submit(device);                                     // does not wait
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gpu/pipeline.h"

#include "wgk/webgpu_handles.h"

namespace wgk::gpu {

class Device;

class CommandList {
 public:
  // Bind group 0 = `group` (kept alive by the list). Zero workgroups in any dimension: skipped.
  void dispatch(const ComputePipeline& pipeline, std::shared_ptr<const BindGroup> group, uint32_t x,
                uint32_t y = 1, uint32_t z = 1);
  // Zeroes [offset, offset + size) (multiples of 4; the buffer needs CopyDst). The caller keeps
  // the buffer alive while the list may be submitted.
  void clear(WGPUBuffer buffer, uint64_t offset, uint64_t size);
  // Copies size bytes (multiple of 4) between buffers (CopySrc / CopyDst); caller keeps them alive.
  void copy(WGPUBuffer src, uint64_t srcOffset, WGPUBuffer dst, uint64_t dstOffset, uint64_t size);
  // The commands so far are submitted on their own (one queue submission); later ones follow.
  void boundary();

  // A position to roll back to (drop every command recorded after it).
  struct Mark {
    size_t commands = 0, keep = 0, dispatches = 0;
  };
  Mark mark() const { return {cmds_.size(), groups_.size(), dispatches_}; }
  void rollback(Mark m);
  void reset() { rollback({}); }

  bool empty() const { return cmds_.empty(); }
  size_t size() const { return cmds_.size(); }  // commands recorded (a dispatch's position: rebind)
  // Replaces the bind group of the dispatch recorded at position `command`, the `dispatch`-th
  // dispatch of the list (Graph::replay rebinding an input).
  void rebind(size_t command, size_t dispatch, std::shared_ptr<const BindGroup> group);
  const std::shared_ptr<const BindGroup>& groupOf(size_t dispatch) const {
    return groups_.at(dispatch).second;
  }
  size_t dispatchCount() const { return dispatches_; }
  // Pre-sizes the internal vectors (lets a caller keep recording allocation-free).
  void reserve(size_t commands);

  // Encodes every command and submits (one QueueSubmit per segment between boundaries); does not
  // wait. The caller serialises device use (the runtime's GPU lock). Validation errors ->
  // Error(Gpu), caught by an error scope when `checked`, else through the device's uncaptured-
  // error callback (synchronous in Dawn; only a device wgk created has one, so wrapped devices
  // always check). The list is unchanged and can be submitted again.
  void submit(Device& device, bool checked) const;
  // The same with GPU timestamps: each dispatch in its own compute pass, then waits and returns
  // each dispatch's GPU nanoseconds (0 for a skipped one), never counting the time before the
  // previous dispatch ended (gpu/pass_time.h). Needs the timestamp-query feature.
  std::vector<uint64_t> submitTimed(Device& device) const;
  // A copy encoded ahead of the list's own commands (Graph::replay's new inputs).
  struct Copy {
    WGPUBuffer src = nullptr, dst = nullptr;
    uint64_t srcOffset = 0, dstOffset = 0, size = 0;
  };
  void submit(Device& device, bool checked, std::span<const Copy> before) const;

 private:
  enum class Kind : uint8_t { Dispatch, Clear, Copy, Boundary };
  struct Cmd {
    Kind kind = Kind::Dispatch;
    uint32_t x = 0, y = 0, z = 0;
    WGPUComputePipeline pipeline = nullptr;
    WGPUBindGroup group = nullptr;
    WGPUBuffer src = nullptr, dst = nullptr;
    uint64_t srcOffset = 0, dstOffset = 0, size = 0;
  };
  // stamps: null untimed; else two timestamps per dispatch, read back a query set at a time.
  void encodeSegments(struct DeviceState& s, std::span<const Copy> before, uint64_t* stamps) const;
  std::vector<Cmd> cmds_;
  // What the raw handles need alive: one entry per dispatch (pipelines are shared by many).
  std::vector<std::pair<ComputePipeline, std::shared_ptr<const BindGroup>>> groups_;
  size_t dispatches_ = 0;
};

}  // namespace wgk::gpu

// wgk/batch.h — many kernel calls, one submission (Batch), and recorded work replayed with new
// data (Graph): a chain of small kernels then costs GPU time, not host time.
//
//   auto rt = wgk::Runtime::create();
//   wgk::Kernel gelu = rt->load("webgpu-kernels/com.microsoft.FastGelu");
//   wgk::Kernel rms = rt->load("webgpu-kernels/ai.onnx.RMSNormalization");
//   wgk::DeviceTensor xd = rt->upload(x), bd = rt->upload(bias), sd = rt->upload(scale);
//
//   // Batch: calls are recorded in order into one command buffer and submitted together.
//   wgk::Batch b = rt->batch();
//   auto r1 = b.call(gelu, {{"X", xd}, {"bias", bd}});                 // outputs exist now ...
//   auto r2 = b.call(rms, {{"x", r1.at("Y")}, {"scale", sd}},           // ... and feed later calls
//                    {.attrs = {{"epsilon", 1e-6}}});
//   b.submit();                                    // one queue submit; does not wait
//   wgk::HostTensor y = rt->download(r2.at("y"));  // a readback waits for the queue
//
//   // Graph: the same calls captured once (plans, pipelines, bind groups, uniforms, buffers),
//   // then replayed; each replay only re-encodes the cached commands and submits.
//   wgk::DeviceTensor out;
//   wgk::Graph g = rt->capture([&](wgk::Batch& c) {
//     auto h = c.call(gelu, {{"X", xd}, {"bias", bd}});
//     out = c.call(rms, {{"x", h.at("Y")}, {"scale", sd}}, {.attrs = {{"epsilon", 1e-6}}}).at("y");
//   });
//   g.replay();                       // runs with the captured inputs' current contents
//   g.replay({{"X", newX}});          // input "X" reads newX (a device tensor, same dtype and
//                                     // shape: bound, not copied; a host tensor: copied)
//   wgk::HostTensor y2 = rt->download(out);  // `out` holds the latest replay's result
//
// Batch rules:
// - Batch::call takes what Kernel::call takes (host or GPU inputs, CallOptions attrs, args,
//   variant, caller-given outputs) and returns the outputs as DeviceTensors at once: their
//   contents are defined after submit() (in queue order: later submissions and downloads see
//   them). Placement Host and timestamps are refused (a batch never reads back).
// - Host inputs are uploaded at record time into a staging buffer the batch holds until submit.
// - GPU inputs are read when the batch runs, not when it is recorded; DeviceTensors passed in are
//   kept alive by the batch until it is submitted or dropped. Caller-owned GpuTensor buffers must
//   stay alive until the work has run.
// - A call that fails throws a wgk::Error whose context names it ("while recording call 2
//   (ai.onnx.RMSNormalization) of the batch", counted from 0) and records nothing: the batch keeps
//   the calls before it. A batch dropped without submit() discards its work; its buffers go back
//   to the runtime's pool (leaking nothing). A failed submit() discards the whole batch.
// - submit() does not wait (Runtime::waitIdle or a download does). A batch is submitted once;
//   after that it is empty and may record again.
// - Memory: an output the batch allocated whose last handle the caller drops (every DeviceTensor
//   copy gone) goes back to the batch's own pool at once, and a later call of the same batch may
//   write its next output there. Safe without waiting: every call that read it is recorded
//   earlier in the same command buffer, and WebGPU runs a command buffer's dispatches in order
//   (each dispatch is its own usage scope; a write after a read of one buffer is ordered after it).
//   So a chain written the plain way keeps a constant number of buffers, however long:
//
//     wgk::DeviceTensor h = xd;
//     wgk::Batch b = rt->batch();
//     for (int i = 0; i < 1000; ++i) h = b.call(gelu, {{"X", h}}).at("Y");  // 2 buffers in all
//     b.submit();
//     b.stats().outputsAllocated;  // 2: the rest reused the dropped ones
//
//   Keep the DeviceTensor while any later call reads a view of it (view(), a reshaped GpuTensor):
//   a GpuTensor view does not keep its buffer. At submit the batch's pool returns to the
//   runtime's; outputs still held go back to their batch when dropped (or to the runtime's pool
//   once the batch is gone). Tensors a batch did not allocate itself are kept until it is
//   submitted or dropped, as before.
//
// Graph (Runtime::capture) rules:
// - The capture function records calls into the Batch it is given; nothing runs at capture.
// - Graph inputs are the tensors the captured calls read that no captured call wrote. Each is
//   named by its arg name in the first call that reads it ("X"), or "<call>.<arg>" ("2.x", calls
//   counted from 0) when an earlier input already took that name; Graph::inputs() lists them.
// - replay(inputs) writes each given host tensor into the buffer the graph captured for that
//   input, and binds each given device tensor in place of the captured one (no copy): the bind
//   groups of the dispatches that read that input are rebuilt, only where the buffer changed (the
//   graph keeps the last two per dispatch, so alternating tensors build nothing after the first
//   time). A bound tensor stays bound for later replays until another replay rebinds the input;
//   the graph keeps it alive meanwhile (a caller's GpuTensor buffer must stay alive itself). A
//   device tensor is copied instead when binding it could change the result: the input is one
//   the graph also writes (an in/out port), the tensor overlaps a buffer the graph writes (e.g.
//   one of its outputs), its offset is not storage-aligned, or the captured buffer is read
//   through other views. Captured GPU inputs, outputs returned at capture (overwritten by each
//   replay) and intermediates are the same buffers on every replay. Outputs the capture function
//   dropped are reused inside the graph as in a batch (Graph::stats).
// - What may change between replays: input contents only. Dtypes and shapes are fixed (a
//   replay tensor must match the captured input exactly); attributes, scalar args, variants and
//   outputs are fixed at capture. A wrong name, dtype or shape is refused with
//   Error(InvalidArgument) before anything is submitted.
// - replay() does not wait. Replays on one queue run in order; a replay does no planning, no
//   hashing and allocates nothing in wgk.
//
// Threads: a Batch (and a Graph) is used by one thread at a time; the Runtime stays thread-safe,
// so several threads may each record and submit their own batches, or call kernels, at once.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "wgk/export.h"
#include "wgk/runtime.h"

namespace wgk {

class BatchImpl;
class GraphImpl;

// What a batch (or the capture of a graph) did with memory, counted over its life.
struct BatchStats {
  uint64_t calls = 0;             // calls recorded
  uint64_t submits = 0;           // Batch::submit() calls that submitted work
  uint64_t outputsAllocated = 0;  // output buffers taken from the runtime's pool
  uint64_t outputsReused = 0;     // outputs written into a buffer a dropped output had freed
  uint64_t stagingBuffers = 0;    // host-input uploads (held until submit)
  uint64_t heldBuffers = 0;       // now: buffers in the batch's own pool (freed, reusable)
};

class WGK_API Batch {
 public:
  Batch();  // empty: call() and submit() throw; get one from Runtime::batch()
  Batch(Batch&&) noexcept;
  Batch& operator=(Batch&&) noexcept;
  ~Batch();  // discards unsubmitted work

  // Records one kernel call; returns its outputs by arg name (an in/out port given as a host
  // tensor is returned too, like Kernel::call). Outputs named in options.outputs are written into
  // the caller's buffers and not returned again.
  std::map<std::string, DeviceTensor> call(const Kernel& kernel,
                                           const std::map<std::string, TensorRef>& inputs,
                                           const CallOptions& options = {});
  // Encodes the recorded calls into one command buffer (more only where a pass asks for a submit
  // boundary) and submits them; does not wait. Validation errors -> Error(Gpu) naming the calls.
  void submit();

  size_t size() const;  // calls recorded since the last submit
  BatchStats stats() const;
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  friend class RuntimeImpl;
  friend class GraphImpl;
  explicit Batch(std::unique_ptr<BatchImpl> impl);
  std::unique_ptr<BatchImpl> impl_;
};

struct GraphInput {
  std::string name;  // the key replay() takes
  DType dtype = DType::Float32;
  Shape shape;
  GpuTensor captured;  // the buffer the capture read (a captured device tensor, or the graph's
                       // copy of a host input): what replay() writes or rebinds
};

class WGK_API Graph {
 public:
  Graph();  // empty: replay() throws; get one from Runtime::capture()
  Graph(Graph&&) noexcept;
  Graph& operator=(Graph&&) noexcept;
  ~Graph();

  // Copies the given inputs into the graph's input buffers and re-submits every captured call.
  void replay(const std::map<std::string, TensorRef>& inputs = {});

  const std::vector<GraphInput>& inputs() const;
  size_t calls() const;       // kernel calls captured
  size_t dispatches() const;  // compute dispatches per replay
  BatchStats stats() const;   // the capture's (outputsAllocated: the buffers its outputs use)
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  friend class RuntimeImpl;
  explicit Graph(std::unique_ptr<GraphImpl> impl);
  std::unique_ptr<GraphImpl> impl_;
};

}  // namespace wgk

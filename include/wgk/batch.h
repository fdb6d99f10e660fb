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
//   g.replay({{"X", newX}});          // new data for graph input "X" (same dtype and shape)
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
//
// Graph (Runtime::capture) rules:
// - The capture function records calls into the Batch it is given; nothing runs at capture.
// - Graph inputs are the tensors the captured calls read that no captured call wrote. Each is
//   named by its arg name in the first call that reads it ("X"), or "<call>.<arg>" ("2.x", calls
//   counted from 0) when an earlier input already took that name; Graph::inputs() lists them.
// - replay(inputs) copies each given tensor (host or GPU) into the buffer the graph captured for
//   that input, then runs every captured call. The graph reads and writes the same buffers on
//   every replay: captured GPU inputs (kept alive by the graph), outputs returned at capture
//   (overwritten by each replay) and intermediates.
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

#include "wgk/runtime.h"

namespace wgk {

class BatchImpl;
class GraphImpl;

class Batch {
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
};

class Graph {
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
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  friend class RuntimeImpl;
  explicit Graph(std::unique_ptr<GraphImpl> impl);
  std::unique_ptr<GraphImpl> impl_;
};

}  // namespace wgk

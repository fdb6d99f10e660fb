// Internals of wgk::Batch and wgk::Graph (include/wgk/batch.h). Private to src/runtime.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/command_list.h"
#include "runtime/runtime_impl.h"
#include "wgk/batch.h"

namespace wgk {

// A graph input: the buffer range the captured calls read, and how replay data gets there.
struct GraphInputSlot {
  GraphInput input;
  WGPUBuffer target = nullptr;  // the captured tensor's buffer, or the capture's staging buffer
  uint64_t offset = 0, bytes = 0;
  runtime::StorageLayout layout;
  bool fromHost = false;  // captured from a host tensor (the graph owns the buffer)
};

class GraphImpl;

class BatchImpl {
 public:
  BatchImpl(RuntimeImpl& runtime, bool capture);
  ~BatchImpl();
  std::map<std::string, DeviceTensor> call(const Kernel& kernel,
                                           const std::map<std::string, TensorRef>& inputs,
                                           const CallOptions& options);
  void submit();
  size_t size() const { return calls_.size(); }
  std::unique_ptr<GraphImpl> toGraph();  // capture: hands everything recorded to a graph

 private:
  void checkOptions(const KernelImpl& k, const CallOptions& options) const;
  void noteTensors(const PreparedPlan& pp, const std::map<std::string, TensorRef>& inputs,
                   const std::vector<Bound>& slots, size_t index);
  void discard();

  RuntimeImpl& rt_;
  bool capture_;
  gpu::CommandList commands_;
  std::vector<CallRecord> calls_;
  std::vector<std::string> names_;      // op id per call, for messages
  std::vector<Bound> slots_;            // scratch: one call's bound slots
  std::vector<Bound> produced_;         // ranges written by the calls so far
  std::vector<GraphInputSlot> inputs_;  // capture: the graph inputs found so far
};

class GraphImpl {
 public:
  explicit GraphImpl(RuntimeImpl& runtime) : rt(runtime) {}
  void replay(const std::map<std::string, TensorRef>& replayInputs);

  RuntimeImpl& rt;
  gpu::CommandList commands;
  std::vector<CallRecord> calls;
  std::vector<std::string> names;
  std::vector<GraphInputSlot> inputs;
  std::vector<GraphInput> publicInputs;
  std::vector<gpu::CommandList::Copy> before;  // scratch: a replay's input copies

 private:
  const GraphInputSlot& find(const std::string& name) const;
  void check(const std::map<std::string, TensorRef>& replayInputs) const;
};

}  // namespace wgk

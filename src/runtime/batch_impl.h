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
  // Rebinding (GraphImpl::replay): the range the capture bound, the range bound now, and every
  // (dispatch, binding) that binds it. Rebindable when the graph never writes the range and every
  // dispatch binds exactly that range (no other view of it).
  Bound captured, current;
  bool rebindable = false;
  std::vector<std::pair<size_t, size_t>> uses;
  std::shared_ptr<DeviceTensorImpl> holder;  // a rebound DeviceTensor, kept while bound
};

class GraphImpl;

// "a, b, c, ..." (at most six): the calls a message names.
std::string callList(const std::vector<std::string>& names);

class BatchImpl {
 public:
  BatchImpl(RuntimeImpl& runtime, bool capture);
  ~BatchImpl();
  std::map<std::string, DeviceTensor> call(const Kernel& kernel,
                                           const std::map<std::string, TensorRef>& inputs,
                                           const CallOptions& options);
  void submit();
  size_t size() const { return calls_.size(); }
  BatchStats stats() const;
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
  std::vector<std::string> names_;            // op id per call, for messages
  std::vector<Bound> slots_;                  // scratch: one call's bound slots
  std::vector<Bound> produced_;               // capture: ranges written by the calls so far (distinct)
  std::vector<GraphInputSlot> inputs_;        // capture: the graph inputs found so far
  std::vector<RecordedDispatch> dispatches_;  // capture: every dispatch, for rebinding
  // Outputs this batch made that the caller dropped: reused by its later calls (batch.h, memory).
  std::shared_ptr<runtime::BufferPool> local_ = std::make_shared<runtime::BufferPool>();
  BatchStats stats_;
  uint64_t generation_;  // the device's (a replaced device's buffers never reach the new pool)
};

class GraphImpl {
 public:
  explicit GraphImpl(RuntimeImpl& runtime) : rt(runtime) {}
  ~GraphImpl();
  void replay(const std::map<std::string, TensorRef>& replayInputs);
  // After capture: which inputs may be rebound and where (GraphInputSlot).
  void findUses();

  RuntimeImpl& rt;
  gpu::CommandList commands;
  std::vector<CallRecord> calls;
  std::vector<std::string> names;
  std::vector<GraphInputSlot> inputs;
  std::vector<GraphInput> publicInputs;
  std::vector<RecordedDispatch> dispatches;
  std::vector<Bound> produced;                 // every range the graph writes
  std::shared_ptr<runtime::BufferPool> local;  // the capture's pool: its buffers stay the graph's
  uint64_t generation = 0;
  BatchStats stats;
  std::vector<gpu::CommandList::Copy> before;  // scratch: a replay's input copies

 private:
  struct Alternate {  // per dispatch: the bind group it had before its last rebinding
    std::vector<Bound> bound;
    std::shared_ptr<const gpu::BindGroup> group;
  };
  GraphInputSlot& find(const std::string& name);
  void check(const std::map<std::string, TensorRef>& replayInputs);
  bool canBind(const GraphInputSlot& s, const GpuTensor& g, const Bound& b) const;
  void rebind(const std::vector<std::pair<GraphInputSlot*, Bound>>& changes,
              std::vector<std::shared_ptr<DeviceTensorImpl>>& holders);
  std::vector<Alternate> previous_;
};

}  // namespace wgk

// Batch (many calls, one submission) and Graph (recorded calls replayed with new input data):
// include/wgk/batch.h. Both record through KernelImpl::resolve / record (kernel_call.cpp) into a
// gpu::CommandList; a Graph keeps that list, with everything it references, and re-submits it.
#include "runtime/batch_impl.h"

#include <algorithm>
#include <utility>

#include "wgk/error.h"

namespace wgk {
namespace {
const std::map<std::string, expr::Value> kNoTunables;

bool overlaps(WGPUBuffer b, uint64_t offset, uint64_t size, const Bound& r) {
  return b == r.buffer && offset < r.offset + r.size && r.offset < offset + size;
}
}  // namespace

std::string callList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < 6; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > 6) out += ", ...";
  return out;
}

// ---- Batch ------------------------------------------------------------------------------------

BatchImpl::BatchImpl(RuntimeImpl& runtime, bool capture)
    : rt_(runtime), capture_(capture), generation_(runtime.deviceGeneration()) {}

BatchImpl::~BatchImpl() {
  discard();
}

BatchStats BatchImpl::stats() const {
  BatchStats s = stats_;
  s.heldBuffers = local_->idleBuffers();
  return s;
}

void BatchImpl::checkOptions(const KernelImpl& k, const CallOptions& options) const {
  if (&k.runtime() != &rt_)
    throw Error(ErrorCode::InvalidArgument, "the kernel was loaded by another wgk::Runtime than the batch's");
  if (options.placement == OutputPlacement::Host)
    throw Error(ErrorCode::InvalidArgument,
                "a batch leaves outputs on the device: OutputPlacement::Host is not available "
                "(download the outputs after submit)");
  if (options.timestamps)
    throw Error(ErrorCode::InvalidArgument,
                "timestamps are not available in a batch (time a single call with timestamps, or the "
                "batch on the host)");
}

// Graph inputs: what a call reads that no earlier call of the capture wrote; then what it writes.
void BatchImpl::noteTensors(const PreparedPlan& pp, const std::map<std::string, TensorRef>& inputs,
                            const std::vector<Bound>& slots, size_t index) {
  for (size_t i = 0; i < pp.slots.size(); ++i) {
    const PlanSlot& s = pp.slots[i];
    if (s.kind != PlanSlot::Kind::Input && s.kind != PlanSlot::Kind::InOut) continue;
    const Bound& b = slots[i];
    const bool written = std::any_of(produced_.begin(), produced_.end(),
                                     [&](const Bound& r) { return overlaps(b.buffer, b.offset, b.size, r); });
    const bool known = std::any_of(inputs_.begin(), inputs_.end(), [&](const GraphInputSlot& g) {
      return g.target == b.buffer && g.offset == b.offset;
    });
    if (written || known) continue;
    const bool taken = std::any_of(inputs_.begin(), inputs_.end(),
                                   [&](const GraphInputSlot& g) { return g.input.name == s.name; });
    GraphInputSlot g;
    g.input = {taken ? std::to_string(index) + "." + s.name : s.name, s.dtype, s.shape};
    g.target = b.buffer;
    g.offset = b.offset;
    g.bytes = s.bytes;
    g.layout = s.layout;
    g.fromHost = inputs.at(s.name).onHost();
    g.input.captured = GpuTensor{b.buffer, s.dtype, s.shape, b.offset};
    g.captured = g.current = b;
    inputs_.push_back(std::move(g));
  }
  for (size_t i = 0; i < pp.slots.size(); ++i)
    if (pp.slots[i].kind == PlanSlot::Kind::Output || pp.slots[i].kind == PlanSlot::Kind::InOut)
      if (std::find(produced_.begin(), produced_.end(), slots[i]) == produced_.end())
        produced_.push_back(slots[i]);  // reused buffers come back: kept distinct, the list short
}

std::map<std::string, DeviceTensor> BatchImpl::call(const Kernel& kernel,
                                                    const std::map<std::string, TensorRef>& inputs,
                                                    const CallOptions& options) {
  if (!kernel) throw Error(ErrorCode::InvalidArgument, "calling an empty wgk::Kernel in a batch");
  KernelImpl& k = *kernel.impl_;
  const size_t index = calls_.size();
  try {
    checkOptions(k, options);
    ResolvedCall rc = k.resolve(inputs, options, kNoTunables);
    rc.toHost = false;  // Auto with host inputs still leaves outputs on the device
    CallRecord rec;
    rec.prepared = rc.prepared;
    rec.pool = rt_.poolPtr();
    rec.local = local_;
    rec.stats = &stats_;
    if (capture_) rec.dispatches = &dispatches_;
    CallResult result;
    {
      std::lock_guard lock(rt_.gpuMutex());
      const gpu::CommandList::Mark mark = commands_.mark();
      const size_t dispatches = dispatches_.size();
      const BatchStats before = stats_;
      try {
        k.record(rc, inputs, options, RecordMode::Batch, commands_, &rec, result, slots_);
      } catch (...) {
        // rec and result give their buffers back on the way out (outputs: to this batch's pool)
        commands_.rollback(mark);
        dispatches_.resize(dispatches);
        stats_ = before;
        throw;
      }
    }
    if (capture_) noteTensors(*rc.prepared, inputs, slots_, index);
    calls_.push_back(std::move(rec));
    names_.push_back(k.source().opId);
    ++stats_.calls;
    return std::move(result.device);
  } catch (Error& e) {
    e.with("while recording call " + std::to_string(index) + " (" + k.source().opId + ") of the " +
           (capture_ ? "graph capture" : "batch"));
    throw;
  }
}

// Submitted or never to run: what the batch holds may go to anyone's later work (queue order).
void BatchImpl::discard() {
  commands_.reset();
  calls_.clear();  // staging buffers and kept tensors go back to the pool
  names_.clear();
  produced_.clear();
  inputs_.clear();
  dispatches_.clear();
  if (rt_.deviceGeneration() == generation_)
    local_->drainInto(rt_.pool());
  else
    local_->clear();
}

void BatchImpl::submit() {
  if (capture_)
    throw Error(ErrorCode::InvalidArgument,
                "the batch of a graph capture is not submitted: Runtime::capture returns a Graph to replay");
  if (calls_.empty()) return;
  std::lock_guard lock(rt_.gpuMutex());
  rt_.flushLocked();  // deferred calls go first; their error is theirs, and the batch stays intact
  try {
    commands_.submit(rt_.device(), /*checked=*/false);
  } catch (Error& e) {
    e.with("while submitting a batch of " + std::to_string(calls_.size()) + " call(s): " + callList(names_));
    discard();
    throw;
  }
  ++stats_.submits;
  discard();
  rt_.trimPool();
}

std::unique_ptr<GraphImpl> BatchImpl::toGraph() {
  auto g = std::make_unique<GraphImpl>(rt_);
  g->commands = std::move(commands_);
  g->calls = std::move(calls_);
  g->names = std::move(names_);
  for (GraphInputSlot& s : inputs_) g->publicInputs.push_back(s.input);
  g->inputs = std::move(inputs_);
  g->dispatches = std::move(dispatches_);
  g->produced = std::move(produced_);
  g->local = std::exchange(local_, std::make_shared<runtime::BufferPool>());
  g->stats = stats_;
  g->generation = generation_;
  g->findUses();
  discard();
  return g;
}

// ---- RuntimeImpl and the public facades -------------------------------------------------------

Batch RuntimeImpl::batch() {
  return Batch(std::make_unique<BatchImpl>(*this, false));
}

Graph RuntimeImpl::capture(const std::function<void(Batch&)>& record) {
  if (!record) throw Error(ErrorCode::InvalidArgument, "Runtime::capture: the record function is empty");
  Batch b(std::make_unique<BatchImpl>(*this, true));
  withContext("while capturing a graph", [&] { record(b); });
  if (!b.impl_)
    throw Error(ErrorCode::InvalidArgument, "capturing a graph: the capture's Batch was moved away");
  return Graph(b.impl_->toGraph());
}

Batch::Batch() = default;
Batch::Batch(std::unique_ptr<BatchImpl> impl) : impl_(std::move(impl)) {}
Batch::Batch(Batch&&) noexcept = default;
Batch& Batch::operator=(Batch&&) noexcept = default;
Batch::~Batch() = default;

std::map<std::string, DeviceTensor> Batch::call(const Kernel& kernel,
                                                const std::map<std::string, TensorRef>& inputs,
                                                const CallOptions& options) {
  if (!impl_)
    throw Error(ErrorCode::InvalidArgument, "recording into an empty wgk::Batch (use Runtime::batch())");
  return impl_->call(kernel, inputs, options);
}

void Batch::submit() {
  if (!impl_)
    throw Error(ErrorCode::InvalidArgument, "submitting an empty wgk::Batch (use Runtime::batch())");
  impl_->submit();
}

size_t Batch::size() const {
  return impl_ ? impl_->size() : 0;
}

BatchStats Batch::stats() const {
  return impl_ ? impl_->stats() : BatchStats{};
}

Batch Runtime::batch() {
  return impl_->batch();
}

Graph Runtime::capture(const std::function<void(Batch&)>& record) {
  return impl_->capture(record);
}

}  // namespace wgk

// Graph (recorded calls replayed with new input data, include/wgk/batch.h): replay re-encodes the
// captured command list. New host data is written into the input's buffer; a new device tensor is
// bound in place of the captured one where that cannot change the result (GraphInputSlot), by
// rebuilding the bind groups of the dispatches that read it (the last two kept per dispatch).
#include <algorithm>

#include "core/shape_text.h"
#include "runtime/batch_impl.h"
#include "wgk/error.h"

namespace wgk {
namespace {

std::string describe(DType dtype, const Shape& shape) {
  return std::string(dtypeName(dtype)) + " " + shapeText(shape);
}

// A device tensor holds what such an input's buffer holds (plain storage: int8 widened to words as
// a port without `layout`/`storage` keeps it), so it may be copied or bound (as Kernel::call takes
// it); packed or narrowed ports need the host tensor.
bool plainOnDevice(const runtime::StorageLayout& l) {
  return l.identity() || (!l.packed && l.storage == l.logical);
}

bool overlaps(const Bound& a, const Bound& b) {
  return a.buffer == b.buffer && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

// A tensor bound whole, never past the end of its buffer (as kernel_call.cpp binds inputs).
Bound boundOf(const GpuTensor& g, uint64_t bytes) {
  const uint64_t size = std::max<uint64_t>(16, (bytes + 3) & ~uint64_t{3});
  return {g.buffer, g.offset, std::min(size, gpu::bufferSize(g.buffer) - g.offset)};
}

}  // namespace

GraphImpl::~GraphImpl() {
  // Queue order makes the graph's buffers safe for any later work, as at a batch's submit.
  if (local && rt.deviceGeneration() == generation) local->drainInto(rt.pool());
}

// An input may be rebound when no captured call writes its range and every binding of its buffer
// is exactly that range (a view at another offset or size would keep reading the old buffer).
void GraphImpl::findUses() {
  previous_.assign(dispatches.size(), {});
  for (GraphInputSlot& s : inputs) {
    s.rebindable = plainOnDevice(s.layout) && s.captured.buffer &&
                   std::none_of(produced.begin(), produced.end(),
                                [&](const Bound& p) { return overlaps(p, s.captured); });
    for (size_t d = 0; d < dispatches.size() && s.rebindable; ++d) {
      const std::vector<Bound>& bound = dispatches[d].bound;
      for (size_t e = 0; e < bound.size(); ++e) {
        if (bound[e] == s.captured)
          s.uses.emplace_back(d, e);
        else if (overlaps(bound[e], s.captured))
          s.rebindable = false;
      }
    }
    if (!s.rebindable) s.uses.clear();
  }
}

GraphInputSlot& GraphImpl::find(const std::string& name) {
  for (GraphInputSlot& s : inputs)
    if (s.input.name == name) return s;
  std::string known;
  for (const GraphInputSlot& s : inputs) known += (known.empty() ? "" : ", ") + s.input.name;
  throw Error(ErrorCode::InvalidArgument,
              "the graph has no input '" + name + "' (its inputs: " + (known.empty() ? "none" : known) + ")");
}

// Every check before anything is written: a refused replay changes nothing.
void GraphImpl::check(const std::map<std::string, TensorRef>& replayInputs) {
  for (const auto& [name, ref] : replayInputs) {
    const GraphInputSlot& s = find(name);
    if (ref.dtype() != s.input.dtype || ref.shape() != s.input.shape)
      throw Error(ErrorCode::InvalidArgument,
                  "replay input '" + name + "' is " + describe(ref.dtype(), ref.shape()) +
                      "; the graph was captured with " + describe(s.input.dtype, s.input.shape) +
                      ": dtypes and shapes are fixed at capture (capture another graph for new ones)");
    if (ref.onHost()) continue;
    rt.checkGpuTensor(name, ref.gpu(), /*forBinding=*/false);
    if (!plainOnDevice(s.layout))
      throw Error(ErrorCode::InvalidArgument,
                  "replay input '" + name + "' is stored converted on the device: pass a host tensor");
  }
}

// Binding `g` reads the same bytes a copy into the captured buffer would have put there, unless
// the graph writes them during the replay (then the copy's snapshot and the live tensor differ).
bool GraphImpl::canBind(const GraphInputSlot& s, const GpuTensor& g, const Bound& b) const {
  if (!s.rebindable) return false;
  const uint64_t align = rt.storageOffsetAlignment();
  if (align && g.offset % align) return false;
  return std::none_of(produced.begin(), produced.end(), [&](const Bound& p) { return overlaps(p, b); });
}

// Applies new ranges for some inputs: builds every bind group first (a failure changes nothing),
// then swaps them into the command list.
void GraphImpl::rebind(const std::vector<std::pair<GraphInputSlot*, Bound>>& changes,
                       std::vector<std::shared_ptr<DeviceTensorImpl>>& holders) {
  std::map<size_t, std::vector<Bound>> next;  // dispatch -> its new ranges
  for (const auto& [slot, b] : changes)
    for (const auto& [d, e] : slot->uses) {
      auto it = next.try_emplace(d, dispatches[d].bound).first;
      it->second[e] = b;
    }
  std::vector<std::shared_ptr<const gpu::BindGroup>> groups;
  for (const auto& [d, bound] : next) {
    if (previous_[d].group && previous_[d].bound == bound) {
      groups.push_back(previous_[d].group);  // back to the one before: nothing to build
      ++rt.bindGroupHits;
      continue;
    }
    ++rt.bindGroupMisses;  // CacheStats counts the groups a rebinding built
    std::vector<gpu::BindingEntry> entries;
    for (const Bound& b : bound) entries.push_back({b.buffer, b.offset, b.size});
    const RecordedDispatch& rd = dispatches[d];
    groups.push_back(std::make_shared<const gpu::BindGroup>(
        rt.device().createBindGroup(rd.pipeline, entries, rd.label ? *rd.label : std::string())));
  }
  size_t i = 0;
  for (auto& [d, bound] : next) {
    RecordedDispatch& rd = dispatches[d];
    previous_[d] = {rd.bound, commands.groupOf(rd.dispatch)};
    rd.bound = std::move(bound);
    commands.rebind(rd.command, rd.dispatch, std::move(groups[i++]));
  }
  for (size_t k = 0; k < changes.size(); ++k) {
    changes[k].first->current = changes[k].second;
    changes[k].first->holder = std::move(holders[k]);
  }
}

void GraphImpl::replay(const std::map<std::string, TensorRef>& replayInputs) {
  try {
    check(replayInputs);
    std::lock_guard lock(rt.gpuMutex());
    gpu::Device& dev = rt.device();
    before.clear();
    std::vector<std::pair<GraphInputSlot*, Bound>> changes;
    std::vector<std::shared_ptr<DeviceTensorImpl>> holders;
    for (const auto& [name, ref] : replayInputs) {
      GraphInputSlot& s = find(name);
      if (!ref.onHost()) {
        const GpuTensor& g = ref.gpu();
        const Bound b = boundOf(g, s.bytes);
        if (canBind(s, g, b)) {
          if (b != s.current) {
            changes.emplace_back(&s, b);
            holders.push_back(ref.owner());
          } else if (b != s.captured) {
            s.holder = ref.owner();
          }
          continue;
        }
      }
      if (s.current != s.captured) {  // a copy or a host write goes to the captured buffer
        changes.emplace_back(&s, s.captured);
        holders.emplace_back();
      }
      if (ref.onHost()) {
        if (s.bytes && s.layout.identity()) {
          dev.write(s.target, s.offset, ref.host().bytes().data(), s.bytes);
        } else if (s.bytes) {
          const std::vector<std::byte> words = runtime::toDevice(ref.host(), s.layout, name);
          dev.write(s.target, s.offset, words.data(), words.size());
        }
        continue;
      }
      const GpuTensor& g = ref.gpu();
      if (g.buffer == s.target && g.offset == s.offset) continue;  // already there
      const uint64_t size =
          std::min({(s.bytes + 3) & ~uint64_t{3}, (gpu::bufferSize(g.buffer) - g.offset) & ~uint64_t{3},
                    (gpu::bufferSize(s.target) - s.offset) & ~uint64_t{3}});
      if (size) before.push_back({g.buffer, s.target, g.offset, s.offset, size});
    }
    if (!changes.empty()) rebind(changes, holders);
    commands.submit(dev, /*checked=*/false, before);
  } catch (Error& e) {
    e.with("while replaying a graph of " + std::to_string(calls.size()) + " call(s): " + callList(names));
    throw;
  }
}

// ---- the public facade ------------------------------------------------------------------------

Graph::Graph() = default;
Graph::Graph(std::unique_ptr<GraphImpl> impl) : impl_(std::move(impl)) {}
Graph::Graph(Graph&&) noexcept = default;
Graph& Graph::operator=(Graph&&) noexcept = default;
Graph::~Graph() = default;

void Graph::replay(const std::map<std::string, TensorRef>& inputs) {
  if (!impl_)
    throw Error(ErrorCode::InvalidArgument, "replaying an empty wgk::Graph (use Runtime::capture())");
  impl_->replay(inputs);
}

const std::vector<GraphInput>& Graph::inputs() const {
  static const std::vector<GraphInput> kNone;
  return impl_ ? impl_->publicInputs : kNone;
}

size_t Graph::calls() const {
  return impl_ ? impl_->calls.size() : 0;
}

size_t Graph::dispatches() const {
  return impl_ ? impl_->commands.dispatchCount() : 0;
}

BatchStats Graph::stats() const {
  if (!impl_) return {};
  BatchStats s = impl_->stats;
  s.heldBuffers = impl_->local ? impl_->local->idleBuffers() : 0;
  return s;
}

}  // namespace wgk

// Pending: readbacks and queue waits taken in steps (gpu/pending.h), and the device's pool of
// staging buffers they read through.
#include "gpu/pending.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>

#include "gpu/device.h"
#include "gpu/device_state.h"
#include "gpu/error_scope.h"
#include "wgk/error.h"

namespace wgk::gpu {

struct Pending::Callback {
  bool map = false;  // a buffer mapping (else the queue's work done)
  bool fired = false;
  bool ok = false;
  std::string message;
  // What both of Dawn's callbacks (map and work done) record.
  void fire(bool success, WGPUStringView text) {
    fired = true;
    ok = success;
    message = fromView(text);
  }
};

namespace {
constexpr uint64_t roundUp4(uint64_t n) {
  return (n + 3) & ~uint64_t(3);
}
std::string bytesText(uint64_t n) {
  return std::to_string(n) + " bytes";
}
const char* whatOf(bool map) {
  return map ? "a buffer mapping" : "the GPU to finish";
}

// Staging buffers kept idle for later readbacks: few, and not huge in sum.
constexpr size_t kIdleStaging = 4;
constexpr uint64_t kIdleStagingBytes = 256ull << 20;
constexpr uint64_t kMinStaging = 64 * 1024;
}  // namespace

// ---- the device's staging pool (device lock held) ----------------------------------------------

std::pair<WGPUBuffer, uint64_t> DeviceState::takeStaging(uint64_t size) {
  auto best = idleStaging.end();
  for (auto it = idleStaging.begin(); it != idleStaging.end(); ++it)
    if (it->second >= size && (best == idleStaging.end() || it->second < best->second)) best = it;
  if (best != idleStaging.end()) {
    auto out = *best;
    idleStaging.erase(best);
    return out;
  }
  const uint64_t want = std::max(roundUp4(size), kMinStaging);
  ErrorScope scope(*this);
  WGPUBuffer b = makeBuffer(want, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, "wgk readback staging");
  if (auto err = scope.popAll()) {
    freeBuffer(b);
    withContext("while allocating a readback buffer of " + bytesText(want),
                [&] { throwGpuError(*this, err->type, err->message); });
  }
  if (!b) throw Error(ErrorCode::OutOfMemory, "cannot allocate a readback buffer of " + bytesText(want));
  return {b, want};
}

void DeviceState::giveStaging(WGPUBuffer buffer, uint64_t size) {
  idleStaging.emplace_back(buffer, size);
  uint64_t total = 0;
  for (const auto& e : idleStaging) total += e.second;
  while (idleStaging.size() > kIdleStaging || (total > kIdleStagingBytes && !idleStaging.empty())) {
    auto largest = std::max_element(idleStaging.begin(), idleStaging.end(),
                                    [](const auto& a, const auto& b) { return a.second < b.second; });
    total -= largest->second;
    freeBuffer(largest->first);
    idleStaging.erase(largest);
  }
}

// ---- starting ----------------------------------------------------------------------------------

Pending Device::readLater(std::span<const Pending::Range> ranges) {
  DeviceState& s = *state_;
  s.checkAlive();
  const Procs& p = procs();
  Pending r;
  r.state_ = state_;
  r.callback_ = std::make_unique<Pending::Callback>();
  r.callback_->map = true;
  // Copies move whole 4-byte words: each range is widened to words and placed at the next word of
  // the staging buffer.
  struct Copy {
    WGPUBuffer buffer;
    uint64_t first, span;
  };
  std::vector<Copy> copies;
  uint64_t total = 0;
  for (const Pending::Range& g : ranges) {
    if (!g.buffer) throw Error(ErrorCode::InvalidArgument, "read: the buffer is null");
    if (g.size == 0) {
      r.placed_.push_back({total, 0});
      continue;
    }
    const uint64_t bufSize = p.BufferGetSize(g.buffer);
    if (g.offset > bufSize || g.size > bufSize - g.offset)
      throw Error(ErrorCode::InvalidArgument, "read: " + bytesText(g.size) + " at offset " +
                                                  std::to_string(g.offset) + " lie outside a buffer of " +
                                                  bytesText(bufSize));
    const uint64_t first = g.offset & ~uint64_t(3), last = roundUp4(g.offset + g.size);
    if (last > bufSize)
      throw Error(ErrorCode::InvalidArgument, "read: the last bytes of a buffer whose size (" +
                                                  bytesText(bufSize) +
                                                  ") is not a multiple of 4 cannot be copied");
    copies.push_back({g.buffer, first, last - first});
    r.placed_.push_back({total + (g.offset - first), g.size});
    total += last - first;
  }
  r.start_ = std::chrono::steady_clock::now();
  if (copies.empty()) {  // nothing to read: done at once
    r.done_ = true;
    return r;
  }
  std::tie(r.staging_, r.stagingSize_) = s.takeStaging(total);
  r.mappedSize_ = total;
  s.flushPending();  // deferred calls first: the copies read what they wrote
  {
    ErrorScope scope(s);
    WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(s.device, nullptr);
    uint64_t at = 0;
    for (const Copy& c : copies) {
      p.CommandEncoderCopyBufferToBuffer(enc, c.buffer, c.first, r.staging_, at, c.span);
      at += c.span;
    }
    WGPUCommandBuffer cb = p.CommandEncoderFinish(enc, nullptr);
    p.QueueSubmit(s.queue, 1, &cb);
    p.CommandBufferRelease(cb);
    p.CommandEncoderRelease(enc);
    withContext("while reading back " + bytesText(total) + " (the buffer needs CopySrc usage)",
                [&] { scope.check(); });
  }
  WGPUBufferMapCallbackInfo info = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.userdata1 = r.callback_.get();
  info.callback = [](WGPUMapAsyncStatus status, WGPUStringView message, void* u1, void*) {
    static_cast<Pending::Callback*>(u1)->fire(status == WGPUMapAsyncStatus_Success, message);
  };
  r.future_ = p.BufferMapAsync(r.staging_, WGPUMapMode_Read, 0, static_cast<size_t>(total), info).id;
  return r;
}

Pending Device::idleLater() {
  DeviceState& s = *state_;
  s.checkAlive();
  s.flushPending();
  Pending r;
  r.state_ = state_;
  r.callback_ = std::make_unique<Pending::Callback>();
  r.start_ = std::chrono::steady_clock::now();
  WGPUQueueWorkDoneCallbackInfo info = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.userdata1 = r.callback_.get();
  info.callback = [](WGPUQueueWorkDoneStatus status, WGPUStringView message, void* u1, void*) {
    static_cast<Pending::Callback*>(u1)->fire(status == WGPUQueueWorkDoneStatus_Success, message);
  };
  r.future_ = procs().QueueOnSubmittedWorkDone(s.queue, info).id;
  return r;
}

// ---- waiting -----------------------------------------------------------------------------------

bool Pending::canBlock() const {
  return !state_ || !state_->pollingWait;
}

bool Pending::poll(uint64_t timeoutNs) {
  if (done_ || !state_) return true;
  DeviceState& s = *state_;
  const char* what = whatOf(callback_->map);
  if (s.abandoned.load()) s.checkAlive();  // its queue may never drain: do not wait on it again
  const auto deadline = start_ + std::chrono::nanoseconds(s.waitTimeoutNs);
  auto now = std::chrono::steady_clock::now();
  if (now >= deadline) s.deadlineExceeded(what);
  const uint64_t left = static_cast<uint64_t>(std::chrono::nanoseconds(deadline - now).count());
  const Procs& p = procs();
  WGPUFutureWaitInfo info{{future_}, 0};
  WGPUWaitStatus st;
  if (s.pollingWait || timeoutNs == 0) {
    if (s.pollingWait) p.InstanceProcessEvents(s.instance);
    st = p.InstanceWaitAny(s.instance, 1, &info, 0);
  } else {
    st = p.InstanceWaitAny(s.instance, 1, &info, std::min(timeoutNs, left));
    if (st != WGPUWaitStatus_Success && st != WGPUWaitStatus_TimedOut) {
      s.pollingWait = true;  // a caller's instance without TimedWaitAny refuses blocking waits
      return false;
    }
  }
  if (st == WGPUWaitStatus_Success && info.completed) {
    finish();
    return true;
  }
  if (st != WGPUWaitStatus_Success && st != WGPUWaitStatus_TimedOut)
    throw Error(ErrorCode::Gpu, std::string("waiting for ") + what + " failed (WaitAny status " +
                                    std::to_string(static_cast<int>(st)) + ")");
  if (std::chrono::steady_clock::now() >= deadline) s.deadlineExceeded(what);
  return false;
}

void Pending::wait() {
  while (!poll(600ull * 1000 * 1000 * 1000)) {
    if (!canBlock()) std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

void Pending::finish() {
  DeviceState& s = *state_;
  done_ = true;
  s.checkAlive();
  if (!callback_->ok)
    throw Error(ErrorCode::Gpu, callback_->map ? "mapping the readback buffer failed: " + callback_->message
                                               : "the GPU work failed to complete: " + callback_->message);
  if (staging_) {
    mapped_ = static_cast<const std::byte*>(
        procs().BufferGetConstMappedRange(staging_, 0, static_cast<size_t>(mappedSize_)));
    if (!mapped_) throw Error(ErrorCode::Gpu, "the mapped readback buffer has no data pointer");
  }
  s.raiseUncaptured();
}

std::span<const std::byte> Pending::bytes(size_t i) const {
  if (!done_ || i >= placed_.size())
    throw Error(ErrorCode::Internal, "Pending::bytes: no finished readback range " + std::to_string(i));
  if (placed_[i].size == 0) return {};
  if (!mapped_) throw Error(ErrorCode::Internal, "Pending::bytes: the readback is not mapped");
  return {mapped_ + placed_[i].at, static_cast<size_t>(placed_[i].size)};
}

// ---- releasing ---------------------------------------------------------------------------------

void Pending::release() {
  if (!state_) return;
  DeviceState& s = *state_;
  if (callback_ && !callback_->fired) {
    // Dawn still holds the callback's address: it may fire when the instance goes away.
    s.keepUntilInstanceGone(
        std::shared_ptr<void>(callback_.release(), [](void* c) { delete static_cast<Callback*>(c); }));
  }
  if (staging_) {
    if (mapped_) {
      procs().BufferUnmap(staging_);
      s.giveStaging(staging_, stagingSize_);
    } else if (!s.abandoned.load()) {
      DeviceState::freeBuffer(staging_);  // a mapping may be under way: never hand it out again
    }  // an abandoned device's staging buffer is left to it (destroying may wait on its work)
  }
  staging_ = nullptr;
  mapped_ = nullptr;
  placed_.clear();
  done_ = false;  // empty now, as a default-made Pending
  callback_.reset();
  state_.reset();
}

Pending::Pending() = default;
Pending::Pending(Pending&& o) noexcept {
  *this = std::move(o);
}

Pending& Pending::operator=(Pending&& o) noexcept {
  if (this != &o) {
    release();
    state_ = std::move(o.state_);
    callback_ = std::move(o.callback_);
    future_ = o.future_;
    staging_ = std::exchange(o.staging_, nullptr);
    stagingSize_ = o.stagingSize_;
    mappedSize_ = o.mappedSize_;
    placed_ = std::move(o.placed_);
    mapped_ = std::exchange(o.mapped_, nullptr);
    start_ = o.start_;
    done_ = o.done_;
  }
  return *this;
}

Pending::~Pending() {
  try {
    release();
  } catch (...) {  // release makes no call that throws; nothing may escape a destructor
  }
}

}  // namespace wgk::gpu

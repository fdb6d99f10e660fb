// Buffers: creation (error scopes turn allocation failure into Error(OutOfMemory)), queue writes
// and blocking readback (a Pending read waited for at once: gpu/pending.h).
#include "gpu/buffer.h"

#include <algorithm>
#include <cstring>

#include "gpu/device.h"
#include "gpu/device_state.h"
#include "gpu/error_scope.h"
#include "wgk/error.h"

namespace wgk::gpu {
namespace {

constexpr uint64_t roundUp4(uint64_t n) {
  return (n + 3) & ~uint64_t(3);
}

WGPUBufferUsage toWgpu(BufferUsage u) {
  WGPUBufferUsage out = WGPUBufferUsage_None;
  if (hasUsage(u, BufferUsage::Storage)) out |= WGPUBufferUsage_Storage;
  if (hasUsage(u, BufferUsage::Uniform)) out |= WGPUBufferUsage_Uniform;
  if (hasUsage(u, BufferUsage::CopySrc)) out |= WGPUBufferUsage_CopySrc;
  if (hasUsage(u, BufferUsage::CopyDst)) out |= WGPUBufferUsage_CopyDst;
  if (hasUsage(u, BufferUsage::MapRead)) out |= WGPUBufferUsage_MapRead;
  if (hasUsage(u, BufferUsage::QueryResolve)) out |= WGPUBufferUsage_QueryResolve;
  return out;
}

std::string bytesText(uint64_t n) {
  return std::to_string(n) + " bytes";
}

}  // namespace

uint64_t bufferSize(WGPUBuffer buffer) {
  if (!buffer) throw Error(ErrorCode::InvalidArgument, "bufferSize: the buffer is null");
  return procs().BufferGetSize(buffer);
}

Buffer Device::createBuffer(uint64_t size, BufferUsage usage, std::string_view label) {
  DeviceState& s = *state_;
  s.checkAlive();
  // At least 16 bytes: an empty tensor still binds as array<vec4<f32>> (16-byte elements).
  const uint64_t alloc = std::max<uint64_t>(16, roundUp4(size));
  if (size > s.limits.maxBufferSize)
    throw Error(ErrorCode::OutOfMemory, "cannot allocate a GPU buffer of " + bytesText(size) +
                                            ": the device's maxBufferSize is " +
                                            bytesText(s.limits.maxBufferSize));
  ErrorScope scope(s);
  WGPUBufferDescriptor d = WGPU_BUFFER_DESCRIPTOR_INIT;
  d.label = toView(label);
  d.usage = toWgpu(usage);
  d.size = alloc;
  WGPUBuffer b = procs().DeviceCreateBuffer(s.device, &d);
  if (auto err = scope.popAll()) {
    DeviceState::freeBuffer(b);
    withContext("while allocating a GPU buffer of " + bytesText(alloc),
                [&] { throwGpuError(s, err->type, err->message); });
  }
  if (!b) throw Error(ErrorCode::OutOfMemory, "cannot allocate a GPU buffer of " + bytesText(alloc));
  return Buffer(state_, b, alloc, size, usage);
}

void Device::write(WGPUBuffer buffer, uint64_t offset, const void* data, uint64_t size) {
  DeviceState& s = *state_;
  s.checkAlive();
  if (!buffer) throw Error(ErrorCode::InvalidArgument, "write: the buffer is null");
  if (offset % 4)
    throw Error(ErrorCode::InvalidArgument,
                "write: offset " + std::to_string(offset) + " is not a multiple of 4");
  if (size == 0) return;
  const uint64_t bufSize = procs().BufferGetSize(buffer);
  if (offset > bufSize || roundUp4(size) > bufSize - offset)
    throw Error(ErrorCode::InvalidArgument, "write: " + bytesText(size) + " at offset " +
                                                std::to_string(offset) + " do not fit a buffer of " +
                                                bytesText(bufSize));
  s.flushPending();  // queue writes land before later submits: deferred work goes first
  const uint64_t body = size & ~uint64_t(3);
  if (body) procs().QueueWriteBuffer(s.queue, buffer, offset, data, static_cast<size_t>(body));
  if (const uint64_t tail = size - body) {  // writes must be whole 4-byte words: pad with zeros
    unsigned char word[4] = {0, 0, 0, 0};
    std::memcpy(word, static_cast<const unsigned char*>(data) + body, static_cast<size_t>(tail));
    procs().QueueWriteBuffer(s.queue, buffer, offset + body, word, 4);
  }
}

void Device::read(WGPUBuffer buffer, uint64_t offset, void* dst, uint64_t size) {
  state_->checkAlive();
  if (!buffer) throw Error(ErrorCode::InvalidArgument, "read: the buffer is null");
  if (size == 0) return;
  const Pending::Range range{buffer, offset, size};
  Pending r = readLater({&range, 1});
  r.wait();
  std::memcpy(dst, r.bytes(0).data(), static_cast<size_t>(size));
}

Buffer::Buffer(Buffer&& o) noexcept
    : state_(std::move(o.state_)),
      buffer_(o.buffer_),
      size_(o.size_),
      requested_(o.requested_),
      usage_(o.usage_) {
  o.buffer_ = nullptr;
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    destroy();
    state_ = std::move(o.state_);
    buffer_ = o.buffer_;
    size_ = o.size_;
    requested_ = o.requested_;
    usage_ = o.usage_;
    o.buffer_ = nullptr;
  }
  return *this;
}

Buffer::~Buffer() {
  destroy();
}

std::atomic<uint64_t>& Buffer::live() {
  static std::atomic<uint64_t> n{0};
  return n;
}

uint64_t Buffer::liveCount() {
  return live().load();
}

void Buffer::destroy() {
  if (buffer_) --live();
  DeviceState::freeBuffer(buffer_);
  size_ = requested_ = 0;
  state_.reset();
}

void Buffer::upload(std::span<const std::byte> bytes, uint64_t offset) {
  if (!buffer_) throw Error(ErrorCode::InvalidArgument, "upload into an empty Buffer");
  Device(state_).write(buffer_, offset, bytes.data(), bytes.size());
}

std::vector<std::byte> Buffer::readback() const {
  std::vector<std::byte> out(requested_);
  readback(out.data(), requested_, 0);
  return out;
}

void Buffer::readback(void* dst, uint64_t size, uint64_t offset) const {
  if (!buffer_) throw Error(ErrorCode::InvalidArgument, "readback from an empty Buffer");
  Device(state_).read(buffer_, offset, dst, size);
}

}  // namespace wgk::gpu

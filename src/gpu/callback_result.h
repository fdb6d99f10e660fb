// What one of Dawn's one-shot callbacks delivered, and the callback info that records it: the
// status and message of (status, message) callbacks (queue work done, buffer map), plus the
// created object of (status, object, message) ones (adapter and device requests). The info is
// WaitAnyOnly: DeviceState::wait on its future, then read the result.
//
//   CallbackResult<WGPUMapAsyncStatus> r{WGPUMapAsyncStatus_Error};
//   s.wait(procs().BufferMapAsync(b, mode, 0, size, statusCallback(WGPU_BUFFER_MAP_CALLBACK_INFO_INIT, r)),
//   "...");
#pragma once

#include <cstddef>
#include <string>

#include "gpu/webgpu_procs.h"

namespace wgk::gpu {

template <class Status, class Handle = std::nullptr_t>
struct CallbackResult {
  Status status{};
  std::string message;
  Handle handle = nullptr;  // the requested object (request callbacks only)
};

template <class Info, class Status>
Info statusCallback(Info info, CallbackResult<Status>& r) {
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.userdata1 = &r;
  info.callback = [](Status status, WGPUStringView message, void* u1, void*) {
    auto* res = static_cast<CallbackResult<Status>*>(u1);
    res->status = status;
    res->message = fromView(message);
  };
  return info;
}

template <class Info, class Status, class Handle>
Info requestCallback(Info info, CallbackResult<Status, Handle>& r) {
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.userdata1 = &r;
  info.callback = [](Status status, Handle handle, WGPUStringView message, void* u1, void*) {
    auto* res = static_cast<CallbackResult<Status, Handle>*>(u1);
    res->status = status;
    res->handle = handle;
    res->message = fromView(message);
  };
  return info;
}

}  // namespace wgk::gpu

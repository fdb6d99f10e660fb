#include "gpu/error_scope.h"

namespace wgk::gpu {

namespace {
constexpr WGPUErrorFilter kFilters[] = {WGPUErrorFilter_Validation, WGPUErrorFilter_OutOfMemory,
                                        WGPUErrorFilter_Internal};
}

ErrorScope::ErrorScope(DeviceState& s) : s_(s) {
  for (WGPUErrorFilter f : kFilters) procs().DevicePushErrorScope(s_.device, f);
}

ErrorScope::~ErrorScope() {
  if (!open_) return;
  try {
    popAll();
  } catch (...) {
    // Unwinding from another error: that one is what the caller needs to see.
  }
}

std::optional<ScopeError> ErrorScope::popAll() {
  open_ = false;
  struct Result {
    WGPUPopErrorScopeStatus status = WGPUPopErrorScopeStatus_Error;
    ScopeError error;
  };
  std::optional<ScopeError> first;
  // Scopes pop innermost first: Internal, OutOfMemory, Validation. Report OOM before validation,
  // since a failed allocation often causes later validation errors.
  for (int i = 0; i < 3; ++i) {
    Result r;
    WGPUPopErrorScopeCallbackInfo info = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
    info.mode = WGPUCallbackMode_WaitAnyOnly;
    info.userdata1 = &r;
    info.callback = [](WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void* u1,
                       void*) {
      auto* res = static_cast<Result*>(u1);
      res->status = status;
      res->error.type = type;
      res->error.message = fromView(message);
    };
    s_.wait(procs().DevicePopErrorScope(s_.device, info), "an error scope");
    if (r.status == WGPUPopErrorScopeStatus_Success && r.error.type != WGPUErrorType_NoError &&
        (!first || r.error.type == WGPUErrorType_OutOfMemory))
      first = r.error;
  }
  return first;
}

void ErrorScope::check() {
  if (auto e = popAll()) throwGpuError(s_, e->type, e->message);
}

}  // namespace wgk::gpu

// Internal to src/gpu: error scopes around creation and submission, so that WebGPU errors become
// wgk::Errors at the call that caused them instead of reaching the uncaptured-error callback.
#pragma once

#include <optional>
#include <string>

#include "gpu/device_state.h"

namespace wgk::gpu {

struct ScopeError {
  WGPUErrorType type = WGPUErrorType_NoError;
  std::string message;
};

// Pushes Validation, OutOfMemory and Internal scopes; popAll() pops them (waiting for the results)
// and returns the first error caught, or nothing. Unpopped scopes are popped by the destructor.
class ErrorScope {
 public:
  explicit ErrorScope(DeviceState& s);
  ~ErrorScope();
  ErrorScope(const ErrorScope&) = delete;
  ErrorScope& operator=(const ErrorScope&) = delete;

  std::optional<ScopeError> popAll();
  // popAll(), then throws the error (with throwGpuError) if there was one.
  void check();

 private:
  DeviceState& s_;
  bool open_ = true;
};

}  // namespace wgk::gpu

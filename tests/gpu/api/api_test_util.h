// One Runtime per test process and the embedded kernels by op id, through the public API only.
#pragma once

#include <memory>
#include <string>

#include "wgk/wgk.h"

namespace wgk::api_test {

inline Runtime& runtime() {
  static std::shared_ptr<Runtime> rt = Runtime::create();
  return *rt;
}

inline Kernel kernel(const std::string& opId) {
  return runtime().load("webgpu-kernels/" + opId);
}

}  // namespace wgk::api_test

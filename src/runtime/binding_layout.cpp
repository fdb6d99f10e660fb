#include "runtime/binding_layout.h"

namespace wgk::runtime {

gpu::BindingKind gpuBindingKind(package::BufferType type) {
  switch (type) {
    case package::BufferType::ReadOnlyStorage:
      return gpu::BindingKind::ReadOnlyStorage;
    case package::BufferType::Storage:
      return gpu::BindingKind::Storage;
    case package::BufferType::Uniform:
      return gpu::BindingKind::Uniform;
  }
  return gpu::BindingKind::Storage;
}

std::vector<gpu::BindingKind> bindingLayout(const plan::PlannedPass& pass) {
  std::vector<gpu::BindingKind> layout;
  layout.reserve(pass.bindings.size());
  for (const auto& b : pass.bindings) layout.push_back(gpuBindingKind(b.type));
  return layout;
}

}  // namespace wgk::runtime

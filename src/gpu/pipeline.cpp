// Shader modules, compute pipelines with an explicit bind group layout, and bind groups.
#include "gpu/pipeline.h"

#include <sstream>

#include "gpu/bind_group_build.h"
#include "gpu/device.h"
#include "gpu/device_state.h"
#include "gpu/error_scope.h"
#include "wgk/error.h"

namespace wgk::gpu {

struct ComputePipeline::Impl {
  std::shared_ptr<DeviceState> state;
  WGPUComputePipeline pipeline = nullptr;
  WGPUBindGroupLayout layout = nullptr;
  std::vector<BindingKind> bindings;
  std::string label;
  ~Impl() {
    if (pipeline) procs().ComputePipelineRelease(pipeline);
    if (layout) procs().BindGroupLayoutRelease(layout);
  }
};

namespace {

struct CompileMessage {
  WGPUCompilationMessageType type;
  uint64_t line, column, length;
  std::string text;
};

std::vector<CompileMessage> compilationMessages(DeviceState& s, WGPUShaderModule module) {
  struct Result {
    WGPUCompilationInfoRequestStatus status = WGPUCompilationInfoRequestStatus_CallbackCancelled;
    std::vector<CompileMessage> messages;
  } r;
  WGPUCompilationInfoCallbackInfo ci = WGPU_COMPILATION_INFO_CALLBACK_INFO_INIT;
  ci.mode = WGPUCallbackMode_WaitAnyOnly;
  ci.userdata1 = &r;
  ci.callback = [](WGPUCompilationInfoRequestStatus status, const WGPUCompilationInfo* info, void* u1,
                   void*) {
    auto* res = static_cast<Result*>(u1);
    res->status = status;
    if (!info) return;
    for (size_t i = 0; i < info->messageCount; ++i) {
      const WGPUCompilationMessage& m = info->messages[i];
      res->messages.push_back({m.type, m.lineNum, m.linePos, m.length, fromView(m.message)});
    }
  };
  s.wait(procs().ShaderModuleGetCompilationInfo(module, ci), "WGSL compilation messages");
  return r.messages;
}

// "line 3, column 9: error: unresolved value 'foo'" then the source line and a caret under the spot.
std::string formatMessages(std::string_view source, const std::vector<CompileMessage>& messages) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start <= source.size();) {
    size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    lines.push_back(source.substr(start, end - start));
    start = end + 1;
  }
  std::ostringstream out;
  for (const auto& m : messages) {
    const char* kind = m.type == WGPUCompilationMessageType_Error     ? "error"
                       : m.type == WGPUCompilationMessageType_Warning ? "warning"
                                                                      : "note";
    out << "\n  ";
    if (m.line) out << "line " << m.line << ", column " << m.column << ": ";
    out << kind << ": " << m.text;
    if (m.line && m.line <= lines.size()) {
      std::string_view text = lines[m.line - 1];
      std::string num = std::to_string(m.line);
      out << "\n    " << num << " | " << text << "\n    " << std::string(num.size(), ' ') << " | ";
      if (m.column >= 1 && m.column <= text.size() + 1)
        out << std::string(m.column - 1, ' ')
            << std::string(std::max<uint64_t>(1, std::min<uint64_t>(m.length, 80)), '^');
    }
  }
  return out.str();
}

WGPUBufferBindingType bindingType(BindingKind k) {
  switch (k) {
    case BindingKind::ReadOnlyStorage:
      return WGPUBufferBindingType_ReadOnlyStorage;
    case BindingKind::Storage:
      return WGPUBufferBindingType_Storage;
    case BindingKind::Uniform:
      return WGPUBufferBindingType_Uniform;
  }
  return WGPUBufferBindingType_Storage;
}

}  // namespace

const char* bindingKindName(BindingKind k) {
  switch (k) {
    case BindingKind::ReadOnlyStorage:
      return "read-only-storage";
    case BindingKind::Storage:
      return "storage";
    case BindingKind::Uniform:
      return "uniform";
  }
  return "?";
}

WGPUComputePipeline ComputePipeline::handle() const {
  return impl_->pipeline;
}
WGPUBindGroupLayout ComputePipeline::layout() const {
  return impl_->layout;
}
const std::vector<BindingKind>& ComputePipeline::bindings() const {
  return impl_->bindings;
}
const std::string& ComputePipeline::label() const {
  return impl_->label;
}

ComputePipeline Device::createComputePipeline(std::string_view wgsl, std::span<const BindingKind> layout,
                                              std::string_view label) {
  DeviceState& s = *state_;
  return withContext("while creating compute pipeline '" + std::string(label) + "'", [&] {
    s.checkAlive();
    const Procs& p = procs();
    auto impl = std::make_shared<ComputePipeline::Impl>();
    impl->state = state_;
    impl->bindings.assign(layout.begin(), layout.end());
    impl->label = std::string(label);

    ErrorScope scope(s);
    WGPUShaderSourceWGSL src = WGPU_SHADER_SOURCE_WGSL_INIT;
    src.code = toView(wgsl);
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    md.label = toView(label);
    WGPUShaderModule module = p.DeviceCreateShaderModule(s.device, &md);
    std::vector<CompileMessage> messages = compilationMessages(s, module);
    bool failed = false;
    for (const auto& m : messages) failed |= m.type == WGPUCompilationMessageType_Error;
    if (failed) {
      p.ShaderModuleRelease(module);
      scope.popAll();  // the same error, as Dawn's less readable validation message
      s.checkAlive();
      throw Error(ErrorCode::Gpu, "WGSL compilation failed:" + formatMessages(wgsl, messages));
    }

    std::vector<WGPUBindGroupLayoutEntry> entries(layout.size());
    for (size_t i = 0; i < layout.size(); ++i) {
      entries[i] = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
      entries[i].binding = static_cast<uint32_t>(i);
      entries[i].visibility = WGPUShaderStage_Compute;
      entries[i].buffer.type = bindingType(layout[i]);
    }
    WGPUBindGroupLayoutDescriptor bld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bld.label = toView(label);
    bld.entryCount = entries.size();
    bld.entries = entries.data();
    impl->layout = p.DeviceCreateBindGroupLayout(s.device, &bld);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1;
    pld.bindGroupLayouts = &impl->layout;
    WGPUPipelineLayout pipelineLayout = p.DeviceCreatePipelineLayout(s.device, &pld);
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.label = toView(label);
    cd.layout = pipelineLayout;
    cd.compute.module = module;
    cd.compute.entryPoint = toView("main");
    impl->pipeline = p.DeviceCreateComputePipeline(s.device, &cd);
    p.PipelineLayoutRelease(pipelineLayout);
    p.ShaderModuleRelease(module);
    if (auto err = scope.popAll()) {
      std::string kinds;
      for (size_t i = 0; i < layout.size(); ++i)
        kinds += (i ? ", " : "") + std::to_string(i) + ": " + bindingKindName(layout[i]);
      withContext("with bind group 0 = {" + kinds + "}", [&] { throwGpuError(s, err->type, err->message); });
    }
    ComputePipeline out;
    out.impl_ = std::move(impl);
    return out;
  });
}

BindGroup Device::createBindGroup(const ComputePipeline& pipeline, std::span<const BindingEntry> entries,
                                  std::string_view label) {
  DeviceState& s = *state_;
  s.checkAlive();
  if (!pipeline) throw Error(ErrorCode::InvalidArgument, "createBindGroup: the pipeline is empty");
  validateBindingEntries(s, pipeline.bindings(), entries, label);
  ErrorScope scope(s);
  WGPUBindGroup g = makeBindGroup(s, pipeline.layout(), entries, label);
  if (auto err = scope.popAll()) {
    if (g) procs().BindGroupRelease(g);
    withContext("while creating bind group '" + std::string(label) + "'",
                [&] { throwGpuError(s, err->type, err->message); });
  }
  return BindGroup(state_, g);
}

BindGroup::BindGroup(BindGroup&& o) noexcept : state_(std::move(o.state_)), group_(o.group_) {
  o.group_ = nullptr;
}

BindGroup& BindGroup::operator=(BindGroup&& o) noexcept {
  if (this != &o) {
    if (group_) procs().BindGroupRelease(group_);
    state_ = std::move(o.state_);
    group_ = o.group_;
    o.group_ = nullptr;
  }
  return *this;
}

BindGroup::~BindGroup() {
  if (group_) procs().BindGroupRelease(group_);
}

}  // namespace wgk::gpu

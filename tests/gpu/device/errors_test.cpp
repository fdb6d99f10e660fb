// WebGPU errors become wgk::Errors with context, never an abort, and the device stays usable.
#include <gtest/gtest.h>

#include <memory>

#include "gpu/command_list.h"
#include "test_device.h"
#include "wgk/error.h"

namespace wgk::gpu::test {
namespace {

template <class Fn>
Error expectError(ErrorCode code, Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e;
  }
  ADD_FAILURE() << "expected an Error";
  return Error(ErrorCode::Internal, "none");
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The device still runs a kernel after an error.
void expectDeviceStillWorks() {
  Device& dev = sharedDevice();
  ComputePipeline p = dev.createComputePipeline(
      "@group(0) @binding(0) var<storage, read_write> o : array<u32>;\n"
      "@compute @workgroup_size(1) fn main() { o[0] = 42u; }\n",
      {RW}, "still works");
  Buffer b = dev.createBuffer(4, kInOut);
  CommandRecorder rec = dev.recorder();
  rec.dispatch(p, {{b.handle()}}, 1);
  rec.submit();
  EXPECT_EQ(readAll<uint32_t>(b, 1)[0], 42u);
  EXPECT_TRUE(dev.takeUncapturedErrors().empty());
}

TEST(Errors, InvalidWgslQuotesTheOffendingLine) {
  const char* wgsl =
      "@group(0) @binding(0) var<storage, read_write> o : array<f32>;\n"
      "@compute @workgroup_size(1)\n"
      "fn main() {\n"
      "  o[0] = undefinedThing * 2.0;\n"
      "}\n";
  Error e = expectError(ErrorCode::Gpu, [&] { sharedDevice().createComputePipeline(wgsl, {RW}, "broken"); });
  std::string m = e.what();
  EXPECT_TRUE(has(m, "WGSL compilation failed")) << m;
  EXPECT_TRUE(has(m, "line 4")) << m;
  EXPECT_TRUE(has(m, "o[0] = undefinedThing * 2.0;")) << m;  // the source line, quoted
  EXPECT_TRUE(has(m, "^")) << m;
  EXPECT_TRUE(has(m, "undefinedThing")) << m;
  EXPECT_TRUE(has(m, "creating compute pipeline 'broken'")) << m;  // context
  expectDeviceStillWorks();
}

TEST(Errors, ShaderNotMatchingTheLayoutIsAGpuError) {
  // The shader writes binding 0, the layout says read-only.
  const char* wgsl =
      "@group(0) @binding(0) var<storage, read_write> o : array<u32>;\n"
      "@compute @workgroup_size(1) fn main() { o[0] = 1u; }\n";
  Error e =
      expectError(ErrorCode::Gpu, [&] { sharedDevice().createComputePipeline(wgsl, {RO}, "mismatch"); });
  EXPECT_TRUE(has(e.what(), "read-only-storage")) << e.what();
  expectDeviceStillWorks();
}

TEST(Errors, TooSmallBufferForABindingIsAValidationErrorAtSubmit) {
  // A fixed-size array needs 256 bytes; a 16-byte buffer passes the host checks, Dawn refuses it.
  const char* wgsl =
      "@group(0) @binding(0) var<storage, read_write> o : array<u32, 64>;\n"
      "@compute @workgroup_size(1) fn main() { o[63] = 1u; }\n";
  Device& dev = sharedDevice();
  ComputePipeline p = dev.createComputePipeline(wgsl, {RW}, "fixed size");
  Buffer small = dev.createBuffer(16, kInOut);
  CommandRecorder rec = dev.recorder();
  rec.dispatch(p, {{small.handle()}}, 1, 1, 1, "too small");
  Error e = expectError(ErrorCode::Gpu, [&] { rec.submit(); });
  EXPECT_TRUE(has(e.what(), "submitting 1 dispatch(es): too small")) << e.what();
  EXPECT_EQ(rec.dispatchCount(), 0u);
  expectDeviceStillWorks();
}

// CommandList::submit without an error scope still reports a validation error (through wgk's
// uncaptured-error callback, which Dawn calls synchronously), as a checked submit does; the list
// stays as it was and the device keeps working.
TEST(Errors, CommandListValidationErrorsAreReportedCheckedOrNot) {
  const char* wgsl =
      "@group(0) @binding(0) var<storage, read_write> o : array<u32, 64>;\n"
      "@compute @workgroup_size(1) fn main() { o[63] = 1u; }\n";
  Device& dev = sharedDevice();
  ComputePipeline p = dev.createComputePipeline(wgsl, {RW}, "fixed size");
  Buffer small = dev.createBuffer(16, kInOut);
  const BindingEntry entry{small.handle(), 0, 16};
  auto group = std::make_shared<const BindGroup>(dev.createBindGroup(p, std::span(&entry, 1), "too small"));
  CommandList cl;
  cl.dispatch(p, group, 1);
  for (bool checked : {false, true}) {
    expectError(ErrorCode::Gpu, [&] { cl.submit(dev, checked); });
    EXPECT_EQ(cl.dispatchCount(), 1u);
  }
  expectDeviceStillWorks();
}

TEST(Errors, HostChecksNameTheBinding) {
  Device& dev = sharedDevice();
  ComputePipeline p = dev.createComputePipeline(
      "@group(0) @binding(0) var<storage, read> a : array<u32>;\n"
      "@group(0) @binding(1) var<storage, read_write> b : array<u32>;\n"
      "@compute @workgroup_size(1) fn main() { b[0] = a[0]; }\n",
      {RO, RW}, "copy");
  Buffer a = dev.createBuffer(1024, kInOut), b = dev.createBuffer(1024, kInOut);
  CommandRecorder rec = dev.recorder();
  Error count = expectError(ErrorCode::InvalidArgument, [&] { rec.dispatch(p, {{a.handle()}}, 1); });
  EXPECT_TRUE(has(count.what(), "got 1 buffers for a layout of 2 bindings")) << count.what();
  Error null = expectError(ErrorCode::InvalidArgument, [&] {
    rec.dispatch(p, {{a.handle()}, {nullptr}}, 1);
  });
  EXPECT_TRUE(has(null.what(), "binding 1 (storage) has no buffer")) << null.what();
  Error align = expectError(ErrorCode::InvalidArgument, [&] {
    rec.dispatch(p, {{a.handle(), 4, 16}, {b.handle()}}, 1);
  });
  EXPECT_TRUE(has(align.what(), "minStorageBufferOffsetAlignment")) << align.what();
  Error range = expectError(ErrorCode::InvalidArgument, [&] {
    rec.dispatch(p, {{a.handle(), 0, 4096}, {b.handle()}}, 1);
  });
  EXPECT_TRUE(has(range.what(), "outside its buffer")) << range.what();
  const uint32_t max = static_cast<uint32_t>(dev.profile().limit("maxComputeWorkgroupsPerDimension"));
  Error big = expectError(ErrorCode::InvalidArgument, [&] {
    rec.dispatch(p, {{a.handle()}, {b.handle()}}, max + 1);
  });
  EXPECT_TRUE(has(big.what(), "maxComputeWorkgroupsPerDimension")) << big.what();
  EXPECT_EQ(rec.dispatchCount(), 0u);
}

TEST(Errors, ReadbackWithoutCopySrcIsAGpuError) {
  Device& dev = sharedDevice();
  Buffer b = dev.createBuffer(16, BufferUsage::Storage);
  Error e = expectError(ErrorCode::Gpu, [&] { b.readback(); });
  EXPECT_TRUE(has(e.what(), "CopySrc")) << e.what();
  expectDeviceStillWorks();
}

}  // namespace
}  // namespace wgk::gpu::test

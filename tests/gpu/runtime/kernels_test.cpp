// The three embedded kernels through Kernel::operator() and Kernel::call, against the CPU
// references, in every dtype their contracts allow; empty tensors; a runtime on a caller's device.
#include <gtest/gtest.h>

#include "gpu/device.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

TEST(RuntimeKernels, LoadsEmbeddedPackagesByRepoId) {
  Kernel k = kernel(kGelu);
  ASSERT_TRUE(k);
  EXPECT_EQ(k.source().opId, kGelu);
  EXPECT_EQ(k.source().origin, "embedded");
  EXPECT_EQ(k.source().repo, std::string("webgpu-kernels/") + kGelu);
  EXPECT_EQ(k.source().requested, "v1");
}

TEST(RuntimeKernels, FastGeluOperatorMatchesReference) {
  Kernel gelu = kernel(kGelu);
  for (DType dt : {DType::Float16, DType::Float32}) {
    SCOPED_TRACE(dtypeName(dt));
    // vec4 with bias, vec4 without, and an odd size (tail kernel) with bias.
    std::map<std::string, HostTensor> a{{"X", rnd(dt, {4, 64}, 1, -6, 6)}, {"bias", rnd(dt, {64}, 2, -1, 1)}};
    expectMatchesReference(kGelu, a, gelu(a));
    std::map<std::string, HostTensor> b{{"X", rnd(dt, {3, 16}, 3, -6, 6)}};
    expectMatchesReference(kGelu, b, gelu(b));
    std::map<std::string, HostTensor> c{{"X", rnd(dt, {5, 7}, 4, -6, 6)}, {"bias", rnd(dt, {7}, 5, -1, 1)}};
    expectMatchesReference(kGelu, c, gelu(c));
  }
}

TEST(RuntimeKernels, RmsNormalizationOperatorMatchesReference) {
  Kernel rms = kernel(kRms);
  for (DType t : {DType::Float16, DType::Float32}) {
    for (DType v : {DType::Float16, DType::Float32}) {
      SCOPED_TRACE(std::string(dtypeName(t)) + " -> " + std::string(dtypeName(v)));
      std::map<std::string, HostTensor> in{{"x", rnd(t, {3, 64}, 10)}, {"scale", rnd(v, {64}, 11, -2, 2)}};
      expectMatchesReference(kRms, in, rms(in));
    }
  }
  // Attributes: a suffix axis, an epsilon, and the f16 stash.
  std::map<std::string, HostTensor> in{{"x", rnd(DType::Float32, {2, 3, 5}, 12)},
                                       {"scale", rnd(DType::Float32, {3, 5}, 13, -2, 2)}};
  const std::map<std::string, Attribute> attrs{{"axis", int64_t{1}}, {"epsilon", 1e-3}};
  expectMatchesReference(kRms, in, rms(in, attrs), attrs);
  std::map<std::string, HostTensor> h{{"x", rnd(DType::Float16, {3, 16}, 14)},
                                      {"scale", rnd(DType::Float16, {16}, 15, -2, 2)}};
  const std::map<std::string, Attribute> stash{{"stash_type", int64_t{10}}};
  expectMatchesReference(kRms, h, rms(h, stash), stash);
}

TEST(RuntimeKernels, GemmaRotaryEmbeddingMatchesReference) {
  Kernel rope = kernel(kRope);
  auto vec4 = ropeInputs(1, 2, 4, 8, 20);
  expectMatchesReference(kRope, vec4, rope(vec4));
  auto scalar = ropeInputs(2, 3, 3, 6, 30);  // head dim not a multiple of 4
  expectMatchesReference(kRope, scalar, rope(scalar));
}

TEST(RuntimeKernels, CallReturnsHostOutputsVariantAndTimings) {
  Kernel gelu = kernel(kGelu);
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float16, {2, 8}, 40, -6, 6)},
                                       {"bias", rnd(DType::Float16, {8}, 41, -1, 1)}};
  CallResult r = gelu.call(refsOf(in), {.timestamps = true});
  EXPECT_TRUE(r.device.empty()) << "host inputs, Auto placement: outputs go to the host";
  expectMatchesReference(kGelu, in, r.host);
  EXPECT_EQ(r.variant, "f16_pairs_bias");  // f16 with bias: the 16-byte pairs variant
  EXPECT_EQ(r.selectedBy, "priority");
  EXPECT_GE(r.timings.gpuUs, 0) << "timestamps were asked for";
  EXPECT_GT(r.timings.totalUs, 0);

  CallResult f = gelu.call(refsOf(in), {.variant = "scalar_bias"});
  EXPECT_EQ(f.variant, "scalar_bias");
  EXPECT_EQ(f.selectedBy, "forced");
  EXPECT_EQ(f.timings.gpuUs, -1) << "no timestamps: not measured";
  expectMatchesReference(kGelu, in, f.host);

  Kernel rope = kernel(kRope);
  auto rin = ropeInputs(2, 3, 5, 8, 50);
  CallResult rr = rope.call(refsOf(rin));
  EXPECT_EQ(rr.variant, "vec4");
  expectMatchesReference(kRope, rin, rr.host);
}

TEST(RuntimeKernels, EmptyTensorsGiveEmptyOutputs) {
  Runtime& rt = runtime();
  Kernel gelu = kernel(kGelu);
  HostTensor x(DType::Float32, {0, 8});
  HostTensor bias = rnd(DType::Float32, {8}, 60);
  auto y = gelu({{"X", x}, {"bias", bias}}).at("Y");
  EXPECT_EQ(y.shape(), (Shape{0, 8}));
  EXPECT_EQ(y.byteSize(), 0u);

  // Empty on the device too: the output is an empty DeviceTensor, and downloads to an empty tensor.
  DeviceTensor xd = rt.upload(HostTensor(DType::Float16, {3, 0}));
  CallResult r = gelu.call({{"X", xd}});
  ASSERT_EQ(r.device.count("Y"), 1u);
  EXPECT_EQ(r.device.at("Y").shape(), (Shape{3, 0}));
  EXPECT_EQ(rt.download(r.device.at("Y")).numel(), 0);

  Kernel rms = kernel(kRms);
  auto yr = rms({{"x", HostTensor(DType::Float32, {0, 8})}, {"scale", rnd(DType::Float32, {8}, 61)}}).at("y");
  EXPECT_EQ(yr.shape(), (Shape{0, 8}));
  auto rope = kernel(kRope)(ropeInputs(1, 2, 0, 4, 62));
  EXPECT_EQ(rope.at("output1T").shape(), (Shape{1, 2, 0, 4}));
  EXPECT_EQ(rope.at("output2T").numel(), 0);

  // The runtime still computes real work afterwards.
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float32, {2, 8}, 63)}};
  expectMatchesReference(kGelu, in, gelu(in));
}

// A runtime bound to a WGPUDevice that another owner (here a gpu::Device) created.
TEST(RuntimeKernels, CreateForDeviceUsesTheCallersDevice) {
  gpu::Device own = gpu::Device::create();
  std::shared_ptr<Runtime> rt = Runtime::createForDevice(own.handle());
  EXPECT_EQ(rt->device().limits, own.profile().limits);
  Kernel gelu = rt->load(std::string("webgpu-kernels/") + kGelu);
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float16, {4, 64}, 70, -6, 6)},
                                       {"bias", rnd(DType::Float16, {64}, 71, -1, 1)}};
  expectMatchesReference(kGelu, in, gelu(in));
  // Device tensors of this runtime live on the caller's device.
  DeviceTensor xd = rt->upload(in.at("X"));
  CallResult r = gelu.call({{"X", xd}, {"bias", in.at("bias")}});
  expectMatchesReference(kGelu, in, {{"Y", rt->download(r.device.at("Y"))}});
  // Destroying the runtime leaves the caller's device usable.
  r = {};
  xd = {};
  rt.reset();
  gpu::Buffer b = own.createBuffer(16, gpu::BufferUsage::Storage | gpu::BufferUsage::CopyDst);
  EXPECT_TRUE(b);
}

TEST(RuntimeKernels, CreateForDeviceRejectsNull) {
  try {
    Runtime::createForDevice(nullptr);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(e.message().find("null"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace wgk::runtime_test

// Where tensors live: GPU-resident chaining without a readback, host and GPU inputs mixed in one
// call, output placement, caller-given output buffers (also at an aligned offset).
#include <gtest/gtest.h>

#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

// FastGelu's output stays on the device and feeds RMSNormalization; the result equals the same
// two calls through host tensors, bit for bit.
TEST(RuntimePlacement, ChainsFastGeluIntoRmsNormOnTheDevice) {
  Runtime& rt = runtime();
  Kernel gelu = kernel(kGelu), rms = kernel(kRms);
  for (DType dt : {DType::Float16, DType::Float32}) {
    SCOPED_TRACE(dtypeName(dt));
    HostTensor x = rnd(dt, {4, 64}, 1, -6, 6), bias = rnd(dt, {64}, 2, -1, 1),
               scale = rnd(dt, {64}, 3, -2, 2);
    const std::map<std::string, Attribute> attrs{{"epsilon", 1e-6}};

    DeviceTensor xd = rt.upload(x), bd = rt.upload(bias), sd = rt.upload(scale);
    CallResult r1 = gelu.call({{"X", xd}, {"bias", bd}});
    ASSERT_TRUE(r1.host.empty()) << "GPU inputs: outputs stay on the device";
    ASSERT_EQ(r1.device.count("Y"), 1u);
    EXPECT_EQ(r1.device.at("Y").dtype(), dt);
    EXPECT_EQ(r1.device.at("Y").shape(), (Shape{4, 64}));
    CallResult r2 = rms.call({{"x", r1.device.at("Y")}, {"scale", sd}}, {.attrs = attrs});
    const HostTensor chained = rt.download(r2.device.at("y"));

    const HostTensor yHost = gelu({{"X", x}, {"bias", bias}}).at("Y");
    const HostTensor viaHost = rms({{"x", yHost}, {"scale", scale}}, attrs).at("y");
    EXPECT_TRUE(sameBytes(chained, viaHost));
    // And both are right: the chain against the references applied in turn.
    expectMatchesReference(kRms, {{"x", yHost}, {"scale", scale}}, {{"y", chained}}, attrs);
  }
}

TEST(RuntimePlacement, MixesHostAndGpuInputsInOneCall) {
  Runtime& rt = runtime();
  Kernel gelu = kernel(kGelu);
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float16, {3, 64}, 10, -6, 6)},
                                       {"bias", rnd(DType::Float16, {64}, 11, -1, 1)}};
  DeviceTensor xd = rt.upload(in.at("X"));
  CallResult r = gelu.call({{"X", xd}, {"bias", in.at("bias")}});
  ASSERT_EQ(r.device.count("Y"), 1u) << "a GPU input makes Auto placement keep outputs on the device";
  expectMatchesReference(kGelu, in, {{"Y", rt.download(r.device.at("Y"))}});

  // The other way round, and Host placement reads back although an input is on the GPU.
  DeviceTensor bd = rt.upload(in.at("bias"));
  CallResult h = gelu.call({{"X", in.at("X")}, {"bias", bd}}, {.placement = OutputPlacement::Host});
  EXPECT_TRUE(h.device.empty());
  expectMatchesReference(kGelu, in, h.host);

  // Device placement with host-only inputs.
  CallResult d = gelu.call(refsOf(in), {.placement = OutputPlacement::Device});
  EXPECT_TRUE(d.host.empty());
  expectMatchesReference(kGelu, in, {{"Y", rt.download(d.device.at("Y"))}});

  // RoPE with three inputs on the GPU and two on the host.
  Kernel rope = kernel(kRope);
  auto rin = ropeInputs(1, 2, 4, 8, 20);
  DeviceTensor q = rt.upload(rin.at("qT")), k = rt.upload(rin.at("kT")), e = rt.upload(rin.at("embT"));
  CallResult rr =
      rope.call({{"embT", e}, {"qT", q}, {"qRotT", rin.at("qRotT")}, {"kT", k}, {"kRotT", rin.at("kRotT")}},
                {.placement = OutputPlacement::Host});
  expectMatchesReference(kRope, rin, rr.host);
}

TEST(RuntimePlacement, WritesIntoCallerGivenOutputs) {
  Runtime& rt = runtime();
  Kernel gelu = kernel(kGelu);
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float32, {4, 64}, 30, -6, 6)},
                                       {"bias", rnd(DType::Float32, {64}, 31, -1, 1)}};
  DeviceTensor out = rt.allocate(DType::Float32, {4, 64});
  DeviceTensor xd = rt.upload(in.at("X"));
  CallOptions o;
  o.outputs["Y"] = out.view();
  CallResult r = gelu.call({{"X", xd}, {"bias", in.at("bias")}}, o);
  EXPECT_TRUE(r.device.empty()) << "the caller's buffer is not returned as a new DeviceTensor";
  EXPECT_TRUE(r.host.empty());
  expectMatchesReference(kGelu, in, {{"Y", rt.download(out)}});

  // Host placement still leaves a caller-given output where the caller put it.
  DeviceTensor out2 = rt.allocate(DType::Float32, {4, 64});
  o.outputs["Y"] = out2.view();
  o.placement = OutputPlacement::Host;
  CallResult h = gelu.call(refsOf(in), o);
  EXPECT_EQ(h.host.count("Y"), 0u);
  expectMatchesReference(kGelu, in, {{"Y", rt.download(out2)}});
}

// Views at an aligned offset inside larger buffers, as input and as output: the bytes around
// them are left alone. (WebGPU forbids binding one buffer as read-only and writable storage in
// the same dispatch, so input and output live in two buffers.)
TEST(RuntimePlacement, BindsTensorsAtAlignedOffsets) {
  Runtime& rt = runtime();
  Kernel gelu = kernel(kGelu);
  const uint64_t align = rt.device().limit("minStorageBufferOffsetAlignment");
  const size_t at = align / 4, n = 64;  // f32 elements before the view; elements in it
  HostTensor x = rnd(DType::Float32, {2, 32}, 40, -6, 6);
  const auto xs = x.toFloats();
  std::vector<float> arena(at + n + 16, -123.0f);
  std::copy(xs.begin(), xs.end(), arena.begin() + static_cast<int64_t>(at));
  const Shape arenaShape{static_cast<int64_t>(arena.size())};
  DeviceTensor in = rt.upload(HostTensor::fromFloats(DType::Float32, arenaShape, arena));
  DeviceTensor out = rt.upload(
      HostTensor::fromFloats(DType::Float32, arenaShape, std::vector<float>(arena.size(), -123.0f)));

  CallOptions o;
  o.outputs["Y"] = GpuTensor{out.view().buffer, DType::Float32, {2, 32}, align};
  gelu.call({{"X", GpuTensor{in.view().buffer, DType::Float32, {2, 32}, align}}}, o);
  const auto got = rt.download(out).toFloats();
  std::vector<float> y(got.begin() + static_cast<int64_t>(at), got.begin() + static_cast<int64_t>(at + n));
  expectMatchesReference(kGelu, {{"X", x}}, {{"Y", HostTensor::fromFloats(DType::Float32, {2, 32}, y)}});
  for (size_t i = 0; i < got.size(); ++i)
    if (i < at || i >= at + n)
      ASSERT_EQ(got[i], -123.0f) << "output buffer element " << i << " outside the view changed";
  EXPECT_EQ(rt.download(in).toFloats(), arena) << "the input buffer is read only";
}

}  // namespace
}  // namespace wgk::runtime_test

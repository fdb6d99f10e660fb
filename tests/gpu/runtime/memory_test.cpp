// Decode loops written the plain way (issue 25): runtime-allocated outputs, the caller keeping only
// the newest. Batches and graphs reuse the buffers of dropped outputs (a constant number of
// buffers, BatchStats), single device calls are deferred into a bounded pending command buffer
// (flushed by a readback, waitIdle, flush() or the size bound; errors surface at the flush naming
// the call), graph replays bind new device inputs instead of copying them, and every mode gives
// the same bits: single (immediate), deferred, batched, replayed and rebound. A dropped runtime
// frees every buffer it made.
#include <gtest/gtest.h>

#include "gpu/buffer.h"
#include "gpu/device.h"
#include "runtime/introspect.h"
#include "runtime_test_util.h"
#include "support/expect_error.h"

namespace wgk::runtime_test {
namespace {

constexpr int64_t kWidth = 512;

// FastGelu then RMSNormalization, `steps` times, each output feeding the next call; only the
// newest tensor is held. `call` is a single call or a batch's.
template <class CallFn>
DeviceTensor naturalChain(CallFn&& call, Kernel& gelu, Kernel& rms, const DeviceTensor& x,
                          const DeviceTensor& scale, int steps) {
  DeviceTensor h = x;
  CallOptions ro;
  ro.attrs = {{"epsilon", 1e-6}};
  for (int i = 0; i < steps; ++i) {
    h = call(gelu, {{"X", h}}, CallOptions{}).at("Y");
    h = call(rms, {{"x", h}, {"scale", scale}}, ro).at("y");
  }
  return h;
}

struct Fixture {
  std::shared_ptr<Runtime> rt;
  Kernel gelu, rms;
  DeviceTensor x, scale;
  explicit Fixture(RuntimeOptions o = {}) : rt(Runtime::create(o)) {
    gelu = rt->load("webgpu-kernels/com.microsoft.FastGelu");
    rms = rt->load("webgpu-kernels/ai.onnx.RMSNormalization");
    x = rt->upload(rnd(DType::Float16, {1, kWidth}, 1));
    scale = rt->upload(rnd(DType::Float16, {kWidth}, 2, -2, 2));
  }
  auto single() {
    return [](Kernel& k, const std::map<std::string, TensorRef>& in, const CallOptions& o) {
      return k.call(in, o).device;
    };
  }
  DeviceTensor singles(const DeviceTensor& from, int steps) {
    return naturalChain(single(), gelu, rms, from, scale, steps);
  }
};

auto batchCall(Batch& b) {
  return [&b](Kernel& k, const std::map<std::string, TensorRef>& in, const CallOptions& o) {
    return b.call(k, in, o);
  };
}

TEST(RuntimeMemory, EveryModeGivesTheSameBits) {
  Fixture immediate(RuntimeOptions{.deferCalls = false});
  const HostTensor want = immediate.rt->download(immediate.singles(immediate.x, 3));
  EXPECT_EQ(immediate.rt->cacheStats().deferredCalls, 0u);

  Fixture s;
  Runtime& rt = *s.rt;
  EXPECT_TRUE(sameBytes(want, rt.download(s.singles(s.x, 3)))) << "deferred";
  EXPECT_EQ(rt.cacheStats().deferredCalls, 6u);
  Batch b = rt.batch();
  const DeviceTensor batched = naturalChain(batchCall(b), s.gelu, s.rms, s.x, s.scale, 3);
  b.submit();
  EXPECT_TRUE(sameBytes(want, rt.download(batched))) << "batched";

  DeviceTensor out;
  Graph g = rt.capture([&](Batch& c) { out = naturalChain(batchCall(c), s.gelu, s.rms, s.x, s.scale, 3); });
  g.replay();
  EXPECT_TRUE(sameBytes(want, rt.download(out))) << "replayed";
  // Rebound: new device inputs are bound (the captured x keeps its bytes), a host input is copied.
  const HostTensor x0 = rt.download(s.x);
  for (uint64_t seed : {11, 12, 11}) {
    const HostTensor xi = rnd(DType::Float16, {1, kWidth}, seed);
    DeviceTensor xd = rt.upload(xi);
    g.replay({{"X", xd}});
    const HostTensor w = immediate.rt->download(immediate.singles(immediate.rt->upload(xi), 3));
    EXPECT_TRUE(sameBytes(w, rt.download(out))) << "rebound to seed " << seed;
  }
  EXPECT_TRUE(sameBytes(x0, rt.download(s.x))) << "a bound input is not copied into the captured one";
  const HostTensor xh = rnd(DType::Float16, {1, kWidth}, 13);
  g.replay({{"X", xh}});
  EXPECT_TRUE(
      sameBytes(immediate.rt->download(immediate.singles(immediate.rt->upload(xh), 3)), rt.download(out)));
  EXPECT_TRUE(sameBytes(xh, rt.download(s.x))) << "a host input is written into the captured buffer";
  // The graph's own output as its input: copied (binding it would read what the replay writes).
  const HostTensor prev = rt.download(out);
  g.replay({{"X", out}});
  EXPECT_TRUE(
      sameBytes(immediate.rt->download(immediate.singles(immediate.rt->upload(prev), 3)), rt.download(out)));
}

TEST(RuntimeMemory, BatchAndGraphChainsUseAConstantNumberOfBuffers) {
  Fixture s;
  Runtime& rt = *s.rt;
  std::vector<BatchStats> stats;
  for (int steps : {4, 16}) {
    Batch b = rt.batch();
    naturalChain(batchCall(b), s.gelu, s.rms, s.x, s.scale, steps);
    b.submit();
    stats.push_back(b.stats());
    EXPECT_EQ(stats.back().calls, 2u * steps);
    EXPECT_EQ(stats.back().outputsAllocated + stats.back().outputsReused, 2u * steps);
  }
  EXPECT_EQ(stats[0].outputsAllocated, stats[1].outputsAllocated) << "buffers grew with the chain";
  EXPECT_EQ(stats[1].outputsAllocated, 2u) << "the output being written and the one it reads";
  EXPECT_EQ(stats[1].submits, 1u);
  std::vector<uint64_t> graphBuffers;
  for (int steps : {4, 16}) {
    Graph g = rt.capture([&](Batch& c) { naturalChain(batchCall(c), s.gelu, s.rms, s.x, s.scale, steps); });
    g.replay();
    graphBuffers.push_back(g.stats().outputsAllocated);
  }
  EXPECT_EQ(graphBuffers[0], graphBuffers[1]);
  // Deferred single calls: the pool hands the dropped output back; nothing new is created.
  rt.download(s.singles(s.x, 4));
  const uint64_t created = rt.cacheStats().buffersCreated;
  rt.download(s.singles(s.x, 16));
  EXPECT_EQ(rt.cacheStats().buffersCreated, created);
}

TEST(RuntimeMemory, ThePendingBufferIsBoundedAndFlushedByReadbacks) {
  Fixture s(RuntimeOptions{.deferMaxCalls = 4, .deferMaxUs = 60'000'000});
  Runtime& rt = *s.rt;
  DeviceTensor h = s.x;
  for (int i = 0; i < 10; ++i) {
    h = s.gelu.call({{"X", h}}).device.at("Y");
    EXPECT_EQ(rt.cacheStats().pendingCalls, static_cast<uint64_t>((i + 1) % 4));
  }
  EXPECT_EQ(rt.cacheStats().flushes, 2u);
  rt.flush();
  EXPECT_EQ(rt.cacheStats().pendingCalls, 0u);
  h = s.gelu.call({{"X", h}}).device.at("Y");
  rt.waitIdle();
  EXPECT_EQ(rt.cacheStats().pendingCalls, 0u);
  h = s.gelu.call({{"X", h}}).device.at("Y");
  const HostTensor got = rt.download(h);  // a readback flushes first
  EXPECT_EQ(rt.cacheStats().pendingCalls, 0u);
  // A host input, a readback or timestamps: not deferred.
  const uint64_t deferred = rt.cacheStats().deferredCalls;
  s.gelu.call({{"X", got}}, {.placement = OutputPlacement::Device});
  s.gelu({{"X", got}});
  EXPECT_EQ(rt.cacheStats().deferredCalls, deferred);
  // A queue write after deferred calls reading the tensor: the calls see the old contents.
  DeviceTensor in = rt.upload(got);
  DeviceTensor y = s.gelu.call({{"X", in}}).device.at("Y");
  rt.write(in, rnd(DType::Float16, {1, kWidth}, 99));
  EXPECT_TRUE(sameBytes(rt.download(y), s.gelu({{"X", got}}).at("Y")));
}

TEST(RuntimeMemory, AnErrorInADeferredCallSurfacesAtTheFlushNamingIt) {
  Fixture s;
  Runtime& rt = *s.rt;
  gpu::Buffer buf = introspect::device(rt).createBuffer(
      2 * kWidth, gpu::BufferUsage::Storage | gpu::BufferUsage::CopySrc, "the output to destroy");
  const GpuTensor y{buf.handle(), DType::Float16, {1, kWidth}};
  s.gelu.call({{"X", s.x}}, {.outputs = {{"Y", y}}});  // deferred
  EXPECT_EQ(rt.cacheStats().pendingCalls, 1u);
  buf.destroy();  // gone before the pending work is submitted
  test_support::expectError([&] { rt.flush(); }, ErrorCode::Gpu,
                            {"deferred call", "call 0 com.microsoft.FastGelu"});
  EXPECT_EQ(rt.cacheStats().pendingCalls, 0u);
  // The runtime goes on.
  const HostTensor x = rt.download(s.x);
  EXPECT_TRUE(sameBytes(rt.download(s.gelu.call({{"X", s.x}}).device.at("Y")), s.gelu({{"X", x}}).at("Y")));
}

TEST(RuntimeMemory, ADroppedRuntimeFreesEveryBuffer) {
  const uint64_t before = gpu::Buffer::liveCount();
  {
    Fixture s;
    Runtime& rt = *s.rt;
    Batch b = rt.batch();
    naturalChain(batchCall(b), s.gelu, s.rms, s.x, s.scale, 3);
    b.submit();
    Graph g = rt.capture([&](Batch& c) { naturalChain(batchCall(c), s.gelu, s.rms, s.x, s.scale, 3); });
    g.replay({{"X", rt.upload(rnd(DType::Float16, {1, kWidth}, 5))}});
    Batch unsubmitted = rt.batch();
    naturalChain(batchCall(unsubmitted), s.gelu, s.rms, s.x, s.scale, 2);
    s.singles(s.x, 2);  // left pending
    EXPECT_GT(rt.cacheStats().pendingCalls, 0u);
    EXPECT_GT(gpu::Buffer::liveCount(), before);
  }
  EXPECT_EQ(gpu::Buffer::liveCount(), before);
}

TEST(RuntimeMemory, RebindingBuildsBindGroupsOnlyWhereTheInputChanged) {
  Fixture s;
  Runtime& rt = *s.rt;
  DeviceTensor out;
  Graph g = rt.capture([&](Batch& c) { out = naturalChain(batchCall(c), s.gelu, s.rms, s.x, s.scale, 2); });
  DeviceTensor a = rt.upload(rnd(DType::Float16, {1, kWidth}, 40)),
               b = rt.upload(rnd(DType::Float16, {1, kWidth}, 41));
  const uint64_t m0 = rt.cacheStats().bindGroupMisses;
  g.replay({{"X", a}});  // the one dispatch reading X (the first FastGelu) gets a new group
  const uint64_t m1 = rt.cacheStats().bindGroupMisses;
  EXPECT_EQ(m1 - m0, 1u);
  g.replay({{"X", a}});  // unchanged: nothing built
  g.replay({{"X", b}});  // a second tensor: one more
  EXPECT_EQ(rt.cacheStats().bindGroupMisses, m1 + 1);
  for (int i = 0; i < 4; ++i) g.replay({{"X", i % 2 ? b : a}});  // ping-pong: the previous group back
  EXPECT_EQ(rt.cacheStats().bindGroupMisses, m1 + 1);
  const HostTensor want = rt.download(s.singles(b, 2));
  EXPECT_TRUE(sameBytes(want, rt.download(out)));
}

TEST(RuntimeMemory, AnInOutInputIsCopiedNotBound) {
  Runtime& rt = runtime();
  Kernel k = rt.load(std::string(WGK_SOURCE_DIR) + "/tests/data/spec21/wgk.test.Scale");
  const HostTensor x = rnd(DType::Float32, {300}, 30), acc = rnd(DType::Float32, {300}, 31);
  DeviceTensor accCaptured = rt.upload(acc), accOther = rt.upload(acc);
  const CallOptions o{.args = {{"scale", 2.0}}, .placement = OutputPlacement::Device};
  Graph g = rt.capture([&](Batch& b) { b.call(k, {{"x", x}, {"acc", accCaptured}}, o); });
  g.replay({{"acc", accOther}});  // acc is written in place by the graph: copied in, not bound
  EXPECT_TRUE(sameBytes(acc, rt.download(accOther))) << "the given tensor was updated in place";
  EXPECT_FALSE(sameBytes(acc, rt.download(accCaptured)));
}

}  // namespace
}  // namespace wgk::runtime_test

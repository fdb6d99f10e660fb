// Batch and Graph (wgk/batch.h) against single calls: bit-identical results for a decode-size chain
// of the embedded kernels (FastGelu -> RMSNormalization -> GemmaRotaryEmbedding -> Add; FastGelu -> Softmax),
// ordering, errors that name the failing call, a failed batch leaving the runtime as it was, replay with new
// data, refused replays, spec 2.1 constructs (in/out, zeroInit, submitAfter) inside one batch, and
// the warm single call (no plan miss, no new bind group).
#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "runtime_test_util.h"
#include "support/expect_error.h"

namespace wgk::runtime_test {
namespace {

const char* kAdd = "ai.onnx.Add";
constexpr int64_t kHeads = 8, kHeadDim = 256, kWidth = kHeads * kHeadDim;  // one decode token

// A tensor viewed with another shape (same bytes): the reshape between RMSNorm and RoPE.
GpuTensor reshaped(const DeviceTensor& t, Shape shape) {
  GpuTensor g = t.view();
  g.shape = std::move(shape);
  return g;
}

struct Chain {
  Kernel gelu = kernel(kGelu), rms = kernel(kRms), rope = kernel(kRope), add = kernel(kAdd);
  DeviceTensor x, bias, scale, emb, qRot, k, kRot, residual;
  explicit Chain(uint64_t seed) {
    Runtime& rt = runtime();
    x = rt.upload(rnd(DType::Float16, {1, kWidth}, seed));
    bias = rt.upload(rnd(DType::Float16, {kWidth}, seed + 1, -1, 1));
    scale = rt.upload(rnd(DType::Float16, {kWidth}, seed + 2, -2, 2));
    emb = rt.upload(rnd(DType::Float32, {1, 1, kHeadDim}, seed + 3, 0, 300));
    qRot = rt.upload(rnd(DType::Float16, {1, kHeads, 1, kHeadDim}, seed + 4));
    k = rt.upload(rnd(DType::Float16, {1, kHeads, 1, kHeadDim}, seed + 5));
    kRot = rt.upload(rnd(DType::Float16, {1, kHeads, 1, kHeadDim}, seed + 6));
    residual = rt.upload(rnd(DType::Float16, {1, kHeads, 1, kHeadDim}, seed + 7));
  }
  // The four calls through `call(kernel, inputs, options)` (a single call or a batch's).
  template <class CallFn>
  std::map<std::string, DeviceTensor> run(CallFn&& call, const TensorRef& input) {
    auto h = call(gelu, {{"X", input}, {"bias", bias}}, CallOptions{});
    CallOptions ro;
    ro.attrs = {{"epsilon", 1e-6}};
    auto n = call(rms, {{"x", h.at("Y")}, {"scale", scale}}, ro);
    const GpuTensor q = reshaped(n.at("y"), {1, kHeads, 1, kHeadDim});
    auto r =
        call(rope, {{"embT", emb}, {"qT", q}, {"qRotT", qRot}, {"kT", k}, {"kRotT", kRot}}, CallOptions{});
    auto s = call(add, {{"a", r.at("output1T")}, {"b", residual}}, CallOptions{});
    return {{"y", n.at("y")}, {"q", r.at("output1T")}, {"k", r.at("output2T")}, {"sum", s.at("c")}};
  }
  std::map<std::string, DeviceTensor> single(const TensorRef& input) {
    return run(
        [](Kernel& kk, const std::map<std::string, TensorRef>& in, const CallOptions& o) {
          CallOptions d = o;
          d.placement = OutputPlacement::Device;
          return kk.call(in, d).device;
        },
        input);
  }
};

void expectError(ErrorCode code, const std::string& fragment, const std::function<void()>& fn) {
  test_support::expectError(fn, code, {fragment});
}

void expectSame(const std::map<std::string, DeviceTensor>& want,
                const std::map<std::string, DeviceTensor>& got) {
  ASSERT_EQ(want.size(), got.size());
  for (const auto& [name, w] : want) {
    const HostTensor a = runtime().download(w), b = runtime().download(got.at(name));
    EXPECT_TRUE(sameBytes(a, b)) << "output " << name << " differs from the single calls'";
  }
}

auto batchCall(Batch& b) {
  return [&b](Kernel& k, const std::map<std::string, TensorRef>& in, const CallOptions& o) {
    return b.call(k, in, o);
  };
}

TEST(RuntimeBatch, ChainIsBitIdenticalToSingleCalls) {
  Chain c(100);
  const auto want = c.single(c.x);
  Batch b = runtime().batch();
  const auto got = c.run(batchCall(b), c.x);
  EXPECT_EQ(b.size(), 4u);
  b.submit();
  EXPECT_EQ(b.size(), 0u);
  expectSame(want, got);
  // The chain's result is also what the CPU reference says for its first step.
  std::map<std::string, HostTensor> in{{"X", runtime().download(c.x)}, {"bias", runtime().download(c.bias)}};
  (void)in;
}

TEST(RuntimeBatch, HostInputsAreUploadedAtRecordTime) {
  Chain c(110);
  HostTensor x = runtime().download(c.x);
  const auto want = c.single(c.x);
  Batch b = runtime().batch();
  const auto got = c.run(batchCall(b), x);
  x = rnd(DType::Float16, {1, kWidth}, 999);  // changing the host tensor after recording changes nothing
  b.submit();
  expectSame(want, got);
}

TEST(RuntimeBatch, LaterCallsSeeEarlierWritesInOrder) {
  Chain c(120);
  Runtime& rt = runtime();
  DeviceTensor x2 = rt.upload(rnd(DType::Float16, {1, kWidth}, 121));
  DeviceTensor shared = rt.allocate(DType::Float16, {1, kWidth});
  CallOptions toShared;
  toShared.outputs = {{"Y", shared.view()}};
  // gelu(x) -> shared, rms(shared) -> r1, gelu(x2) -> shared (overwrites after r1 read it), rms -> r2.
  Batch b = rt.batch();
  b.call(c.gelu, {{"X", c.x}, {"bias", c.bias}}, toShared);
  auto r1 = b.call(c.rms, {{"x", shared}, {"scale", c.scale}});
  b.call(c.gelu, {{"X", x2}, {"bias", c.bias}}, toShared);
  auto r2 = b.call(c.rms, {{"x", shared}, {"scale", c.scale}});
  b.submit();
  auto single = [&](const DeviceTensor& in) {
    auto h = c.gelu.call({{"X", in}, {"bias", c.bias}}).device.at("Y");
    return rt.download(c.rms.call({{"x", h}, {"scale", c.scale}}).device.at("y"));
  };
  EXPECT_TRUE(sameBytes(rt.download(r1.at("y")), single(c.x)));
  EXPECT_TRUE(sameBytes(rt.download(r2.at("y")), single(x2)));
  EXPECT_FALSE(sameBytes(rt.download(r1.at("y")), rt.download(r2.at("y"))));
}

TEST(RuntimeBatch, ErrorsNameTheFailingCallAndKeepTheEarlierOnes) {
  Chain c(130);
  Runtime& rt = runtime();
  Batch b = rt.batch();
  auto h = b.call(c.gelu, {{"X", c.x}, {"bias", c.bias}});
  auto n = b.call(c.rms, {{"x", h.at("Y")}, {"scale", c.scale}});
  expectError(ErrorCode::Contract, "while recording call 2 (ai.onnx.RMSNormalization) of the batch", [&] {
    b.call(c.rms, {{"x", n.at("y")}, {"scale", c.scale}}, {.attrs = {{"bogus", int64_t{1}}}});
  });
  expectError(ErrorCode::InvalidArgument, "OutputPlacement::Host", [&] {
    b.call(c.gelu, {{"X", c.x}}, {.placement = OutputPlacement::Host});
  });
  EXPECT_EQ(b.size(), 2u) << "the failed calls recorded nothing";
  b.submit();
  auto want = rt.download(
      c.rms.call({{"x", c.gelu.call({{"X", c.x}, {"bias", c.bias}}).device.at("Y")}, {"scale", c.scale}})
          .device.at("y"));
  EXPECT_TRUE(sameBytes(rt.download(n.at("y")), want));
}

TEST(RuntimeBatch, AFailedBatchLeavesThePoolAndCachesAsTheyWere) {
  Chain c(140);
  Runtime& rt = runtime();
  auto attempt = [&](bool fail) {
    Batch b = rt.batch();
    auto h = b.call(c.gelu, {{"X", c.x}, {"bias", c.bias}});
    GpuTensor tooBig = h.at("Y").view();
    if (fail) tooBig.shape = {4, kWidth};  // claims more bytes than its buffer has: refused at record
    b.call(c.rms, {{"x", tooBig}, {"scale", c.scale}});
    b.submit();
  };
  attempt(false);  // warm: plans, pipelines and pooled buffers exist
  rt.waitIdle();
  const CacheStats before = rt.cacheStats();
  expectError(ErrorCode::InvalidArgument, "while recording call 1 (ai.onnx.RMSNormalization)",
              [&] { attempt(true); });
  const CacheStats after = rt.cacheStats();
  EXPECT_EQ(after.pooledBuffers, before.pooledBuffers) << "the failed batch's buffers went back to the pool";
  EXPECT_EQ(after.planMisses, before.planMisses);
  EXPECT_EQ(after.shaderModulesCompiled, before.shaderModulesCompiled);
  // Still usable: the next batch runs and matches.
  const auto want = c.single(c.x);
  Batch b = rt.batch();
  const auto got = c.run(batchCall(b), c.x);
  b.submit();
  expectSame(want, got);
}

TEST(RuntimeBatch, DroppedWithoutSubmitReturnsItsBuffers) {
  Chain c(150);
  Runtime& rt = runtime();
  {
    Batch b = rt.batch();
    c.run(batchCall(b), c.x);
    b.submit();
  }
  rt.waitIdle();
  const uint64_t pooled = rt.cacheStats().pooledBuffers;
  const HostTensor host = rt.download(c.x);  // a host input: a staging buffer too
  {
    Batch b = rt.batch();
    c.run(batchCall(b), host);
  }
  // Every buffer the dropped batch took is back in the pool (it may have made one the pool lacked),
  // so the same batch dropped again finds them all and the pool neither shrinks nor grows.
  const uint64_t afterFirst = rt.cacheStats().pooledBuffers;
  EXPECT_GE(afterFirst, pooled);
  {
    Batch b = rt.batch();
    c.run(batchCall(b), host);
  }
  EXPECT_EQ(rt.cacheStats().pooledBuffers, afterFirst);
}

TEST(RuntimeBatch, InOutZeroInitAndSubmitAfterInOneBatch) {
  Kernel k = runtime().load(std::string(WGK_SOURCE_DIR) + "/tests/data/spec21/wgk.test.Scale");
  const int n = 300;
  HostTensor x = rnd(DType::Float32, {n}, 160), acc = rnd(DType::Float32, {n}, 161);
  Runtime& rt = runtime();
  // Single calls: acc updated in place twice (the zeroInit intermediate starts at zero each time).
  DeviceTensor accSingle = rt.upload(acc);
  CallOptions o{.args = {{"scale", 2.0}}, .placement = OutputPlacement::Device};
  CallResult s1 = k.call({{"x", x}, {"acc", accSingle}}, o);
  CallResult s2 = k.call({{"x", s1.device.at("y")}, {"acc", accSingle}}, o);
  // The same two calls in one batch.
  DeviceTensor accBatch = rt.upload(acc);
  Batch b = rt.batch();
  auto b1 = b.call(k, {{"x", x}, {"acc", accBatch}}, o);
  auto b2 = b.call(k, {{"x", b1.at("y")}, {"acc", accBatch}}, o);
  b.submit();
  EXPECT_TRUE(sameBytes(rt.download(accSingle), rt.download(accBatch)));
  EXPECT_TRUE(sameBytes(rt.download(s2.device.at("y")), rt.download(b2.at("y"))));
  // An in/out port given as a host tensor is returned, as by a single call.
  Batch h = rt.batch();
  auto r = h.call(k, {{"x", x}, {"acc", acc}}, o);
  h.submit();
  EXPECT_EQ(r.count("acc"), 1u);
}

TEST(RuntimeBatch, SoftmaxAfterFastGeluIsBitIdenticalBatchedAndReplayed) {
  Chain c(170);
  Runtime& rt = runtime();
  Kernel softmax = kernel("ai.onnx.Softmax");
  auto h = c.gelu.call({{"X", c.x}, {"bias", c.bias}}).device.at("Y");
  const HostTensor want = rt.download(softmax.call({{"x", h}}).device.at("y"));
  Batch b = rt.batch();
  auto y = b.call(softmax, {{"x", b.call(c.gelu, {{"X", c.x}, {"bias", c.bias}}).at("Y")}}).at("y");
  b.submit();
  EXPECT_TRUE(sameBytes(want, rt.download(y)));
  DeviceTensor out;
  Graph g = rt.capture([&](Batch& cb) {
    out = cb.call(softmax, {{"x", cb.call(c.gelu, {{"X", c.x}, {"bias", c.bias}}).at("Y")}}).at("y");
  });
  g.replay();
  EXPECT_TRUE(sameBytes(want, rt.download(out)));
}

TEST(RuntimeGraph, ReplayIsBitIdenticalAndTakesNewData) {
  Chain c(200);
  Runtime& rt = runtime();
  std::map<std::string, DeviceTensor> out;
  Graph g = rt.capture([&](Batch& b) { out = c.run(batchCall(b), c.x); });
  EXPECT_EQ(g.calls(), 4u);
  EXPECT_GE(g.dispatches(), 4u);
  ASSERT_FALSE(g.inputs().empty());
  EXPECT_EQ(g.inputs().front().name, "X");
  g.replay();
  expectSame(c.single(c.x), out);
  // New data for X, from the host and from the device: the result follows it.
  const HostTensor x1 = rnd(DType::Float16, {1, kWidth}, 201);
  g.replay({{"X", x1}});
  expectSame(c.single(x1), out);
  DeviceTensor x2 = rt.upload(rnd(DType::Float16, {1, kWidth}, 202));
  g.replay({{"X", x2}});
  expectSame(c.single(x2), out);
  EXPECT_TRUE(sameBytes(rt.download(c.x), x1)) << "a device input is bound, not copied into the captured one";
}

TEST(RuntimeGraph, ReplayRefusesOtherShapesDtypesAndNames) {
  Chain c(210);
  Runtime& rt = runtime();
  std::map<std::string, DeviceTensor> out;
  Graph g = rt.capture([&](Batch& b) { out = c.run(batchCall(b), c.x); });
  g.replay();
  const HostTensor before = rt.download(out.at("sum"));
  expectError(ErrorCode::InvalidArgument, "fixed at capture", [&] {
    g.replay({{"X", rnd(DType::Float16, {1, 2 * kWidth}, 211)}});
  });
  expectError(ErrorCode::InvalidArgument, "fixed at capture", [&] {
    g.replay({{"X", rnd(DType::Float32, {1, kWidth}, 212)}});
  });
  expectError(ErrorCode::InvalidArgument, "has no input 'Q'", [&] { g.replay({{"Q", rt.download(c.x)}}); });
  rt.waitIdle();
  EXPECT_TRUE(sameBytes(before, rt.download(out.at("sum")))) << "a refused replay runs nothing";
  Graph empty;
  expectError(ErrorCode::InvalidArgument, "empty wgk::Graph", [&] { empty.replay(); });
}

TEST(RuntimeGraph, InputNamesTakeTheCallIndexWhenTaken) {
  Kernel gelu = kernel(kGelu);
  Runtime& rt = runtime();
  DeviceTensor a = rt.upload(rnd(DType::Float16, {1, 64}, 220)),
               b2 = rt.upload(rnd(DType::Float16, {1, 64}, 221));
  Graph g = rt.capture([&](Batch& b) {
    auto y = b.call(gelu, {{"X", a}}).at("Y");
    b.call(gelu, {{"X", y}});   // reads an output: not an input
    b.call(gelu, {{"X", b2}});  // another X
    b.call(gelu, {{"X", a}});   // the first X again
  });
  std::vector<std::string> names;
  for (const auto& in : g.inputs()) names.push_back(in.name);
  EXPECT_EQ(names, (std::vector<std::string>{"X", "2.X"}));
}

TEST(RuntimeBatch, ThreadsRecordTheirOwnBatches) {
  Chain c(230);
  const auto want = c.single(c.x);
  std::vector<std::map<std::string, DeviceTensor>> got(3);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      Batch b = runtime().batch();
      got[t] = c.run(batchCall(b), c.x);
      b.submit();
    });
  for (auto& th : threads) th.join();
  for (const auto& g : got) expectSame(want, g);
}

TEST(RuntimeWarmCall, NoPlanMissAndNoNewBindGroup) {
  std::shared_ptr<Runtime> owner = Runtime::create();
  Runtime& rt = *owner;
  Kernel rms = rt.load("webgpu-kernels/ai.onnx.RMSNormalization");
  DeviceTensor x = rt.upload(rnd(DType::Float16, {1, 4096}, 240));
  DeviceTensor scale = rt.upload(rnd(DType::Float16, {4096}, 241));
  DeviceTensor y = rt.allocate(DType::Float16, {1, 4096});
  CallOptions o{.attrs = {{"epsilon", 1e-6}}, .outputs = {{"y", y.view()}}};
  rms.call({{"x", x}, {"scale", scale}}, o);
  const CacheStats a = rt.cacheStats();
  for (int i = 0; i < 3; ++i) rms.call({{"x", x}, {"scale", scale}}, o);
  const CacheStats b = rt.cacheStats();
  EXPECT_EQ(b.planMisses, a.planMisses);
  EXPECT_EQ(b.planHits, a.planHits + 3);
  EXPECT_EQ(b.bindGroupMisses, a.bindGroupMisses);
  EXPECT_GE(b.bindGroupHits, a.bindGroupHits + 3);
  EXPECT_EQ(b.shaderModulesCompiled, a.shaderModulesCompiled);
  const HostTensor y6 = rt.download(y);
  // Another epsilon is another request: planned, not taken from the memo of the first.
  o.attrs = {{"epsilon", 0.5}};
  rms.call({{"x", x}, {"scale", scale}}, o);
  EXPECT_EQ(rt.cacheStats().planMisses, b.planMisses + 1);
  EXPECT_FALSE(sameBytes(y6, rt.download(y)));
}

}  // namespace
}  // namespace wgk::runtime_test

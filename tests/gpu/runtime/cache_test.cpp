// The runtime's caches: a repeated call plans and compiles nothing and reuses its bind groups;
// kernels rendering the same shader share one pipeline; the buffer pool does not grow.
#include <gtest/gtest.h>

#include "runtime/buffer_pool.h"
#include "runtime/introspect.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

// Each test starts from empty caches (its own Runtime), so the counts hold however the tests are
// run: one process per test (ctest), all in one process, or repeated.
std::shared_ptr<Runtime> freshRuntime() {
  return Runtime::create();
}
Kernel load(Runtime& rt, const std::string& opId) {
  return rt.load("webgpu-kernels/" + opId);
}

TEST(RuntimeCaches, SecondIdenticalCallCompilesNothing) {
  std::shared_ptr<Runtime> owner = freshRuntime();
  Runtime& rt = *owner;
  Kernel gelu = load(rt, kGelu);
  // A shape no other test uses, so the first call is a miss even when tests share a process.
  HostTensor bias = rnd(DType::Float16, {48}, 2, -1, 1);
  const CacheStats s0 = rt.cacheStats();
  gelu({{"X", rnd(DType::Float16, {5, 48}, 1)}, {"bias", bias}});
  const CacheStats a = rt.cacheStats();
  EXPECT_EQ(a.planMisses, s0.planMisses + 1);
  EXPECT_EQ(a.bindGroupMisses, s0.bindGroupMisses + 1);

  // Same request (new data): the plan, the pipeline and the bind group (same upload and readback
  // buffers) all come from the caches.
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float16, {5, 48}, 3)}, {"bias", bias}};
  expectMatchesReference(kGelu, in, gelu(in));
  const CacheStats b = rt.cacheStats();
  EXPECT_EQ(b.shaderModulesCompiled, a.shaderModulesCompiled);
  EXPECT_EQ(b.planMisses, a.planMisses);
  EXPECT_EQ(b.planHits, a.planHits + 1);
  EXPECT_EQ(b.bindGroupMisses, a.bindGroupMisses);
  EXPECT_EQ(b.bindGroupHits, a.bindGroupHits + 1);
}

TEST(RuntimeCaches, GpuResidentCallsReuseBindGroupsForTheSameBuffers) {
  std::shared_ptr<Runtime> owner = freshRuntime();
  Runtime& rt = *owner;
  Kernel rms = load(rt, kRms);
  // A two-pass plan (split-k, forced: lavapipe demotes it): each pass has its own bind group.
  DeviceTensor x = rt.upload(rnd(DType::Float16, {2, 16384}, 10));
  DeviceTensor scale = rt.upload(rnd(DType::Float32, {16384}, 11, -2, 2));
  DeviceTensor y = rt.allocate(DType::Float32, {2, 16384});
  CallOptions o;
  o.variant = "suffix_axis_splitk";
  o.outputs["y"] = y.view();
  const CallResult first = rms.call({{"x", x}, {"scale", scale}}, o);
  EXPECT_EQ(first.variant, "suffix_axis_splitk");
  const CacheStats a = rt.cacheStats();
  for (int i = 0; i < 5; ++i) rms.call({{"x", x}, {"scale", scale}}, o);
  const CacheStats b = rt.cacheStats();
  EXPECT_EQ(b.shaderModulesCompiled, a.shaderModulesCompiled);
  EXPECT_EQ(b.planHits, a.planHits + 5);
  EXPECT_EQ(b.bindGroupMisses, a.bindGroupMisses);
  EXPECT_EQ(b.bindGroupHits, a.bindGroupHits + 10) << "2 passes x 5 calls";

  // Another output buffer: a new bind group for the pass that writes it, no compilation or planning.
  DeviceTensor y2 = rt.allocate(DType::Float32, {2, 16384});
  o.outputs["y"] = y2.view();
  rms.call({{"x", x}, {"scale", scale}}, o);
  const CacheStats c = rt.cacheStats();
  EXPECT_EQ(c.bindGroupMisses, b.bindGroupMisses + 1) << "only the normalize pass binds y";
  EXPECT_EQ(c.shaderModulesCompiled, b.shaderModulesCompiled);
  EXPECT_EQ(c.planMisses, b.planMisses);
  EXPECT_TRUE(sameBytes(rt.download(y), rt.download(y2)));
}

TEST(RuntimeCaches, RequestsRenderingTheSameShaderSharePipelines) {
  std::shared_ptr<Runtime> owner = freshRuntime();
  Runtime& rt = *owner;
  Kernel gelu = load(rt, kGelu);
  gelu({{"X", rnd(DType::Float32, {4, 64}, 20)}});
  const CacheStats a = rt.cacheStats();
  // Another shape selecting the same variant: a new plan, but the WGSL does not depend on the
  // element count (it is a uniform), so no new compilation.
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float32, {8, 128}, 21)}};
  expectMatchesReference(kGelu, in, gelu(in));
  const CacheStats b = rt.cacheStats();
  EXPECT_EQ(b.planMisses, a.planMisses + 1);
  EXPECT_EQ(b.shaderModulesCompiled, a.shaderModulesCompiled);
  EXPECT_EQ(b.pipelineHits, a.pipelineHits + 1);
}

TEST(RuntimeCaches, TwoKernelsRenderingTheSameShaderShareAPipeline) {
  std::shared_ptr<Runtime> owner = freshRuntime();
  Runtime& rt = *owner;
  Kernel byRepo = load(rt, kGelu);
  // The same package by folder path is a second kernel (its own plan cache) ...
  Kernel byPath = rt.load(std::string(WGK_SOURCE_DIR) + "/packages/webgpu-kernels/" + kGelu);
  ASSERT_NE(wgk::introspect::identity(byRepo), wgk::introspect::identity(byPath));
  EXPECT_EQ(byPath.source().origin, "path");
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float16, {2, 64}, 30)}};
  byRepo(in);
  const CacheStats a = rt.cacheStats();
  // ... whose plans render the same WGSL: the runtime's pipeline cache serves it.
  expectMatchesReference(kGelu, in, byPath(in));
  const CacheStats b = rt.cacheStats();
  EXPECT_EQ(b.planMisses, a.planMisses + 1);
  EXPECT_EQ(b.shaderModulesCompiled, a.shaderModulesCompiled);
  EXPECT_EQ(b.pipelineHits, a.pipelineHits + 1);

  // Loading the same repo id again returns the same kernel, plan cache included.
  Kernel again = load(rt, kGelu);
  EXPECT_EQ(wgk::introspect::identity(again), wgk::introspect::identity(byRepo));
  again(in);
  EXPECT_EQ(rt.cacheStats().planHits, b.planHits + 1);
}

TEST(RuntimeCaches, PooledDeviceOutputsAreReusedNotAccumulated) {
  std::shared_ptr<Runtime> owner = freshRuntime();
  Runtime& rt = *owner;
  Kernel gelu = load(rt, kGelu);
  DeviceTensor x = rt.upload(rnd(DType::Float16, {4, 64}, 40));
  { gelu.call({{"X", x}}); }  // its output returns to the pool when the result goes away
  const CacheStats a = rt.cacheStats();
  EXPECT_GE(a.pooledBuffers, 1u);
  for (int i = 0; i < 50; ++i) {
    CallResult r = gelu.call({{"X", x}});
    ASSERT_EQ(r.device.count("Y"), 1u);
  }
  const CacheStats b = rt.cacheStats();
  EXPECT_EQ(b.pooledBuffers, a.pooledBuffers) << "each call's output buffer came from the pool and went back";
  EXPECT_EQ(b.bindGroupMisses, a.bindGroupMisses)
      << "the pooled output buffer is the same, so is the bind group";
  EXPECT_EQ(b.shaderModulesCompiled, a.shaderModulesCompiled);
}

// A pool full of an earlier workload's buffers keeps recycling the next one's: releasing past the
// capacity evicts the idle buffers released longest ago. It used to drop the new buffer instead, so
// after a decode chain's MatMul cases had filled the pool every later call created a buffer (1,200
// in a 300-call Softmax chain on the H100).
TEST(RuntimeCaches, AFullPoolEvictsItsOldestBuffersForNewSizes) {
  gpu::Device device = gpu::Device::create();
  const auto usage = gpu::BufferUsage::Storage | gpu::BufferUsage::CopySrc | gpu::BufferUsage::CopyDst;
  runtime::BufferPool pool(device, 1u << 20);  // 1 MiB idle at most
  std::vector<gpu::Buffer> old;
  for (int i = 0; i < 4; ++i) old.push_back(pool.acquire(256u << 10, usage));
  for (auto& b : old) pool.release(std::move(b));
  ASSERT_EQ(pool.idleBytes(), 1u << 20) << "the earlier workload fills the pool";
  const uint64_t created = pool.created();
  for (int call = 0; call < 20; ++call) {  // the next workload: one 448 KiB output a call
    gpu::Buffer out = pool.acquire(448u << 10, usage);
    pool.release(std::move(out));
  }
  EXPECT_EQ(pool.created(), created + 1) << "the first call creates its buffer, the other 19 reuse it";
  EXPECT_LE(pool.idleBytes(), 1u << 20);
  EXPECT_EQ(pool.idleBuffers(), 3u) << "two of the old 256 KiB buffers were evicted to make room";
  // The oldest go first: the newest old buffer is still there.
  EXPECT_TRUE(pool.take(256u << 10, usage));
  pool.trim();
}

}  // namespace
}  // namespace wgk::runtime_test

// The in-memory pipeline cache (runtime/pipeline_cache.h): least recently used first out, its
// counters, a bound that holds however many shaders pass through, an evicted pipeline compiled
// again and right, and keys that tell apart what the text or the layout tells apart.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpu/command_list.h"
#include "gpu/device.h"
#include "runtime/introspect.h"
#include "runtime/pipeline_cache.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

using runtime::PipelineCache;
using runtime::PipelineKey;

const std::vector<gpu::BindingKind> kLayout = {gpu::BindingKind::Storage};

// A shader that writes `k` to y[0]: one distinct text per k.
std::string shaderWriting(int k) {
  return "@group(0) @binding(0) var<storage, read_write> y: array<f32>;\n"
         "@compute @workgroup_size(1) fn main() { y[0] = " +
         std::to_string(k) + ".0; }\n";
}
PipelineKey keyOf(int k) {
  return PipelineKey::of("test/s" + std::to_string(k), shaderWriting(k), kLayout);
}
gpu::ComputePipeline get(PipelineCache& cache, int k) {
  return cache.get(keyOf(k), shaderWriting(k), kLayout, "s" + std::to_string(k));
}
std::vector<std::string> names(std::initializer_list<int> ks) {
  std::vector<std::string> out;
  for (int k : ks) out.push_back("test/s" + std::to_string(k));
  return out;
}

// Runs `p` once and returns what it wrote to y[0].
float run(gpu::Device& dev, const gpu::ComputePipeline& p) {
  gpu::Buffer y = dev.createBuffer(16, gpu::BufferUsage::Storage | gpu::BufferUsage::CopySrc, "y");
  const gpu::BindingEntry entry{y.handle(), 0, 16};
  auto group = std::make_shared<const gpu::BindGroup>(dev.createBindGroup(p, std::span(&entry, 1), "y"));
  gpu::CommandList cl;
  cl.dispatch(p, group, 1);
  cl.submit(dev, /*checked=*/true);
  float out = 0;
  y.readback(&out, sizeof out);
  return out;
}

gpu::Device& device() {
  return introspect::device(runtime());
}

TEST(PipelineCacheLru, EvictsTheLeastRecentlyUsedAndCountsHitsMissesEvictions) {
  PipelineCache cache(device(), 3);
  get(cache, 0), get(cache, 1), get(cache, 2);
  EXPECT_EQ(cache.names(), names({2, 1, 0}));
  EXPECT_EQ(cache.misses(), 3u);
  EXPECT_EQ(cache.compiled(), 3u);
  get(cache, 0);  // a hit makes 0 the most recent: 1 is now the least
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.names(), names({0, 2, 1}));
  get(cache, 3);
  EXPECT_EQ(cache.names(), names({3, 0, 2}));
  EXPECT_EQ(cache.evictions(), 1u);
  // The evicted one is compiled again (a miss), evicting the next least recently used, and runs.
  gpu::ComputePipeline again = get(cache, 1);
  EXPECT_EQ(cache.names(), names({1, 3, 0}));
  EXPECT_EQ(cache.misses(), 5u);
  EXPECT_EQ(cache.compiled(), 5u);
  EXPECT_EQ(cache.evictions(), 2u);
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(run(device(), again), 1.0f);
  EXPECT_EQ(run(device(), get(cache, 0)), 0.0f);  // a hit still runs its own shader
  EXPECT_EQ(cache.hits(), 2u);
}

TEST(PipelineCacheLru, BoundHoldsForManyDistinctShaders) {
  constexpr int kCapacity = 8, kShaders = 40;
  PipelineCache cache(device(), kCapacity);
  for (int k = 0; k < kShaders; ++k) {
    get(cache, k);
    ASSERT_LE(cache.size(), static_cast<uint64_t>(kCapacity)) << "after shader " << k;
  }
  EXPECT_EQ(cache.size(), static_cast<uint64_t>(kCapacity));
  EXPECT_EQ(cache.compiled(), static_cast<uint64_t>(kShaders));
  EXPECT_EQ(cache.evictions(), static_cast<uint64_t>(kShaders - kCapacity));
  EXPECT_EQ(cache.hits(), 0u);
  EXPECT_EQ(cache.names(), names({39, 38, 37, 36, 35, 34, 33, 32}));
  EXPECT_EQ(PipelineCache(device(), 0).capacity(), PipelineCache::kDefaultCapacity);
}

TEST(PipelineCacheLru, KeysTellApartTextLayoutAndName) {
  PipelineCache cache(device(), 16);
  const std::string a = shaderWriting(7);
  const std::string b = shaderWriting(8);
  // One name, two texts: two pipelines (the digest is part of the key), each running its own.
  gpu::ComputePipeline pa = cache.get(PipelineKey::of("same/name", a, kLayout), a, kLayout, "a");
  gpu::ComputePipeline pb = cache.get(PipelineKey::of("same/name", b, kLayout), b, kLayout, "b");
  EXPECT_EQ(cache.compiled(), 2u);
  EXPECT_EQ(run(device(), pa), 7.0f);
  EXPECT_EQ(run(device(), pb), 8.0f);
  // The same text under another layout is another digest.
  const std::vector<gpu::BindingKind> other = {gpu::BindingKind::Storage, gpu::BindingKind::Uniform};
  EXPECT_NE(PipelineKey::of("n", a, kLayout).digest, PipelineKey::of("n", a, other).digest);
  EXPECT_EQ(PipelineKey::of("n", a, kLayout).digest.size(), 64u);  // SHA-256, hex
  // The same name and text again: a hit.
  cache.get(PipelineKey::of("same/name", a, kLayout), a, kLayout, "a");
  EXPECT_EQ(cache.hits(), 1u);
}

// Through a runtime: a bound of one pipeline, kernels of several shaders, the counters in
// CacheStats, and a new plan needing an evicted pipeline gets it compiled again, with right results.
TEST(PipelineCacheLru, RuntimeBoundAndRecompiledPipelineGivesRightResults) {
  RuntimeOptions o;
  o.maxPipelines = 1;
  std::shared_ptr<Runtime> rt = Runtime::create(o);
  Kernel gelu = rt->load("webgpu-kernels/" + std::string(kGelu));
  std::map<std::string, HostTensor> f32{{"X", rnd(DType::Float32, {4, 64}, 1)}};
  std::map<std::string, HostTensor> f16{{"X", rnd(DType::Float16, {4, 64}, 2)}};
  expectMatchesReference(kGelu, f32, gelu(f32));
  const CacheStats a = rt->cacheStats();
  EXPECT_EQ(a.pipelinesCached, 1u);
  expectMatchesReference(kGelu, f16, gelu(f16));  // another shader: the f32 one is evicted
  const CacheStats b = rt->cacheStats();
  EXPECT_EQ(b.pipelinesCached, 1u);
  EXPECT_GT(b.pipelineEvictions, a.pipelineEvictions);
  EXPECT_GT(b.pipelineMisses, a.pipelineMisses);
  // The first request again: its plan still holds its pipeline (no compilation) ...
  expectMatchesReference(kGelu, f32, gelu(f32));
  EXPECT_EQ(rt->cacheStats().shaderModulesCompiled, b.shaderModulesCompiled);
  // ... a new shape of it is a new plan, whose pipeline was evicted: compiled again, and right.
  std::map<std::string, HostTensor> f32b{{"X", rnd(DType::Float32, {8, 128}, 3)}};
  expectMatchesReference(kGelu, f32b, gelu(f32b));
  const CacheStats c = rt->cacheStats();
  EXPECT_GT(c.shaderModulesCompiled, b.shaderModulesCompiled);
  EXPECT_EQ(c.pipelineMisses - b.pipelineMisses, c.shaderModulesCompiled - b.shaderModulesCompiled);
  EXPECT_EQ(c.pipelinesCached, 1u);
}

}  // namespace
}  // namespace wgk::runtime_test

// One Runtime called from 4 threads at once: mixed kernels, shapes, dtypes, host and GPU tensors,
// runtime-allocated and caller-given outputs. Every result must match its CPU reference.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

// One call of a mix chosen by (thread, iteration); returns a mismatch description or "".
std::string oneCall(Runtime& rt, int thread, int iter) {
  const uint64_t seed = static_cast<uint64_t>(thread * 1000 + iter);
  const int64_t rows = 1 + (iter % 5), hidden = (iter % 2) ? 64 : 33;
  const DType dt = ((thread + iter) % 2) ? DType::Float16 : DType::Float32;
  const bool onGpu = (iter % 3) != 0;
  switch ((thread + iter) % 3) {
    case 0: {  // FastGelu with a bias
      Kernel k = kernel(kGelu);
      std::map<std::string, HostTensor> in{{"X", rnd(dt, {rows, hidden}, seed, -6, 6)},
                                           {"bias", rnd(dt, {hidden}, seed + 1, -1, 1)}};
      if (!onGpu) return mismatch(kGelu, in, k(in));
      DeviceTensor x = rt.upload(in.at("X"));
      CallResult r = k.call({{"X", x}, {"bias", in.at("bias")}});
      return mismatch(kGelu, in, {{"Y", rt.download(r.device.at("Y"))}});
    }
    case 1: {  // RMSNormalization, GPU runs into a caller-given output
      Kernel k = kernel(kRms);
      std::map<std::string, HostTensor> in{{"x", rnd(dt, {rows, hidden}, seed)},
                                           {"scale", rnd(dt, {hidden}, seed + 1, -2, 2)}};
      if (!onGpu) return mismatch(kRms, in, k(in));
      DeviceTensor x = rt.upload(in.at("x")), s = rt.upload(in.at("scale"));
      DeviceTensor y = rt.allocate(dt, {rows, hidden});
      CallOptions o;
      o.outputs["y"] = y.view();
      k.call({{"x", x}, {"scale", s}}, o);
      return mismatch(kRms, in, {{"y", rt.download(y)}});
    }
    default: {  // GemmaRotaryEmbedding (f16 only), vec4 or scalar head dim
      Kernel k = kernel(kRope);
      auto in = ropeInputs(1, 1 + iter % 3, rows, (iter % 2) ? 8 : 6, seed);
      if (!onGpu) return mismatch(kRope, in, k(in));
      DeviceTensor q = rt.upload(in.at("qT"));
      std::map<std::string, TensorRef> refs = refsOf(in);
      refs.insert_or_assign("qT", TensorRef(q));
      CallResult r = k.call(refs, {.placement = OutputPlacement::Host});
      return mismatch(kRope, in, r.host);
    }
  }
}

TEST(RuntimeThreads, FourThreadsShareOneRuntime) {
  Runtime& rt = runtime();
  constexpr int kThreads = 4, kIterations = 30;
  std::mutex mutex;
  std::vector<std::string> failures;
  int calls = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kIterations; ++i) {
        std::string m;
        try {
          m = oneCall(rt, t, i);
        } catch (const std::exception& e) {
          m = std::string("exception: ") + e.what();
        }
        std::lock_guard lock(mutex);
        ++calls;
        if (!m.empty())
          failures.push_back("thread " + std::to_string(t) + " call " + std::to_string(i) + ": " + m);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(calls, kThreads * kIterations);
  for (const auto& f : failures) ADD_FAILURE() << f;

  // Afterwards the caches are consistent: repeating one of the requests plans and compiles nothing.
  ASSERT_TRUE(oneCall(rt, 0, 0).empty());
  const CacheStats a = rt.cacheStats();
  ASSERT_TRUE(oneCall(rt, 0, 0).empty());
  const CacheStats b = rt.cacheStats();
  EXPECT_EQ(b.shaderModulesCompiled, a.shaderModulesCompiled);
  EXPECT_EQ(b.planMisses, a.planMisses);
}

// Errors in some threads do not disturb correct calls in others.
TEST(RuntimeThreads, FailingCallsInParallelWithGoodOnes) {
  Runtime& rt = runtime();
  std::atomic<int> wrongErrors{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Kernel gelu = kernel(kGelu);
      for (int i = 0; i < 20; ++i) {
        if (t % 2) {
          try {
            gelu({{"X", HostTensor(DType::Int32, {2, 8})}});
            ++wrongErrors;
          } catch (const Error& e) {
            if (e.code() != ErrorCode::Contract) ++wrongErrors;
          }
        } else {
          const std::string m = oneCall(rt, t, i);
          if (!m.empty()) {
            std::lock_guard lock(mutex);
            failures.push_back(m);
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrongErrors.load(), 0);
  for (const auto& f : failures) ADD_FAILURE() << f;
}

}  // namespace
}  // namespace wgk::runtime_test

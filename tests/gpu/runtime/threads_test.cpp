// One Runtime called from 4 threads at once: mixed kernels, shapes, dtypes, host and GPU tensors,
// runtime-allocated and caller-given outputs. Every result must match its CPU reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include "runtime/introspect.h"
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

// Many threads calling one plan (same kernel, dtype and shape) with host tensors: each call's
// readback waits without the GPU lock while the others write the plan's upload buffer and run the
// plan again, and still every call gets the results of its own inputs (the queue orders each
// call's copies before the next call's writes).
TEST(RuntimeThreads, OnePlanFromManyThreadsKeepsEachCallsData) {
  Runtime& rt = runtime();
  constexpr int kThreads = 4, kIterations = 15;
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Kernel k = kernel(kRms);
      for (int i = 0; i < kIterations; ++i) {
        std::map<std::string, HostTensor> in{{"x", rnd(DType::Float32, {3, 64}, 7000 + t * 100 + i)},
                                             {"scale", rnd(DType::Float32, {64}, 9000 + t * 100 + i, -2, 2)}};
        std::string m;
        try {
          m = mismatch(kRms, in, k(in));
        } catch (const std::exception& e) {
          m = std::string("exception: ") + e.what();
        }
        if (!m.empty()) {
          std::lock_guard lock(mutex);
          failures.push_back("thread " + std::to_string(t) + " call " + std::to_string(i) + ": " + m);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& f : failures) ADD_FAILURE() << f;
}

const std::string kSpin = std::string(WGK_SOURCE_DIR) + "/tests/data/faults/wgk.test.Spin";

CallResult spin(Kernel& k, const HostTensor& x, uint32_t spins) {
  return k.call({{"x", x}}, {.args = {{"spins", static_cast<int64_t>(spins)}}});
}

// While thread A waits for the readback of a long call, thread B records, submits and finishes
// calls of its own: the wait does not hold the GPU lock. An ordering check, not a timing one: B
// starts once A is known to wait (introspect::gpuWaiters), and all of B's calls must have returned
// while A still waits, and before A's call returned. With the lock held through the wait (as
// before issue 30), B's first call would block until A's wait had ended.
TEST(RuntimeThreads, ReadbackWaitDoesNotBlockOtherThreadsCalls) {
  Runtime& rt = runtime();
  Kernel spinner = rt.load(kSpin);
  Kernel gelu = kernel(kGelu);
  HostTensor x(DType::Float32, {8});
  for (int i = 0; i < 8; ++i) reinterpret_cast<float*>(x.bytes().data())[i] = 0.5f + i;
  const std::map<std::string, HostTensor> in{{"X", rnd(DType::Float32, {4, 64}, 42)}};
  DeviceTensor xd = rt.upload(in.at("X"));
  // Compile both first, and find how many spins keep this device busy for about 2 s (lavapipe's
  // speed follows the machine and its load).
  gelu.call({{"X", xd}});
  spin(spinner, x, 10);
  constexpr uint32_t kProbe = 2'000'000;
  const auto t0 = std::chrono::steady_clock::now();
  spin(spinner, x, kProbe);
  const double probeMs =
      std::max(1.0, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  const auto spins = static_cast<uint32_t>(std::clamp(kProbe * 2000.0 / probeMs, 1e6, 4e9));

  std::atomic<bool> aReturned{false};
  std::string aFailure;
  std::thread a([&] {
    try {
      CallResult r = spin(spinner, x, spins);
      if (std::memcmp(r.host.at("y").bytes().data(), x.bytes().data(), x.byteSize()) != 0)
        aFailure = "the spin call's result differs from its input";
    } catch (const std::exception& e) {
      aFailure = e.what();
    }
    aReturned = true;
  });
  // Wait (bounded, never hanging) until A waits for the GPU without the lock.
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (introspect::gpuWaiters(rt) == 0 && !aReturned && std::chrono::steady_clock::now() < giveUp)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  const bool aWaited = introspect::gpuWaiters(rt) > 0;
  std::vector<DeviceTensor> outs;
  for (int i = 0; i < 8; ++i) outs.push_back(gelu.call({{"X", xd}}).device.at("Y"));
  rt.flush();  // submitted, not waited for
  const bool aStillWaiting = introspect::gpuWaiters(rt) > 0;
  const bool bBeforeA = !aReturned.load();
  a.join();
  EXPECT_EQ(aFailure, "");
  ASSERT_TRUE(aWaited) << "thread A never waited for the GPU outside the lock";
  EXPECT_TRUE(aStillWaiting) << "thread B's calls returned only after thread A's wait";
  EXPECT_TRUE(bBeforeA) << "thread B's calls returned only after thread A's call";
  for (const DeviceTensor& y : outs) EXPECT_EQ(mismatch(kGelu, in, {{"Y", rt.download(y)}}), "");
}

}  // namespace
}  // namespace wgk::runtime_test

// Issue 28: a valid call of more than 2,048 passes failed with "Query count exceeds 4096" whenever
// GPU time was asked for (two timestamp queries per pass, one query set of at most 4,096). The
// command list now times such a call a query set at a time. The call here is also the largest the
// pass budget allows (package::kMaxPassesPerCall), which must run (65,535 passes crashed the driver).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/json_read.h"
#include "package/budgets.h"
#include "wgk/wgk.h"

using namespace wgk;
namespace fs = std::filesystem;

namespace {

// wgk.test.Scale with its repeat group run `count` times, one shader for every repetition.
fs::path scaleRepeated(int64_t count) {
  const fs::path src = fs::path(WGK_SOURCE_DIR) / "tests/data/spec21/wgk.test.Scale";
  const fs::path dir = fs::temp_directory_path() / ("wgk-long-run-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(src, dir, fs::copy_options::recursive);
  const fs::path file = dir / "build/webgpu/manifest.json";
  std::ifstream in(file);
  nlohmann::ordered_json m = parseOrderedJson(std::string((std::istreambuf_iterator<char>(in)), {}), "Scale");
  auto& group = m["variants"][0]["variants"][0]["passes"][1];
  group["repeat"]["count"] = count;
  group["passes"][0]["derive"]["weight"] = "1";
  std::ofstream(file) << m.dump(2);
  return dir;
}

}  // namespace

TEST(LongRuns, TimestampsOfMorePassesThanAQuerySetHolds) {
  const int64_t reps = int64_t(package::kMaxPassesPerCall) - 2;  // + the scale and out passes
  const fs::path dir = scaleRepeated(reps);
  RuntimeOptions o;
  o.verifyDigests = false;
  auto rt = Runtime::create(o);
  if (!rt->device().hasFeature("timestamp-query")) GTEST_SKIP() << "no timestamp-query";
  Kernel k = rt->load(dir.string());
  HostTensor x(DType::Float32, {4}), acc(DType::Float32, {4});
  auto* px = reinterpret_cast<float*>(x.bytes().data());
  auto* pa = reinterpret_cast<float*>(acc.bytes().data());
  for (int i = 0; i < 4; ++i) px[i] = float(i + 1), pa[i] = 0;
  CallOptions c;
  c.args["scale"] = 0.5;
  c.timestamps = true;
  CallResult r = k.call({{"x", x}, {"acc", acc}}, c);
  EXPECT_GT(r.timings.gpuUs, 0);
  // Every pass keeps its own time across the query sets, named as the plan names it (issue 27).
  ASSERT_EQ(r.timings.passes.size(), size_t(reps) + 2);
  EXPECT_EQ(r.timings.passes.front().id, "scale");
  EXPECT_EQ(r.timings.passes[1].id, "acc[0].add");
  EXPECT_EQ(r.timings.passes[2049].id, "acc[2048].add");  // in the second query set
  EXPECT_EQ(r.timings.passes.back().id, "out");
  double sum = 0;
  for (const PassTiming& p : r.timings.passes) {
    EXPECT_FALSE(p.skipped) << p.id;
    EXPECT_GE(p.gpuUs, 0) << p.id;
    sum += p.gpuUs;
  }
  EXPECT_EQ(sum, r.timings.gpuUs);
  // acc += src once per repetition, src = x * scale.
  const float* got = reinterpret_cast<const float*>(r.host.at("acc").bytes().data());
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(got[i], float(reps) * (i + 1) * 0.5f) << i;
  fs::remove_all(dir);
}

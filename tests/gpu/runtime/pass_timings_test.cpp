// CallTimings::passes on a real adapter: a call with timestamps lists every pass of its plan by
// the plan's id with its GPU time, and the passes sum to gpuUs; without timestamps there are none.
// Softmax on [2, 65536] plans longrow_split (LONGROW_SPLIT_MIN_COLS 65,536, LONGROW_SPLIT_MAX_ROWS
// 32): three passes, block_stats, row_stats and normalize.
#include <string>
#include <vector>

#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

const char* kSoftmax = "ai.onnx.Softmax";

CallResult softmax(const HostTensor& x, bool timestamps, const std::string& variant = "") {
  CallOptions o;
  o.variant = variant;
  o.timestamps = timestamps;
  o.placement = OutputPlacement::Host;
  return kernel(kSoftmax).call({{"x", x}}, o);
}

std::vector<std::string> idsOf(const CallTimings& t) {
  std::vector<std::string> ids;
  for (const PassTiming& p : t.passes) ids.push_back(p.id);
  return ids;
}

double sumOf(const CallTimings& t) {
  double sum = 0;
  for (const PassTiming& p : t.passes) sum += p.gpuUs;
  return sum;
}

TEST(PassTimings, MultiPassKernelSplitsItsTimeByPass) {
  if (!runtime().device().hasFeature("timestamp-query")) GTEST_SKIP() << "no timestamp-query";
  const CallResult r = softmax(rnd(DType::Float32, {2, 65536}, 7), true);
  ASSERT_EQ(r.variant, "longrow_split") << "the shape no longer plans the split variant";
  EXPECT_EQ(idsOf(r.timings), (std::vector<std::string>{"block_stats", "row_stats", "normalize"}));
  for (const PassTiming& p : r.timings.passes) {
    EXPECT_GE(p.gpuUs, 0) << p.id;
    EXPECT_FALSE(p.skipped) << p.id;
  }
  EXPECT_GT(r.timings.gpuUs, 0);
  EXPECT_EQ(sumOf(r.timings), r.timings.gpuUs) << "gpuUs is the sum of the passes, exactly";
}

TEST(PassTimings, SinglePassKernelHasOneEntry) {
  if (!runtime().device().hasFeature("timestamp-query")) GTEST_SKIP() << "no timestamp-query";
  const CallResult r = softmax(rnd(DType::Float32, {4, 64}, 8), true, "online_wg_vec4");
  ASSERT_EQ(r.timings.passes.size(), 1u);
  EXPECT_EQ(r.timings.passes[0].id, "main");
  EXPECT_FALSE(r.timings.passes[0].skipped);
  EXPECT_GE(r.timings.passes[0].gpuUs, 0);
  EXPECT_EQ(r.timings.passes[0].gpuUs, r.timings.gpuUs);
}

TEST(PassTimings, NoTimestampsNoPasses) {
  const CallResult r = softmax(rnd(DType::Float32, {2, 65536}, 9), false);
  EXPECT_EQ(r.timings.gpuUs, -1);
  EXPECT_TRUE(r.timings.passes.empty());
}

}  // namespace
}  // namespace wgk::runtime_test

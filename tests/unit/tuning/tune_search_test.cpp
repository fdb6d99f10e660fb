// What `wgk tune` searches (src/harness/tune.h), without a GPU: every numeric or bool tunable of a
// manifest, and the candidate values of each.
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/tune.h"
#include "package/package.h"

namespace wgk::harness {
namespace {

const std::string kSource = WGK_SOURCE_DIR;

DeviceProfile profile(const std::string& name) {
  return DeviceProfile::load(kSource + "/tests/data/profiles/" + name + ".json");
}

std::vector<int64_t> ints(const std::vector<expr::Value>& v) {
  std::vector<int64_t> out;
  for (const auto& x : v) out.push_back(x.asInt());
  return out;
}

TEST(TuneSearch, EveryNumericTunableIsSearchedNotOnlyWorkgroupSizes) {
  const auto softmax = package::Package::open(kSource + "/packages/webgpu-kernels/ai.onnx.Softmax");
  const std::vector<std::string> names = searchedTunables(softmax->manifest());
  EXPECT_EQ(names.size(), softmax->manifest().tunables.size());
  for (const char* n : {"WORKGROUP_SIZE", "LONGROW_SPLIT_MAX_ROWS", "ROW_COLS_PER_LANE", "BLOCK_COLS"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
}

TEST(TuneSearch, CandidatesAroundTheManifestValue) {
  const DeviceProfile h = profile("h200");
  // A workgroup size: the powers of two the device allows, without the manifest's own.
  EXPECT_EQ(ints(tunableCandidates("WORKGROUP_SIZE", expr::Value(int64_t{256}), h)),
            (std::vector<int64_t>{32, 64, 128, 512, 1024}));
  EXPECT_EQ(ints(tunableCandidates("workgroupSize", expr::Value(int64_t{64}), h)),
            (std::vector<int64_t>{32, 128, 256, 512, 1024}));
  // A threshold or a size: a quarter, a half, twice and four times.
  EXPECT_EQ(ints(tunableCandidates("LONGROW_SPLIT_MAX_ROWS", expr::Value(int64_t{32}), h)),
            (std::vector<int64_t>{8, 16, 64, 128}));
  EXPECT_EQ(ints(tunableCandidates("TILE", expr::Value(int64_t{2}), h)), (std::vector<int64_t>{1, 4, 8}));
  EXPECT_EQ(ints(tunableCandidates("MIN_M", expr::Value(int64_t{1}), h)), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(ints(tunableCandidates("OFFSET", expr::Value(int64_t{0}), h)), (std::vector<int64_t>{1, 4, 16}));
  EXPECT_TRUE(tunableCandidates("NEGATIVE", expr::Value(int64_t{-3}), h).empty());
  // A bool: the other value; a float: half and double; a string: nothing.
  const auto b = tunableCandidates("USE_SUBGROUPS", expr::Value(true), h);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_FALSE(b[0].asBool());
  const auto f = tunableCandidates("RATIO", expr::Value(1.5), h);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_DOUBLE_EQ(f[0].asNumber(), 0.75);
  EXPECT_DOUBLE_EQ(f[1].asNumber(), 3.0);
  EXPECT_TRUE(tunableCandidates("MODE", expr::Value(std::string("fast")), h).empty());
}

TEST(TuneSearch, WorkgroupSizesStopAtTheDeviceLimit) {
  DeviceProfile small = profile("h200");
  small.limits["maxComputeInvocationsPerWorkgroup"] = 128;
  EXPECT_EQ(ints(tunableCandidates("WORKGROUP_SIZE", expr::Value(int64_t{256}), small)),
            (std::vector<int64_t>{32, 64, 128}));
}

}  // namespace
}  // namespace wgk::harness

// Issue 28: `wgk test` of a package whose shader never ends waited the GPU deadline once per case
// (32 cases: 32 times the deadline). After the first case that loses the device, the harness runs
// no more of the package's cases: they are skipped, naming the case that lost it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/json_read.h"
#include "harness/test_runner.h"
#include "wgk/wgk.h"

using namespace wgk;
namespace fs = std::filesystem;

namespace {

// A copy of the Spin fault package whose shader always loops forever, with a test.json of `cases`
// cases (metadata.json no longer matches: loaded with verifyDigests off).
fs::path endlessPackage(int cases) {
  const fs::path src = fs::path(WGK_SOURCE_DIR) / "tests/data/faults/wgk.test.Spin/build/webgpu";
  const fs::path dir = fs::temp_directory_path() / ("wgk-endless-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "build/webgpu");
  for (const char* f : {"manifest.json", "metadata.json", "spin.wgsl.jinja"})
    fs::copy_file(src / f, dir / "build/webgpu" / f);
  std::ifstream in(src / "manifest.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  nlohmann::ordered_json m = parseOrderedJson(text, "Spin manifest");
  m["bindings"]["params"]["struct"][1] = {{"name", "spins"}, {"type", "u32"}, {"value", "0"}};  // forever
  m.erase("args");
  std::ofstream(dir / "build/webgpu/manifest.json") << m.dump(2);
  nlohmann::json data = {{"kind", "values"}, {"values", {1, 2, 3, 4}}};
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < cases; ++i)
    list.push_back({{"name", "case" + std::to_string(i)},
                    {"inputs", {{"x", {{"dtype", "float32"}, {"shape", {4}}, {"data", data}}}}},
                    {"outputs", {{"y", {{"dtype", "float32"}, {"shape", {4}}, {"data", data}}}}}});
  std::ofstream(dir / "build/webgpu/test.json") << nlohmann::json{{"cases", list}}.dump(2);
  return dir;
}

}  // namespace

TEST(TestRunnerFaults, AfterADeviceLossTheRemainingCasesAreSkipped) {
  const fs::path dir = endlessPackage(3);
  RuntimeOptions o;
  o.gpuTimeoutMs = 800;
  o.verifyDigests = false;
  auto rt = Runtime::create(o);
  Kernel k = rt->load(dir.string());
  const harness::TestSummary s = harness::runTests(k, {});
  ASSERT_EQ(s.outcomes.size(), 3u);
  EXPECT_EQ(s.outcomes[0].status, "error");
  EXPECT_TRUE(s.outcomes[0].deviceLost);
  EXPECT_NE(s.outcomes[0].detail.find("GPU deadline exceeded"), std::string::npos) << s.outcomes[0].detail;
  // Before the fix each of them waited for the deadline and failed the same way.
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(s.outcomes[i].status, "skip") << s.outcomes[i].detail;
    EXPECT_NE(s.outcomes[i].detail.find("not run: case case0 lost the device (GPU deadline exceeded"),
              std::string::npos)
        << s.outcomes[i].detail;
  }
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.skipped, 2);
  fs::remove_all(dir);
}

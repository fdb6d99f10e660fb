// The persistent pipeline cache through the public API on a real adapter: a second runtime on the
// same cache folder (a second process, as far as Dawn can tell: a new instance and device) gets
// every compiled blob it asks for from disk and stores nothing new; the off switch writes nothing.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

namespace fs = std::filesystem;

struct TempRoot {
  fs::path path = fs::temp_directory_path() / ("wgk-pipeline-cache-" + std::to_string(::getpid()) + "-" +
                                               std::to_string(std::random_device{}()));
  ~TempRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

size_t entries(const fs::path& root) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root / "pipelines", ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    n += it->is_regular_file() && it->path().filename() != "identity.txt";
  return n;
}

std::map<std::string, HostTensor> geluInputs() {
  return {{"X", rnd(DType::Float16, {3, 80}, 11)}, {"bias", rnd(DType::Float16, {80}, 12)}};
}

TEST(PipelineCache, SecondRuntimeOnTheSameFolderStoresNothingNew) {
  TempRoot root;
  RuntimeOptions o;
  o.cacheDir = root.path.string();
  o.offline = true;
  const auto in = geluInputs();
  std::map<std::string, HostTensor> first;
  {
    auto rt = Runtime::create(o);
    first = rt->load(std::string("webgpu-kernels/") + kGelu)(in);
    const CacheStats s = rt->cacheStats();
    EXPECT_GT(s.pipelineBlobMisses, 0u);
    EXPECT_GT(s.pipelineBlobStores, 0u);
    EXPECT_EQ(s.pipelineBlobHits, 0u);
  }
  const size_t stored = entries(root.path);
  ASSERT_GT(stored, 0u);
  auto rt = Runtime::create(o);
  const auto second = rt->load(std::string("webgpu-kernels/") + kGelu)(in);
  const CacheStats s = rt->cacheStats();
  EXPECT_EQ(s.pipelineBlobStores, 0u);
  EXPECT_EQ(s.pipelineBlobMisses, 0u);
  EXPECT_GT(s.pipelineBlobHits, 0u);
  EXPECT_EQ(s.pipelineBlobsRejected, 0u);
  EXPECT_EQ(entries(root.path), stored);
  ASSERT_EQ(second.size(), first.size());
  for (const auto& [name, t] : first) {
    const auto a = t.bytes(), b = second.at(name).bytes();
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << name;
  }
}

TEST(PipelineCache, OffSwitchWritesNothing) {
  TempRoot root;
  RuntimeOptions o;
  o.cacheDir = root.path.string();
  o.offline = true;
  o.pipelineCache = false;
  auto rt = Runtime::create(o);
  rt->load(std::string("webgpu-kernels/") + kGelu)(geluInputs());
  const CacheStats s = rt->cacheStats();
  EXPECT_EQ(s.pipelineBlobHits + s.pipelineBlobMisses + s.pipelineBlobStores, 0u);
  EXPECT_FALSE(fs::exists(root.path / "pipelines"));
}

}  // namespace
}  // namespace wgk::runtime_test

// Faults of the download path (issue 15): deadlines against a server that trickles bytes just
// fast enough to dodge curl's low-speed limit, and cache folders that are read-only, full or
// corrupted. Each must give a clear error, keep no partial package, and leave the cache usable.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "hub/cache.h"
#include "hub/publish_layout.h"
#include "hub/resolver.h"
#include "hub_test_support.h"
#include "support/expect_error.h"
#include "wgk/error.h"

namespace wgk::hub {
namespace {

using test::kRepo;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

class HubFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    pkg_ = test::makeFastGeluPackage(scratch_.path() / "src", "webgpu-kernels");
    published_ = publishLayout(pkg_, scratch_.path() / "www", std::nullopt);
    server_ = std::make_unique<test::HubServer>(scratch_.path() / "www");
    cache_ = scratch_.path() / "cache";
  }
  void TearDown() override {
    if (!mounted_.empty()) ::umount2(mounted_.c_str(), MNT_DETACH);
  }
  HubOptions options(const std::string& mode) { return test::testOptions(server_->endpoint(mode), cache_); }
  PackageRequest v1() { return PackageRequest::make(1, std::nullopt); }
  // A tmpfs of `bytes` at cache_ ("ro" for a read-only one); false (the test skips) when this
  // process may not mount (not root, or a container without CAP_SYS_ADMIN).
  bool mountCache(const std::string& flags, size_t bytes) {
    fs::create_directories(cache_);
    const std::string data = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", cache_.c_str(), "tmpfs", flags == "ro" ? MS_RDONLY : 0, data.c_str()) != 0)
      return false;
    mounted_ = cache_;
    return true;
  }
  bool noPackageCached() {
    std::error_code ec;
    return !fs::exists(Cache(cache_).repoDir(parseRepoId(kRepo)), ec) || Cache(cache_).list().empty();
  }

  test::Scratch scratch_;
  fs::path pkg_, cache_, mounted_;
  PublishResult published_;
  std::unique_ptr<test::HubServer> server_;
};

TEST_F(HubFaults, TricklingServerRunsIntoTheDeadlinePerFile) {
  HubOptions o = options("trickle");
  o.http.lowSpeedTimeSec = 2;    // 5 bytes/s passes this
  o.http.totalTimeoutSec = 600;  // and this (per attempt): before the fix a file took 3 x 600 s
  o.http.maxAttempts = 3;
  o.http.fileDeadlineSec = 2;
  const auto t0 = Clock::now();
  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Network,
                            {"metadata.json", "2 s deadline per file", "WGK_HUB_FILE_TIMEOUT_S"});
  EXPECT_LT(secondsSince(t0), 5.0);
  EXPECT_TRUE(noPackageCached());
  EXPECT_EQ(test::stagingLeftovers(cache_), 0);
}

TEST_F(HubFaults, TricklingServerRunsIntoTheDeadlinePerDownload) {
  HubOptions o = options("trickle");
  o.http.lowSpeedTimeSec = 2;
  o.http.totalTimeoutSec = 600;
  o.http.fileDeadlineSec = 600;
  o.http.downloadDeadlineSec = 2;
  const auto t0 = Clock::now();
  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Network,
                            {"2 s deadline of the whole download", "WGK_HUB_DOWNLOAD_TIMEOUT_S"});
  EXPECT_LT(secondsSince(t0), 5.0);
  EXPECT_EQ(test::stagingLeftovers(cache_), 0);
  // The deadline belongs to one download: the next, from a good server, succeeds.
  HubOptions ok = options("ok");
  ok.http.downloadDeadlineSec = 30;
  EXPECT_EQ(resolvePackage(kRepo, v1(), ok).revision, published_.commit);
}

// The hub reads no environment variable: it takes its options as given (the edges fill them through
// RuntimeOptions::fromEnvironment, tests/unit/runtime_options), so WGK_* variables, even malformed
// ones, change nothing here.
TEST_F(HubFaults, TheEnvironmentDoesNotReachTheHub) {
  const std::pair<const char*, const char*> vars[] = {{"WGK_HUB_FILE_TIMEOUT_S", "soon"},
                                                      {"WGK_HUB_DOWNLOAD_TIMEOUT_S", "11"},
                                                      {"WGK_OFFLINE", "1"},
                                                      {"WGK_REFS_TTL", "soon"},
                                                      {"WGK_TOKEN", "abc\ndef"},
                                                      {"WGK_TRUSTED_ENDPOINT", "ftp://x"},
                                                      {"WGK_ENDPOINT", "http://elsewhere.example"},
                                                      {"WGK_CACHE", "/nonexistent/wgk-cache"}};
  for (const auto& [k, v] : vars) ::setenv(k, v, 1);
  HubOptions given = options("ok");
  given.cacheDir.clear();
  const HubOptions o = effectiveOptions(given);
  EXPECT_EQ(o.http.fileDeadlineSec, HttpSettings{}.fileDeadlineSec);
  EXPECT_EQ(o.http.downloadDeadlineSec, HttpSettings{}.downloadDeadlineSec);
  EXPECT_FALSE(o.offline);
  EXPECT_EQ(o.refsTtlSec, kDefaultRefsTtlSec);
  EXPECT_EQ(o.token, "");
  EXPECT_EQ(o.endpoint, server_->endpoint("ok"));
  EXPECT_NE(o.cacheDir, "/nonexistent/wgk-cache");
  EXPECT_EQ(resolvePackage(kRepo, v1(), options("ok")).revision, published_.commit);
  for (const auto& [k, v] : vars) ::unsetenv(k);
}

TEST_F(HubFaults, ReadOnlyCacheGivesAClearErrorAndNoPackage) {
  if (!mountCache("ro", 1 << 20)) GTEST_SKIP() << "cannot mount a read-only tmpfs here (needs root)";
  const std::string text = test_support::expectError([&] { resolvePackage(kRepo, v1(), options("ok")); },
                                                     ErrorCode::Io, std::vector<std::string>{});
  EXPECT_NE(text.find(cache_.string()), std::string::npos) << text;
  EXPECT_NE(text.find("ead-only"), std::string::npos) << text;  // "Read-only file system"
  EXPECT_TRUE(noPackageCached());
}

TEST_F(HubFaults, FullCacheGivesAClearErrorAndNoPartialPackage) {
  if (!mountCache("rw", 64 << 10)) GTEST_SKIP() << "cannot mount a small tmpfs here (needs root)";
  {
    // Leave about 6 KiB free: metadata.json fits, the package does not.
    std::ofstream filler(cache_ / "filler", std::ios::binary);
    std::string block(1024, 'x');
    for (int i = 0; i < 58; ++i) filler << block;
  }
  const std::string text = test_support::expectError([&] { resolvePackage(kRepo, v1(), options("ok")); },
                                                     ErrorCode::Io, std::vector<std::string>{});
  EXPECT_NE(text.find("space"), std::string::npos) << text;  // "No space left on device"
  EXPECT_TRUE(noPackageCached());
  EXPECT_EQ(test::stagingLeftovers(cache_), 0);
  // Space again: the same cache works, and what it holds verifies.
  fs::remove(cache_ / "filler");
  ResolvedPackage p = resolvePackage(kRepo, v1(), options("ok"));
  EXPECT_NO_THROW(verifyPackageFolder(p.folder, false));
}

TEST_F(HubFaults, CorruptedCacheEntriesAreRefusedOrRepaired) {
  ResolvedPackage p = resolvePackage(kRepo, v1(), options("ok"));
  const fs::path refs = Cache(cache_).repoDir(parseRepoId(kRepo)) / "refs.json";
  // A missing template of a cached package: refused offline (never half a package in use).
  fs::remove(webgpuDir(p.folder) / "elementwise-bias-gelu.wgsl.jinja");
  HubOptions offline = options("ok");
  offline.offline = true;
  test_support::expectError([&] { resolvePackage(kRepo, v1(), offline); }, ErrorCode::Integrity,
                            {"elementwise-bias-gelu.wgsl.jinja"});
  // metadata.json itself garbled.
  test::writeText(webgpuDir(p.folder) / "metadata.json", "{\"name\": ");
  EXPECT_THROW(resolvePackage(kRepo, v1(), offline), Error);
  // refs.json garbled: a clear error, not a crash.
  test::writeText(refs, "\x01not json");
  EXPECT_THROW(resolvePackage(kRepo, v1(), offline), Error);
}

}  // namespace
}  // namespace wgk::hub

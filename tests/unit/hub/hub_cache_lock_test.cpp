// The cache under concurrency and tampering, and lock files (round trip and drift).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hub/cache.h"
#include "hub/digest.h"
#include "hub/lock_file.h"
#include "hub/publish_layout.h"
#include "hub/resolver.h"
#include "hub_test_support.h"
#include "support/expect_error.h"
#include "wgk/error.h"

namespace wgk::hub {
namespace {

using test::kRepo;

class HubCacheLock : public ::testing::Test {
 protected:
  void SetUp() override {
    pkg_ = test::makeFastGeluPackage(scratch_.path() / "src", "webgpu-kernels");
    published_ = publishLayout(pkg_, scratch_.path() / "www", std::nullopt);
    server_ = std::make_unique<test::HubServer>(scratch_.path() / "www");
    cache_ = scratch_.path() / "cache";
  }
  HubOptions options(const std::string& mode) { return test::testOptions(server_->endpoint(mode), cache_); }
  PackageRequest v1() { return PackageRequest::make(1, std::nullopt); }
  std::string errorText(const std::function<void()>& fn, ErrorCode code) {
    return test_support::expectError(fn, code, std::vector<std::string>{});
  }

  test::Scratch scratch_;
  fs::path pkg_, cache_;
  PublishResult published_;
  std::unique_ptr<test::HubServer> server_;
};

TEST_F(HubCacheLock, TwoProcessesFillingTheSameCacheBothSucceed) {
  HubOptions o = options("delay");  // 0.2 s per file: the two downloads overlap
  std::vector<pid_t> children;
  for (int i = 0; i < 2; ++i) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int rc = 1;
      try {
        ResolvedPackage p = resolvePackage(kRepo, v1(), o);
        verifyPackageFolder(p.folder, false);
        rc = p.revision == published_.commit ? 0 : 2;
      } catch (...) {
        rc = 3;
      }
      ::_exit(rc);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  // Both downloaded (each fetched metadata.json), one copy was kept.
  int metadataRequests = 0;
  for (const auto& l : server_->log()) metadataRequests += l.find("metadata.json") != std::string::npos;
  EXPECT_EQ(metadataRequests, 2);
  auto entries = Cache(cache_).list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].refs, std::vector<std::string>{"v1"});
  EXPECT_NO_THROW(verifyPackageFolder(entries[0].folder, false));
  EXPECT_EQ(test::stagingLeftovers(cache_), 0);
}

TEST_F(HubCacheLock, TamperedCacheIsRefusedNamingTheFile) {
  ResolvedPackage p = resolvePackage(kRepo, v1(), options("ok"));
  test::writeText(webgpuDir(p.folder) / "manifest.json", "{}");
  std::string text = errorText([&] { resolvePackage(kRepo, v1(), options("ok")); }, ErrorCode::Integrity);
  EXPECT_NE(text.find("mismatch: manifest.json"), std::string::npos) << text;
  // Nothing good was deleted: the other files are still there.
  EXPECT_TRUE(fs::exists(webgpuDir(p.folder) / "elementwise-bias-gelu.wgsl.jinja"));
}

TEST_F(HubCacheLock, CleanRemovesEntriesAndStaging) {
  resolvePackage(kRepo, v1(), options("ok"));
  Cache cache(cache_);
  fs::create_directories(cache.stagingParent() / "dl-leftover");
  EXPECT_EQ(cache.cleanStaging(), 1);
  EXPECT_EQ(cache.list().size(), 1u);
  cache.clean(parseRepoId(kRepo));
  EXPECT_TRUE(cache.list().empty());
  EXPECT_FALSE(cache.readRef(parseRepoId(kRepo), "v1"));
}

TEST_F(HubCacheLock, LockFileRoundTripAndFetchExactly) {
  ResolvedPackage p = resolvePackage(kRepo, v1(), options("ok"));
  LockFile lock;
  lock.put(lockEntryFor(p.repo, 1, p.revision, p.folder));
  std::string text = lock.serialize();
  EXPECT_EQ(LockFile::parse(text).serialize(), text);
  const LockEntry& e = lock.packages.at(0);
  EXPECT_EQ(e.revision, published_.commit);
  EXPECT_EQ(e.files.at("metadata.json"), sha256Base64(test::readText(webgpuDir(p.folder) / "metadata.json")));
  EXPECT_EQ(e.files.size(), 6u);  // metadata.json + 5 recorded files
  fs::path lockPath = scratch_.path() / "wgk.lock";
  test::writeText(lockPath, text);

  // A fresh cache, following the lock: fetched by the locked revision.
  HubOptions o = test::testOptions(server_->endpoint("ok"), scratch_.path() / "cache2");
  o.lockFile = lockPath.string();
  auto all = resolveLocked(o);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_TRUE(all[0].locked);
  EXPECT_EQ(all[0].origin, PackageOrigin::Network);
  EXPECT_EQ(all[0].revision, published_.commit);
  EXPECT_EQ(resolvePackage(kRepo, v1(), o).origin, PackageOrigin::Cache);
  // Not in the lock / asking for something else than the lock says.
  EXPECT_NE(errorText([&] { resolvePackage("webgpu-kernels/ai.onnx.Other", v1(), o); }, ErrorCode::NotFound)
                .find("not in the lock file"),
            std::string::npos);
  errorText([&] { resolvePackage(kRepo, PackageRequest::make(std::nullopt, std::string(40, 'b')), o); },
            ErrorCode::Integrity);
  errorText([&] { resolvePackage(kRepo, PackageRequest::make(2, std::nullopt), o); }, ErrorCode::Integrity);
}

TEST_F(HubCacheLock, DriftFromTheLockIsRefused) {
  ResolvedPackage p = resolvePackage(kRepo, v1(), options("ok"));
  fs::path lockPath = scratch_.path() / "wgk.lock";
  LockFile lock;
  lock.put(lockEntryFor(p.repo, 1, p.revision, p.folder));
  test::writeText(lockPath, lock.serialize());

  // The same revision re-published with different bytes (a force-push, a compromised mirror).
  fs::path changed = test::makeFastGeluPackage(scratch_.path() / "src2", "webgpu-kernels", "changed");
  publishLayout(changed, scratch_.path() / "www2", p.revision);
  test::HubServer server2(scratch_.path() / "www2");
  HubOptions o = test::testOptions(server2.endpoint("ok"), scratch_.path() / "cache-drift");
  o.lockFile = lockPath.string();
  std::string text = errorText([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Integrity);
  EXPECT_NE(text.find("drifted from the lock file"), std::string::npos) << text;
  EXPECT_NE(text.find("elementwise-bias-gelu.wgsl.jinja"), std::string::npos) << text;

  // A lock entry edited by hand to another digest is drift too.
  LockFile edited = LockFile::parse(lock.serialize());
  LockEntry e = edited.packages[0];
  e.files["manifest.json"] = sha256Base64("something else");
  edited.put(e);
  test::writeText(lockPath, edited.serialize());
  HubOptions o2 = options("ok");
  o2.lockFile = lockPath.string();
  text = errorText([&] { resolvePackage(kRepo, v1(), o2); }, ErrorCode::Integrity);
  EXPECT_NE(text.find("manifest.json: locked"), std::string::npos) << text;
}

TEST_F(HubCacheLock, MalformedLockFilesAreRejected) {
  EXPECT_THROW(LockFile::parse("[]"), Error);
  EXPECT_THROW(
      LockFile::parse(R"({"lockVersion":1,"packages":[{"repo":"a/b","revision":"xyz","files":{}}]})"), Error);
  EXPECT_THROW(LockFile::parse(R"({"lockVersion":1,"packages":[{"repo":"a/b","revision":")" +
                               std::string(40, 'a') + R"(","files":{"../x":"y","metadata.json":"z"}}]})"),
               Error);
}

}  // namespace
}  // namespace wgk::hub

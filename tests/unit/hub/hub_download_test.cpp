// Downloads from a real HTTP server on 127.0.0.1 (hub_server.py) serving a layout written by
// publishLayout: the happy paths and every failure the hub must survive.
#include <gtest/gtest.h>

#include <chrono>

#include "hub/cache.h"
#include "hub/fs_util.h"
#include "hub/metadata.h"
#include "hub/publish_layout.h"
#include "hub/resolver.h"
#include "hub_test_support.h"
#include "support/expect_error.h"
#include "wgk/error.h"

namespace wgk::hub {
namespace {

using test::kRepo;

class HubDownload : public ::testing::Test {
 protected:
  void SetUp() override {
    pkg_ = test::makeFastGeluPackage(scratch_.path() / "src", "webgpu-kernels");
    published_ = publishLayout(pkg_, scratch_.path() / "www", std::nullopt);
    server_ = std::make_unique<test::HubServer>(scratch_.path() / "www");
    cache_ = scratch_.path() / "cache";
  }
  HubOptions options(const std::string& mode) { return test::testOptions(server_->endpoint(mode), cache_); }
  PackageRequest v1() { return PackageRequest::make(1, std::nullopt); }
  // Runs fn, expects a wgk::Error with `code` whose text contains `needle`.
  void expectError(const std::function<void()>& fn, ErrorCode code, const std::string& needle) {
    test_support::expectError(fn, code, std::vector<std::string>{needle});
  }
  // The cache holds no package content (only, perhaps, empty folders and lock files).
  bool cacheHoldsNoPackage() { return Cache(cache_).list().empty() && test::stagingLeftovers(cache_) == 0; }

  test::Scratch scratch_;
  fs::path pkg_, cache_;
  PublishResult published_;
  std::unique_ptr<test::HubServer> server_;
};

TEST_F(HubDownload, PublishLayoutWritesBranchCommitAndRef) {
  EXPECT_TRUE(isRevision(published_.commit));
  EXPECT_EQ(published_.commit, contentRevision(test::readText(webgpuDir(pkg_) / "metadata.json")));
  fs::path repoOut = scratch_.path() / "www" / "webgpu-kernels" / "com.microsoft.FastGelu";
  for (std::string rev : {std::string("v1"), published_.commit}) {
    EXPECT_TRUE(fs::exists(repoOut / "resolve" / rev / "build/webgpu/metadata.json")) << rev;
    EXPECT_TRUE(fs::exists(repoOut / "resolve" / rev / "README.md")) << rev;
  }
  EXPECT_EQ(test::readText(repoOut / "refs" / "v1"), published_.commit + "\n");
}

TEST_F(HubDownload, ByVersionThenFromCacheWithoutNetwork) {
  ResolvedPackage p = resolvePackage(kRepo, v1(), options("ok"));
  EXPECT_EQ(p.origin, PackageOrigin::Network);
  EXPECT_EQ(p.revision, published_.commit);
  EXPECT_EQ(p.folder, cache_ / "webgpu-kernels" / "com.microsoft.FastGelu" / published_.commit);
  fs::path dir = webgpuDir(p.folder);
  EXPECT_TRUE(fs::exists(dir / "manifest.json"));
  EXPECT_TRUE(fs::exists(dir / "gelu-common.wgsl.jinja"));  // reached through an include
  EXPECT_FALSE(fs::exists(dir / "test.json"));              // only on request
  EXPECT_EQ(Cache(cache_).readRef(parseRepoId(kRepo), "v1"), published_.commit);
  // Files after metadata.json come from resolve/<commit>/, never the moving branch.
  auto log = server_->log();
  ASSERT_EQ(log.size(), 4u);  // metadata, manifest, two templates
  EXPECT_NE(log[0].find("/resolve/v1/build/webgpu/metadata.json"), std::string::npos);
  for (size_t i = 1; i < log.size(); ++i)
    EXPECT_NE(log[i].find("/resolve/" + published_.commit + "/"), std::string::npos);

  ResolvedPackage again = resolvePackage(kRepo, v1(), options("ok"));
  EXPECT_EQ(again.origin, PackageOrigin::Cache);
  EXPECT_EQ(again.revision, published_.commit);
  EXPECT_EQ(server_->log().size(), 4u);  // nothing fetched
}

TEST_F(HubDownload, ByRevisionAndWithTests) {
  HubOptions o = options("ok");
  o.withTests = true;
  ResolvedPackage p = resolvePackage(kRepo, PackageRequest::make(std::nullopt, published_.commit), o);
  EXPECT_EQ(p.origin, PackageOrigin::Network);
  EXPECT_EQ(p.revision, published_.commit);
  EXPECT_TRUE(fs::exists(webgpuDir(p.folder) / "test.json"));
  EXPECT_TRUE(fs::exists(webgpuDir(p.folder) / "bench.json"));
  EXPECT_FALSE(Cache(cache_).readRef(parseRepoId(kRepo), "v1"));  // a pin moves no branch
}

TEST_F(HubDownload, TestFilesAddedToAnExistingCacheEntry) {
  resolvePackage(kRepo, v1(), options("ok"));
  HubOptions o = options("ok");
  o.withTests = true;
  ResolvedPackage p = resolvePackage(kRepo, v1(), o);
  EXPECT_EQ(p.origin, PackageOrigin::Cache);
  EXPECT_TRUE(fs::exists(webgpuDir(p.folder) / "test.json"));
  EXPECT_EQ(server_->log().size(), 4u + 3u);  // metadata again, then test.json and bench.json
}

TEST_F(HubDownload, WithoutCommitHeaderABranchResolvesToTheContentRevision) {
  ResolvedPackage p = resolvePackage(kRepo, v1(), options("noheader"));
  EXPECT_EQ(p.revision, contentRevision(test::readText(webgpuDir(pkg_) / "metadata.json")));
}

TEST_F(HubDownload, NotFound) {
  expectError([&] { resolvePackage("webgpu-kernels/com.microsoft.Missing", v1(), options("ok")); },
              ErrorCode::NotFound, "HTTP 404");
  expectError([&] { resolvePackage(kRepo, PackageRequest::make(7, std::nullopt), options("ok")); },
              ErrorCode::NotFound, "resolve/v7/");
  EXPECT_TRUE(cacheHoldsNoPackage());
}

TEST_F(HubDownload, WrongDigestNamesTheFileAndKeepsNothing) {
  fs::path served = published_.commitDir / "build/webgpu/gelu-common.wgsl.jinja";
  test::writeText(served, "tampered\n");
  expectError([&] { resolvePackage(kRepo, v1(), options("ok")); }, ErrorCode::Integrity,
              "gelu-common.wgsl.jinja");
  EXPECT_TRUE(cacheHoldsNoPackage());
}

TEST_F(HubDownload, MetadataNameMustMatchRepo) {
  // A repo whose metadata.json claims to be another package.
  fs::path other = scratch_.path() / "www/webgpu-kernels/com.microsoft.Impostor";
  fs::create_directories(other);
  fs::copy(scratch_.path() / "www/webgpu-kernels/com.microsoft.FastGelu", other, fs::copy_options::recursive);
  expectError([&] { resolvePackage("webgpu-kernels/com.microsoft.Impostor", v1(), options("ok")); },
              ErrorCode::Integrity, "must match the repo basename");
  EXPECT_TRUE(cacheHoldsNoPackage());
}

TEST_F(HubDownload, TruncatedBodyFails) {
  expectError([&] { resolvePackage(kRepo, v1(), options("truncate")); }, ErrorCode::Network, "manifest.json");
  EXPECT_TRUE(cacheHoldsNoPackage());
}

TEST_F(HubDownload, SlowServerTimesOut) {
  HubOptions o = options("slow");
  o.http.maxAttempts = 1;
  auto start = std::chrono::steady_clock::now();
  expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Network, "metadata.json");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 8.0);
  EXPECT_TRUE(cacheHoldsNoPackage());
}

TEST_F(HubDownload, ServerVanishingMidDownloadLeavesTheCacheAsItWas) {
  // A good entry cached first must survive untouched.
  ResolvedPackage good = resolvePackage(kRepo, v1(), options("ok"));
  std::string before = test::readText(webgpuDir(good.folder) / "manifest.json");
  // A second package (other content, other commit) whose download dies mid-manifest.
  fs::path pkg2 = test::makeFastGeluPackage(scratch_.path() / "src2", "webgpu-kernels", "b");
  PublishResult p2 = publishLayout(pkg2, scratch_.path() / "www", std::nullopt, 2);
  expectError([&] { resolvePackage(kRepo, PackageRequest::make(2, std::nullopt), options("vanish")); },
              ErrorCode::Network, "manifest.json");
  EXPECT_FALSE(server_->alive());
  auto entries = Cache(cache_).list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].commit, good.revision);
  EXPECT_EQ(test::readText(webgpuDir(good.folder) / "manifest.json"), before);
  EXPECT_FALSE(Cache(cache_).readRef(parseRepoId(kRepo), "v2"));
  EXPECT_EQ(test::stagingLeftovers(cache_), 0);
  EXPECT_NE(p2.commit, good.revision);
}

TEST_F(HubDownload, RetriesTransientErrorsThenSucceeds) {
  HubOptions o = options("flaky");
  o.http.maxAttempts = 3;
  ResolvedPackage p = resolvePackage(kRepo, v1(), o);
  EXPECT_EQ(p.revision, published_.commit);
  EXPECT_EQ(server_->log().size(), 4u * 3u);  // every file: 503, 503, 200
}

TEST_F(HubDownload, RetriesAreBounded) {
  HubOptions o = options("fail503");
  o.http.maxAttempts = 3;
  expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Network, "after 3 attempts");
  EXPECT_EQ(server_->log().size(), 3u);
}

TEST_F(HubDownload, SizeCapRefusesLargeFiles) {
  HubOptions o = options("ok");
  o.http.maxFileBytes = 64;  // metadata.json is larger
  expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Network, "size cap");
  EXPECT_TRUE(cacheHoldsNoPackage());
}

TEST_F(HubDownload, UntrustedOrgRefusedBeforeAnyRequest) {
  fs::path evil = test::makeFastGeluPackage(scratch_.path() / "src3", "someone-else");
  publishLayout(evil, scratch_.path() / "www", std::nullopt);
  expectError([&] { resolvePackage("someone-else/com.microsoft.FastGelu", v1(), options("ok")); },
              ErrorCode::Trust, "--trust-remote-code");
  EXPECT_TRUE(server_->log().empty());
  HubOptions o = options("ok");
  o.trustRemoteCode = true;
  EXPECT_EQ(resolvePackage("someone-else/com.microsoft.FastGelu", v1(), o).origin, PackageOrigin::Network);
  // Trust is checked on every load, cached or not.
  expectError([&] { resolvePackage("someone-else/com.microsoft.FastGelu", v1(), options("ok")); },
              ErrorCode::Trust, "someone-else");
}

TEST_F(HubDownload, TokenGoesOnlyToTheEndpointHost) {
  HubOptions o = options("redirect");
  o.token = "secret-token";
  ResolvedPackage p = resolvePackage(kRepo, v1(), o);
  EXPECT_EQ(p.revision, published_.commit);
  int toEndpoint = 0, toOther = 0;
  for (const auto& line : server_->log()) {
    auto j = nlohmann::json::parse(line);
    std::string host = j["host"], auth = j["auth"];
    if (host.rfind("127.0.0.1:", 0) == 0) {
      ++toEndpoint;
      EXPECT_EQ(auth, "Bearer secret-token");
    } else {
      ++toOther;
      EXPECT_EQ(host.rfind("localhost:", 0), 0u) << host;
      EXPECT_EQ(auth, "") << "token leaked to " << host;
    }
  }
  EXPECT_EQ(toEndpoint, 4);
  EXPECT_EQ(toOther, 4);
}

TEST_F(HubDownload, OfflineWithAndWithoutCache) {
  HubOptions o = options("ok");
  o.offline = true;
  expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::NotFound, "offline");
  EXPECT_TRUE(server_->log().empty());
  resolvePackage(kRepo, v1(), options("ok"));
  size_t requests = server_->log().size();
  EXPECT_EQ(resolvePackage(kRepo, v1(), o).origin, PackageOrigin::Cache);
  EXPECT_EQ(server_->log().size(), requests);
}

TEST_F(HubDownload, EmbeddedServesVersion1AndItsOwnRevisionOnly) {
  fs::path embedded = test::makeFastGeluPackage(scratch_.path() / "embedded", "webgpu-kernels", "embedded");
  HubOptions o = options("ok");
  o.offline = true;
  o.embeddedRoot = (scratch_.path() / "embedded").string();
  ResolvedPackage p = resolvePackage(kRepo, v1(), o);
  EXPECT_EQ(p.origin, PackageOrigin::Embedded);
  std::string rev = contentRevision(test::readText(webgpuDir(embedded) / "metadata.json"));
  EXPECT_EQ(p.revision, rev);
  EXPECT_EQ(p.displayRevision(), "embedded:" + rev);
  EXPECT_EQ(resolvePackage(kRepo, PackageRequest::make(std::nullopt, rev), o).origin,
            PackageOrigin::Embedded);
  // Another revision is not the embedded bytes: offline, that is a clear miss.
  expectError([&] { resolvePackage(kRepo, PackageRequest::make(std::nullopt, published_.commit), o); },
              ErrorCode::NotFound, "offline");
  // Online, a revision that is not the embedded one is downloaded.
  o.offline = false;
  EXPECT_EQ(resolvePackage(kRepo, PackageRequest::make(std::nullopt, published_.commit), o).origin,
            PackageOrigin::Network);
  // A corrupted embedded package is refused, naming the file.
  test::writeText(webgpuDir(embedded) / "gelu-common.wgsl.jinja", "corrupt\n");
  o.offline = true;
  expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Integrity, "gelu-common.wgsl.jinja");
}

}  // namespace
}  // namespace wgk::hub

// The resolution table of docs/hub.md ("Resolution"), one test per row, against hub_server.py on
// 127.0.0.1: branch moved, endpoint down, 404, 5xx, offline, lock, pinned, embedded only; plus the
// refresh interval (WGK_REFS_TTL) and `wgk download`'s always-ask, no-fallback mode.
#include <gtest/gtest.h>

#include <cstdlib>

#include "hub/cache.h"
#include "hub/lock_file.h"
#include "hub/metadata.h"
#include "hub/publish_layout.h"
#include "hub/resolver.h"
#include "hub_test_support.h"
#include "support/expect_error.h"
#include "wgk/error.h"

namespace wgk::hub {
namespace {

using test::kRepo;

class HubRefs : public ::testing::Test {
 protected:
  void SetUp() override {
    forgetEndpointStates();  // each test starts as a fresh process would
    pkgA_ = test::makeFastGeluPackage(scratch_.path() / "srcA", "webgpu-kernels", "a");
    commitA_ = publishLayout(pkgA_, www(), std::nullopt).commit;
    server_ = std::make_unique<test::HubServer>(www());
    cache_ = scratch_.path() / "cache";
  }
  fs::path www() { return scratch_.path() / "www"; }
  // Pushes a fix: branch v1 now names commit B.
  std::string moveBranch() {
    fs::path pkgB = test::makeFastGeluPackage(scratch_.path() / "srcB", "webgpu-kernels", "b");
    return publishLayout(pkgB, www(), std::nullopt).commit;
  }
  // An embedded copy whose bytes are neither A nor B; returns its content revision.
  std::string makeEmbedded() {
    fs::path e = test::makeFastGeluPackage(scratch_.path() / "embedded", "webgpu-kernels", "embedded");
    return contentRevision(test::readText(webgpuDir(e) / "metadata.json"));
  }
  HubOptions options(const std::string& mode, std::optional<long> ttl = std::nullopt) {
    HubOptions o = test::testOptions(server_->endpoint(mode), cache_);
    // The modes are faults of one Hub: what its "ok" face published stays trusted through them.
    o.trustedEndpoint = server_->endpoint("ok");
    o.refsTtlSec = ttl;
    o.notice = [this](const std::string& line) { notices_.push_back(line); };
    return o;
  }
  HubOptions withEmbedded(HubOptions o) {
    o.embeddedRoot = (scratch_.path() / "embedded").string();
    return o;
  }
  PackageRequest v1() { return PackageRequest::make(1, std::nullopt); }
  size_t requests() { return server_->log().size(); }
  // An endpoint nothing listens on: the server's port after the server is gone.
  std::string downEndpoint() {
    std::string url = server_->endpoint("ok");
    server_.reset();
    return url;
  }

  test::Scratch scratch_;
  fs::path pkgA_, cache_;
  std::string commitA_;
  std::unique_ptr<test::HubServer> server_;
  std::vector<std::string> notices_;
};

// Row "branch moved": within the refresh interval the cached commit is used with no request; once
// it has passed (TTL 0 here), the endpoint is asked and the new commit is downloaded.
TEST_F(HubRefs, BranchMovedIsFollowedOnceTheRefreshIntervalPasses) {
  EXPECT_EQ(resolvePackage(kRepo, v1(), options("ok")).revision, commitA_);
  std::string commitB = moveBranch();
  size_t before = requests();
  ResolvedPackage stale = resolvePackage(kRepo, v1(), options("ok", 300));
  EXPECT_EQ(stale.revision, commitA_);
  EXPECT_EQ(stale.origin, PackageOrigin::Cache);
  EXPECT_EQ(requests(), before) << "inside the refresh interval nothing is asked";

  ResolvedPackage fresh = resolvePackage(kRepo, v1(), options("ok", 0));
  EXPECT_EQ(fresh.revision, commitB);
  EXPECT_EQ(fresh.origin, PackageOrigin::Network);
  EXPECT_EQ(requests(), before + 4) << "metadata.json once (asking is the first step of the download)";
  EXPECT_EQ(Cache(cache_).readRef(parseRepoId(kRepo), "v1"), commitB);
  // Asking again with TTL 0: one request, then the cache.
  ResolvedPackage again = resolvePackage(kRepo, v1(), options("ok", 0));
  EXPECT_EQ(again.origin, PackageOrigin::Cache);
  EXPECT_EQ(again.revision, commitB);
  EXPECT_EQ(requests(), before + 5);
  EXPECT_TRUE(notices_.empty());
}

// Row "endpoint down": the commit refs.json last named, else the embedded copy; the endpoint is
// announced once per process, each load says which copy it used (ResolvedPackage::notice); with
// neither copy, an unknown package (hub_offline_test.cpp has the rest).
TEST_F(HubRefs, EndpointDownFallsBackAnnounced) {
  resolvePackage(kRepo, v1(), options("ok"));
  HubOptions o = options("ok", 0);
  o.endpoint = downEndpoint();
  ResolvedPackage cached = resolvePackage(kRepo, v1(), o);
  EXPECT_EQ(cached.origin, PackageOrigin::Cache);
  EXPECT_EQ(cached.revision, commitA_);
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find(o.endpoint + " could not be reached"), std::string::npos) << notices_[0];
  EXPECT_NE(cached.notice.find("using the cached commit " + commitA_), std::string::npos) << cached.notice;

  Cache(cache_).clean(std::nullopt);
  std::string embeddedRev = makeEmbedded();
  ResolvedPackage embedded = resolvePackage(kRepo, v1(), withEmbedded(o));
  EXPECT_EQ(embedded.origin, PackageOrigin::Embedded);
  EXPECT_EQ(embedded.revision, embeddedRev);
  EXPECT_EQ(notices_.size(), 1u) << "announced once per process";
  EXPECT_NE(embedded.notice.find("using the embedded copy"), std::string::npos) << embedded.notice;

  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::NotFound,
                            std::vector<std::string>{"unknown package " + kRepo, "could not be reached"});
}

// After a failed ask, a resolve inside the interval uses the fallback without asking again.
TEST_F(HubRefs, AnUnreachableEndpointIsNotAskedAgainWithinTheInterval) {
  makeEmbedded();
  EXPECT_EQ(resolvePackage(kRepo, v1(), withEmbedded(options("fail503", 300))).origin,
            PackageOrigin::Embedded);
  size_t before = requests();
  ResolvedPackage r = resolvePackage(kRepo, v1(), withEmbedded(options("ok", 300)));
  EXPECT_EQ(r.origin, PackageOrigin::Embedded);
  EXPECT_EQ(requests(), before);
  EXPECT_NE(r.notice.find("s ago"), std::string::npos) << r.notice;
  // Once the interval has passed (TTL 0), the endpoint is asked again and its commit wins.
  EXPECT_EQ(resolvePackage(kRepo, v1(), withEmbedded(options("ok", 0))).revision, commitA_);
}

// Row "404": the endpoint has no such branch; nothing local serves it: Error(NotFound).
TEST_F(HubRefs, NotFoundWithNothingLocalIsAnError) {
  makeEmbedded();  // serves version 1 only
  test_support::expectError(
      [&] { resolvePackage(kRepo, PackageRequest::make(2, std::nullopt), withEmbedded(options("ok", 0))); },
      ErrorCode::NotFound, std::vector<std::string>{"HTTP 404", "resolve/v2/"});
  EXPECT_TRUE(notices_.empty());
}

// Row "5xx": after the bounded retries, the same fallback as an unreachable endpoint.
TEST_F(HubRefs, ServerErrorsFallBackAnnounced) {
  resolvePackage(kRepo, v1(), options("ok"));
  ResolvedPackage r = resolvePackage(kRepo, v1(), options("fail503", 0));
  EXPECT_EQ(r.origin, PackageOrigin::Cache);
  EXPECT_EQ(r.revision, commitA_);
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("HTTP 503"), std::string::npos) << notices_[0];
  Cache(cache_).clean(std::nullopt);
  test_support::expectError([&] { resolvePackage(kRepo, v1(), options("fail503", 0)); }, ErrorCode::Network,
                            std::vector<std::string>{"HTTP 503"});
}

// Row "offline": never a request; the cached branch commit, else the embedded copy, else NotFound.
TEST_F(HubRefs, OfflineNeverAsks) {
  HubOptions o = options("ok", 0);
  o.offline = true;
  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::NotFound,
                            std::vector<std::string>{"offline"});
  std::string embeddedRev = makeEmbedded();
  EXPECT_EQ(resolvePackage(kRepo, v1(), withEmbedded(o)).revision, embeddedRev);
  EXPECT_EQ(requests(), 0u);
  resolvePackage(kRepo, v1(), options("ok"));
  moveBranch();
  size_t before = requests();
  ResolvedPackage r = resolvePackage(kRepo, v1(), withEmbedded(o));
  EXPECT_EQ(r.origin, PackageOrigin::Cache);
  EXPECT_EQ(r.revision, commitA_);
  EXPECT_EQ(requests(), before);
  EXPECT_TRUE(notices_.empty()) << "offline is a choice, not a fallback";
}

// Row "lock": the lock's revision, whatever the branch names now; no request once cached.
TEST_F(HubRefs, LockIgnoresTheMovedBranch) {
  ResolvedPackage a = resolvePackage(kRepo, v1(), options("ok"));
  LockFile lock;
  lock.put(lockEntryFor(a.repo, 1, a.revision, a.folder));
  fs::path lockFile = scratch_.path() / "wgk.lock";
  test::writeText(lockFile, lock.serialize());
  moveBranch();
  size_t before = requests();
  HubOptions o = options("ok", 0);
  o.lockFile = lockFile.string();
  ResolvedPackage r = resolvePackage(kRepo, v1(), o);
  EXPECT_TRUE(r.locked);
  EXPECT_EQ(r.revision, commitA_);
  EXPECT_EQ(requests(), before);
}

// Row "pinned": a cached revision never touches the network, even with TTL 0 or a failing endpoint.
TEST_F(HubRefs, PinnedCachedRevisionNeverAsks) {
  PackageRequest pin = PackageRequest::make(std::nullopt, commitA_);
  EXPECT_EQ(resolvePackage(kRepo, pin, options("ok", 0)).origin, PackageOrigin::Network);
  size_t before = requests();
  EXPECT_EQ(resolvePackage(kRepo, pin, options("ok", 0)).origin, PackageOrigin::Cache);
  EXPECT_EQ(resolvePackage(kRepo, pin, options("fail503", 0)).origin, PackageOrigin::Cache);
  HubOptions o = options("ok", 0);
  o.requireEndpoint = true;  // even for `wgk download`
  EXPECT_EQ(resolvePackage(kRepo, pin, o).origin, PackageOrigin::Cache);
  EXPECT_EQ(requests(), before);
}

// Row "embedded only": the endpoint has no such package (404): the embedded copy, announced.
// And when the endpoint names exactly the embedded bytes, they are used without a download.
TEST_F(HubRefs, EmbeddedOnly) {
  std::string embeddedRev = makeEmbedded();
  test::Scratch empty;
  test::HubServer nothing(empty.path());
  HubOptions o = withEmbedded(options("ok", 0));
  o.endpoint = nothing.endpoint("ok");
  ResolvedPackage r = resolvePackage(kRepo, v1(), o);
  EXPECT_EQ(r.origin, PackageOrigin::Embedded);
  EXPECT_EQ(r.revision, embeddedRev);
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("HTTP 404"), std::string::npos) << notices_[0];
  EXPECT_NE(notices_[0].find("embedded"), std::string::npos) << notices_[0];

  publishLayout(scratch_.path() / "embedded" / "webgpu-kernels" / "com.microsoft.FastGelu", www(),
                std::nullopt);
  size_t before = requests();
  ResolvedPackage same = resolvePackage(kRepo, v1(), withEmbedded(options("ok", 0)));
  EXPECT_EQ(same.origin, PackageOrigin::Embedded);
  EXPECT_EQ(requests(), before + 1) << "one question, no download";
  EXPECT_TRUE(same.notice.empty());
}

// `wgk download` (requireEndpoint): asks inside the interval too, and never falls back.
TEST_F(HubRefs, DownloadAlwaysAsksAndNeverFallsBack) {
  HubOptions o = withEmbedded(options("ok", 300));
  o.requireEndpoint = true;
  makeEmbedded();
  EXPECT_EQ(resolvePackage(kRepo, v1(), o).origin, PackageOrigin::Network);
  std::string commitB = moveBranch();
  EXPECT_EQ(resolvePackage(kRepo, v1(), o).revision, commitB);
  o.endpoint = server_->endpoint("fail503");
  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Network,
                            std::vector<std::string>{"HTTP 503"});
  EXPECT_TRUE(notices_.empty());
}

}  // namespace
}  // namespace wgk::hub

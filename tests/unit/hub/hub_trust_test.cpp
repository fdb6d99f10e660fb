// Trust tied to where a package came from, and header hygiene (issue 28 item 4), against
// hub_server.py on 127.0.0.1: the trusted organisation is trusted only from the trusted endpoint;
// a copy another endpoint left in the cache needs trustRemoteCode, offline too; tokens with
// control characters, conflicting Content-Length headers and a body shorter than its declared
// length are refused at once.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

#include "hub/cache.h"
#include "hub/http_client.h"
#include "hub/publish_layout.h"
#include "hub/resolver.h"
#include "hub_test_support.h"
#include "support/expect_error.h"
#include "wgk/error.h"

namespace wgk::hub {
namespace {

using test::kRepo;

class HubTrust : public ::testing::Test {
 protected:
  void SetUp() override {
    forgetEndpointStates();
    pkg_ = test::makeFastGeluPackage(scratch_.path() / "src", "webgpu-kernels");
    commit_ = publishLayout(pkg_, scratch_.path() / "www", std::nullopt).commit;
    server_ = std::make_unique<test::HubServer>(scratch_.path() / "www");
    cache_ = scratch_.path() / "cache";
  }
  // A rogue endpoint: the loopback server, with the default trusted endpoint left in place.
  HubOptions rogue(const std::string& mode = "ok") {
    HubOptions o = test::testOptions(server_->endpoint(mode), cache_);
    o.trustedEndpoint.clear();  // the public Hub
    return o;
  }
  PackageRequest v1() { return PackageRequest::make(1, std::nullopt); }
  bool requested(const std::string& file) {
    for (const auto& line : server_->log())
      if (line.find(file) != std::string::npos) return true;
    return false;
  }

  test::Scratch scratch_;
  fs::path pkg_, cache_;
  std::string commit_;
  std::unique_ptr<test::HubServer> server_;
};

// A rogue endpoint serving webgpu-kernels/... is refused before any file of code is fetched.
TEST_F(HubTrust, TheKernelsOrgFromAnotherEndpointNeedsTrustRemoteCode) {
  test_support::expectError(
      [&] { resolvePackage(kRepo, v1(), rogue()); }, ErrorCode::Trust,
      std::vector<std::string>{"not the trusted endpoint https://huggingface.co/kernels",
                               "--trust-remote-code", "--trusted-endpoint"});
  EXPECT_FALSE(requested("manifest.json")) << "no code fetched from an untrusted endpoint";
  EXPECT_TRUE(Cache(cache_).list().empty());
}

// With trustRemoteCode the copy downloads and records its endpoint; without it, the cached copy is
// refused online and offline, naming where it came from.
TEST_F(HubTrust, ACachedCopyFromAnotherEndpointNeedsTrustRemoteCodeOfflineToo) {
  HubOptions trusting = rogue();
  trusting.trustRemoteCode = true;
  ResolvedPackage r = resolvePackage(kRepo, v1(), trusting);
  EXPECT_EQ(r.origin, PackageOrigin::Network);
  EXPECT_EQ(r.endpoint, server_->endpoint("ok"));
  EXPECT_TRUE(fs::exists(r.folder / "origin.json"));

  HubOptions online = rogue();
  online.refsTtlSec = 300;  // the cached commit, no question
  test_support::expectError(
      [&] { resolvePackage(kRepo, v1(), online); }, ErrorCode::Trust,
      std::vector<std::string>{"came from " + server_->endpoint("ok"), "--trust-remote-code"});
  HubOptions offline = rogue();
  offline.offline = true;
  test_support::expectError([&] { resolvePackage(kRepo, v1(), offline); }, ErrorCode::Trust,
                            std::vector<std::string>{"came from " + server_->endpoint("ok")});
  test_support::expectError(
      [&] { resolvePackage(kRepo, PackageRequest::make(std::nullopt, commit_), offline); }, ErrorCode::Trust,
      std::vector<std::string>{"came from"});
  offline.trustRemoteCode = true;
  EXPECT_EQ(resolvePackage(kRepo, v1(), offline).origin, PackageOrigin::Cache);
}

// The user may mark one endpoint trusted (--trusted-endpoint, WGK_TRUSTED_ENDPOINT): its packages
// then load without trustRemoteCode, and only while it is the trusted one.
TEST_F(HubTrust, AnEndpointTheUserMarksTrusted) {
  HubOptions marked = rogue();
  marked.trustedEndpoint = server_->endpoint("ok") + "/";  // a trailing '/' names the same endpoint
  EXPECT_EQ(resolvePackage(kRepo, v1(), marked).origin, PackageOrigin::Network);
  marked.offline = true;
  EXPECT_EQ(resolvePackage(kRepo, v1(), marked).origin, PackageOrigin::Cache);
  HubOptions unmarked = rogue();
  unmarked.offline = true;
  test_support::expectError([&] { resolvePackage(kRepo, v1(), unmarked); }, ErrorCode::Trust,
                            std::vector<std::string>{"came from"});
  HubOptions bad = rogue();
  bad.trustedEndpoint = "ftp://example.com";
  test_support::expectError([&] { resolvePackage(kRepo, v1(), bad); }, ErrorCode::InvalidArgument,
                            std::vector<std::string>{"trusted endpoint"});
}

// A cached copy with no origin record (an older wgk, or a hand-made folder) is not trusted.
TEST_F(HubTrust, ACachedCopyWithoutAnOriginRecordIsNotTrusted) {
  HubOptions o = test::testOptions(server_->endpoint("ok"), cache_);
  ResolvedPackage r = resolvePackage(kRepo, v1(), o);
  fs::remove(r.folder / "origin.json");
  o.offline = true;
  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Trust,
                            std::vector<std::string>{"does not record which endpoint", "wgk cache clean"});
}

// CR/LF (or any control character) in a token would inject a header: refused before any request,
// without echoing the token.
TEST_F(HubTrust, ControlCharactersInTokensAreRefused) {
  HubOptions o = test::testOptions(server_->endpoint("ok"), cache_);
  o.token = std::string("secret\r\nX-Injected: 1");
  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::InvalidArgument,
                            std::vector<std::string>{"token", "control character", "0x0d at offset 6"});
  EXPECT_TRUE(server_->log().empty());
  EXPECT_NO_THROW(checkHeaderValue("Bearer a\tb", "a value with a tab"));
  EXPECT_THROW(checkHeaderValue(std::string("a\0b", 3), "NUL"), Error);
  EXPECT_THROW(checkHeaderValue("a\x7f", "DEL"), Error);
}

// Two different Content-Length headers: refused, not retried.
TEST_F(HubTrust, ConflictingContentLengthIsRefused) {
  HubOptions o = test::testOptions(server_->endpoint("twolengths"), cache_);
  o.http.maxAttempts = 3;
  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Network,
                            std::vector<std::string>{"conflicting Content-Length"});
  EXPECT_EQ(server_->log().size(), 1u);
}

// A declared length longer than the body, the connection held open: fails after stallSec with a
// clear error, once, instead of waiting out the low-speed limit on every attempt.
TEST_F(HubTrust, ADeclaredLengthLongerThanTheBodyFailsFast) {
  HubOptions o = test::testOptions(server_->endpoint("overlong"), cache_);
  o.http.lowSpeedTimeSec = 30;
  o.http.totalTimeoutSec = 60;
  o.http.fileDeadlineSec = 120;
  o.http.maxAttempts = 3;
  o.http.stallSec = 2;
  auto start = std::chrono::steady_clock::now();
  test_support::expectError([&] { resolvePackage(kRepo, v1(), o); }, ErrorCode::Network,
                            std::vector<std::string>{"Content-Length declares", "nothing came for 2 s"});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  EXPECT_EQ(server_->log().size(), 1u) << "not retried";
}

}  // namespace
}  // namespace wgk::hub

// Quiet and honest offline (issue 29 item 1; docs/hub.md "When the endpoint cannot be reached"):
// an endpoint that cannot answer is announced once per process, through wgk's log by default; its
// failure is remembered for every package, so no later load waits on it; an id that no local
// source knows, with the endpoint unreachable, is an unknown package naming the nearest known ids.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

#include "core/log.h"
#include "hub/known_packages.h"
#include "hub/resolver.h"
#include "hub_test_support.h"
#include "support/expect_error.h"
#include "wgk/error.h"

namespace wgk::hub {
namespace {

using test::kRepo;
const std::string kOtherRepo = "other-org/com.microsoft.FastGelu";

class HubOffline : public ::testing::Test {
 protected:
  void SetUp() override {
    forgetEndpointStates();
    // Two embedded packages (two repos), nothing on any server.
    test::makeFastGeluPackage(embedded(), "webgpu-kernels", "a");
    test::makeFastGeluPackage(embedded(), "other-org", "b");
    cache_ = scratch_.path() / "cache";
  }
  void TearDown() override {
    log::setSink({});
    log::setThreshold(log::Level::Warn);
    forgetEndpointStates();
  }
  fs::path embedded() { return scratch_.path() / "embedded"; }
  HubOptions options(const std::string& endpoint) {
    HubOptions o = test::testOptions(endpoint, cache_);
    o.embeddedRoot = embedded().string();
    o.trustRemoteCode = true;  // other-org
    o.refsTtlSec = 300;
    o.notice = [this](const std::string& line) { notices_.push_back(line); };
    return o;
  }
  // An endpoint nothing listens on: a server's port after the server is gone.
  std::string deadEndpoint() {
    test::Scratch empty;
    test::HubServer gone(empty.path());
    return gone.endpoint("ok");
  }
  PackageRequest v1() { return PackageRequest::make(1, std::nullopt); }

  test::Scratch scratch_;
  fs::path cache_;
  std::vector<std::string> notices_;
};

// Two packages, each loaded twice, with nothing listening: one announcement in all, saying the
// endpoint could not be reached; each load still says which copy it used.
TEST_F(HubOffline, AnUnreachableEndpointIsAnnouncedOncePerProcess) {
  HubOptions o = options(deadEndpoint());
  for (int round = 0; round < 2; ++round)
    for (const std::string& repo : {kRepo, kOtherRepo}) {
      ResolvedPackage r = resolvePackage(repo, v1(), o);
      EXPECT_EQ(r.origin, PackageOrigin::Embedded) << repo;
      EXPECT_NE(r.notice.find("using the embedded copy"), std::string::npos) << r.notice;
    }
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find(o.endpoint + " could not be reached"), std::string::npos) << notices_[0];
  EXPECT_NE(notices_[0].find("--offline"), std::string::npos) << notices_[0];
}

// The failure is kept in-process like an answer: a server that never answers is waited on once,
// not once per package.
TEST_F(HubOffline, NoLaterLoadWaitsOnAnEndpointThatDidNotAnswer) {
  test::Scratch empty;
  test::HubServer slow(empty.path());
  HubOptions o = options(slow.endpoint("slow"));
  o.http.maxAttempts = 1;
  resolvePackage(kRepo, v1(), o);
  const size_t asked = slow.log().size();
  EXPECT_EQ(asked, 1u);
  auto start = std::chrono::steady_clock::now();
  ResolvedPackage other = resolvePackage(kOtherRepo, v1(), o);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(other.origin, PackageOrigin::Embedded);
  EXPECT_EQ(slow.log().size(), asked) << "another package asked the same endpoint again";
  EXPECT_LT(seconds, 0.5);
  EXPECT_NE(other.notice.find("s ago"), std::string::npos) << other.notice;
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("could not answer"), std::string::npos) << notices_[0];
  // Refresh interval 0 asks on every resolve, as for an answer.
  o.refsTtlSec = 0;
  resolvePackage(kOtherRepo, v1(), o);
  EXPECT_EQ(slow.log().size(), asked + 1);
}

// Across processes too (the fresh-clone walk of 2026-12-06: `wgk plan` of another package asked
// again, and a second `wgk info` said "could not say which commit v1 of ... names" instead of the
// endpoint-wide line): a later process asks the failed endpoint for no package inside the interval
// and announces it once as the first process did.
TEST_F(HubOffline, ALaterProcessNeitherAsksAFailedEndpointNorNamesEachPackage) {
  test::Scratch empty;
  test::HubServer slow(empty.path());
  HubOptions o = options(slow.endpoint("slow"));
  o.http.maxAttempts = 1;
  resolvePackage(kRepo, v1(), o);
  const size_t asked = slow.log().size();
  ASSERT_EQ(asked, 1u);
  for (const std::string& repo : {kOtherRepo, kRepo}) {
    forgetEndpointStates();  // a new process, with the same cache
    notices_.clear();
    ResolvedPackage r = resolvePackage(repo, v1(), o);
    EXPECT_EQ(r.origin, PackageOrigin::Embedded) << repo;
    EXPECT_EQ(slow.log().size(), asked) << repo << " asked the endpoint that failed a moment ago";
    ASSERT_EQ(notices_.size(), 1u) << repo;
    EXPECT_NE(notices_[0].find(o.endpoint + " could not answer ("), std::string::npos) << notices_[0];
    EXPECT_EQ(notices_[0].find("could not say which commit"), std::string::npos) << notices_[0];
  }
  // Once the interval is over (0: ask on every resolve), it is asked again.
  forgetEndpointStates();
  o.refsTtlSec = 0;
  resolvePackage(kOtherRepo, v1(), o);
  EXPECT_EQ(slow.log().size(), asked + 1);
}

// By default the announcement is a warning of wgk's log: WGK_LOG=error (or `wgk --quiet`) hides it.
TEST_F(HubOffline, TheAnnouncementGoesThroughTheLog) {
  std::vector<std::string> lines;
  log::setSink([&](log::Level, const std::string& line) { lines.push_back(line); });
  HubOptions o = options(deadEndpoint());
  o.notice = nullptr;
  resolvePackage(kRepo, v1(), o);
  resolvePackage(kOtherRepo, v1(), o);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("warning: [hub] "), std::string::npos) << lines[0];
  forgetEndpointStates();
  lines.clear();
  log::setThreshold(log::Level::Error);
  resolvePackage(kRepo, v1(), o);
  EXPECT_TRUE(lines.empty()) << lines[0];
}

// A mistyped id with the endpoint unreachable: "unknown package" (NotFound, exit 4) with the
// nearest embedded or cached ids, before and after the endpoint is remembered as down, and offline.
TEST_F(HubOffline, AnUnknownIdWithTheEndpointUnreachableIsAnUnknownPackage) {
  HubOptions o = options(deadEndpoint());
  const std::vector<std::string> expected = {
      "unknown package webgpu-kernels/com.microsoft.FastGelo (not embedded or cached; the Hub could not be "
      "reached: ",
      "nearest known: webgpu-kernels/com.microsoft.FastGelu"};
  for (int i = 0; i < 2; ++i)
    test_support::expectError([&] { resolvePackage("webgpu-kernels/com.microsoft.FastGelo", v1(), o); },
                              ErrorCode::NotFound, expected);
  test_support::expectError(
      [&] {
        resolvePackage("webgpu-kernels/com.microsoft.FastGelo",
                       PackageRequest::make(std::nullopt, std::string(40, 'a')), o);
      },
      ErrorCode::NotFound, expected);
  o.offline = true;
  test_support::expectError([&] { resolvePackage("webgpu-kernels/com.microsoft.FastGelo", v1(), o); },
                            ErrorCode::NotFound,
                            std::vector<std::string>{"unknown package", "offline", "nearest known"});
  // `wgk download` asked for the network: it hears the network error.
  o.offline = false;
  o.requireEndpoint = true;
  test_support::expectError([&] { resolvePackage("webgpu-kernels/com.microsoft.FastGelo", v1(), o); },
                            ErrorCode::Network, std::vector<std::string>{"Could"});
}

TEST(KnownPackages, EditDistanceAndNearestIds) {
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("FastGelu", "fastgelu"), 0u);
  const std::vector<std::string> known = {"webgpu-kernels/com.microsoft.FastGelu",
                                          "webgpu-kernels/ai.onnx.Softmax", "webgpu-kernels/ai.onnx.MatMul"};
  EXPECT_EQ(nearestIds("webgpu-kernels/com.microsoft.FastGelo", known),
            std::vector<std::string>{"webgpu-kernels/com.microsoft.FastGelu"});
  EXPECT_EQ(nearestIds("webgpu-kernels/ai.onnx.Softmx", known).front(), "webgpu-kernels/ai.onnx.Softmax");
  EXPECT_TRUE(nearestIds("someone/entirely.Different", known).empty());
}

}  // namespace
}  // namespace wgk::hub

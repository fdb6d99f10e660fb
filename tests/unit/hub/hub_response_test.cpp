// Issue 28: what the hub client parses from a server, without sockets (the steps fuzz_hub_response
// feeds): the header lines of a response, and a manifest.json that would expand past the budgets.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "hub/downloader.h"
#include "hub/http_client.h"
#include "support/expect_error.h"

using namespace wgk;
using namespace wgk::hub;

TEST(HubResponse, HeaderLinesAreParsedAndBudgeted) {
  ResponseHeaders h;
  EXPECT_TRUE(h.add("HTTP/1.1 302 Found\r\n"));
  EXPECT_TRUE(h.add("Content-Length: 0\r\n"));
  EXPECT_TRUE(h.add("HTTP/1.1 200 OK\r\n"));  // the next hop: a Content-Length of its own
  EXPECT_TRUE(h.add("Content-Length: 12\r\n"));
  EXPECT_TRUE(h.add("X-Repo-Commit:  abc \r\n"));
  EXPECT_EQ(h.headers.at("x-repo-commit"), "abc");
  EXPECT_EQ(h.contentLength, "12");
  EXPECT_FALSE(h.add("content-length: 13\r\n"));
  EXPECT_NE(h.refused.find("conflicting Content-Length headers (12 and 13)"), std::string::npos);
  ResponseHeaders bad;
  EXPECT_FALSE(bad.add("Content-Length: 1e3\r\n"));
  EXPECT_NE(bad.refused.find("malformed Content-Length"), std::string::npos);
  ResponseHeaders ctl;
  EXPECT_FALSE(ctl.add(std::string("X-A: a\x01") + "b\r\n"));
  // A server sending header after header: the map would grow without bound (before: no limit).
  ResponseHeaders many;
  size_t accepted = 0;
  while (many.add("X-" + std::to_string(accepted) + ": v\r\n") && accepted < 100000) ++accepted;
  EXPECT_EQ(accepted, ResponseHeaders::kMaxLines);
  EXPECT_NE(many.refused.find("more than 1024 header lines"), std::string::npos);
}

// The downloader reads a fetched manifest.json with the same budgets as `wgk info`: a family of
// 2,000 x 2,000 axis entries is a Manifest error (exit 4) before anything is expanded.
TEST(HubResponse, AManifestPastTheVariantBudgetIsRefusedBeforeExpanding) {
  std::ifstream in(WGK_SOURCE_DIR "/tests/data/spec21/wgk.test.Scale/build/webgpu/manifest.json");
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json m = nlohmann::json::parse(ss.str());
  nlohmann::json a = nlohmann::json::array(), b = nlohmann::json::array();
  for (int i = 0; i < 2000; ++i) {
    a.push_back({{"$key", "a" + std::to_string(i)}, {"ka", i}, {"w", 64}});
    b.push_back({{"$key", "b" + std::to_string(i)}, {"kb", i}, {"p", 1}});
  }
  m["variants"][0].erase("cases");
  m["variants"][0]["axes"] = {{"A", a}, {"B", b}};
  m["variants"][0]["variants"][0]["id"] = "v_{ka}_{kb}";
  PackageMetadata meta;
  meta.name = "wgk.test.Scale";
  meta.manifestSpec = "2.1";
  test_support::expectError(
      [&] {
        checkManifestAgainstMetadata({"fuzz", meta.name}, meta, m.dump());
      },
      ErrorCode::Manifest, {"4000000 variants", "package::kMaxVariants"});
}

// fuzz_package checks the manifest Package::open read against metadata.json without parsing its
// bytes again: the overload taking a Manifest gives the bytes overload's verdicts.
TEST(HubResponse, AManifestAlreadyReadIsCheckedAsItsBytesAre) {
  const std::string dir = WGK_SOURCE_DIR "/tests/data/spec21/wgk.test.Scale/build/webgpu/";
  auto read = [](const std::string& f) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  const std::string bytes = read(dir + "manifest.json");
  const PackageMetadata meta = PackageMetadata::parse(read(dir + "metadata.json"));
  const package::Manifest manifest = package::readManifest(bytes, "manifest.json", meta.manifestSpec);
  checkManifestAgainstMetadata({"fuzz", meta.name}, meta, bytes);
  checkManifestAgainstMetadata({"fuzz", meta.name}, meta, manifest);
  PackageMetadata missing = meta;
  missing.variants["wg64"] = {"index.wgsl.jinja"};
  for (bool parsed : {false, true})
    test_support::expectError(
        [&] {
          if (parsed)
            checkManifestAgainstMetadata({"fuzz", meta.name}, missing, manifest);
          else
            checkManifestAgainstMetadata({"fuzz", meta.name}, missing, bytes);
        },
        ErrorCode::Integrity, {"variant \"wg64\" uses scale.wgsl.jinja"});
  PackageMetadata renamed = meta;
  renamed.name = "wgk.test.Other";
  test_support::expectError(
      [&] {
        checkManifestAgainstMetadata({"fuzz", renamed.name}, renamed, manifest);
      },
      ErrorCode::Integrity, {"declares op \"wgk.test.Scale\""});
}

// webgpu.manifestSpec is <major>.<minor>, digits only (checked without std::regex since issue 28).
TEST(HubResponse, ManifestSpecIsMajorDotMinor) {
  auto meta = [](const std::string& spec) {
    return R"({"name": "x", "backend": {"type": "webgpu"}, "webgpu": {"manifestSpec": )" +
           nlohmann::json(spec).dump() +
           R"(, "variants": {}}, "digest": {"algorithm": "sha256", "files": {}}})";
  };
  for (const char* ok : {"2.1", "10.0", "0.12"}) EXPECT_EQ(PackageMetadata::parse(meta(ok)).manifestSpec, ok);
  for (const char* bad : {"", "2", "2.", ".1", "2.1.0", "2.1\n", " 2.1", "2,1", "v2.1", "2.x", "\xd9\xa2.1"})
    test_support::expectError([&] { (void)PackageMetadata::parse(meta(bad)); }, ErrorCode::Manifest,
                              {"is not <major>.<minor>"});
}

// Pure hub pieces: repo ids, requests, trust, digests, metadata generation and checking.
#include <gtest/gtest.h>

#include "hub/digest.h"
#include "hub/fs_util.h"
#include "hub/metadata.h"
#include "hub/repo_ref.h"
#include "hub_test_support.h"
#include "wgk/error.h"

namespace wgk::hub {
namespace {

using test::Scratch;

ErrorCode codeOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "no wgk::Error thrown";
  return ErrorCode::Internal;
}

TEST(RepoId, ParsesOrgAndName) {
  RepoId id = parseRepoId("webgpu-kernels/com.microsoft.FastGelu");
  EXPECT_EQ(id.org, "webgpu-kernels");
  EXPECT_EQ(id.name, "com.microsoft.FastGelu");
  EXPECT_EQ(id.str(), "webgpu-kernels/com.microsoft.FastGelu");
}

TEST(RepoId, RejectsMalformedIds) {
  for (std::string bad :
       {"", "FastGelu", "a/b/c", "/x", "x/", "../x", "org/..", "org/.hidden", "org/a b", "org/a%2f"})
    EXPECT_EQ(codeOf([&] { parseRepoId(bad); }), ErrorCode::InvalidArgument) << bad;
}

TEST(PackageRequest, VersionRevisionAndDefaults) {
  EXPECT_EQ(PackageRequest::make(std::nullopt, std::nullopt).gitRev(), "v1");
  EXPECT_EQ(PackageRequest::make(3, std::nullopt).gitRev(), "v3");
  std::string rev(40, 'A');
  EXPECT_EQ(PackageRequest::make(std::nullopt, rev).gitRev(), std::string(40, 'a'));
  EXPECT_EQ(codeOf([] { PackageRequest::make(0, std::nullopt); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([] { PackageRequest::make(1, std::string(40, 'a')); }), ErrorCode::InvalidArgument);
  for (std::string bad : {std::string("main"), std::string("v1"), std::string(39, 'a'), std::string(41, 'a'),
                          std::string(39, 'a') + "g"})
    EXPECT_EQ(codeOf([&] { PackageRequest::make(std::nullopt, bad); }), ErrorCode::InvalidArgument) << bad;
}

TEST(Trust, OnlyTheKernelsOrgByDefault) {
  EXPECT_NO_THROW(checkTrusted(parseRepoId("webgpu-kernels/a.B"), false));
  EXPECT_EQ(codeOf([] { checkTrusted(parseRepoId("someone/a.B"), false); }), ErrorCode::Trust);
  EXPECT_NO_THROW(checkTrusted(parseRepoId("someone/a.B"), true));
}

TEST(Digest, KnownSha256Vectors) {
  EXPECT_EQ(sha256Base64("abc"), "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(SafePath, RejectsEscapes) {
  for (std::string bad : {"", "/etc/passwd", "../x", "a/../b", "a//b", "./a", "a\\b", "a/"})
    EXPECT_EQ(codeOf([&] { checkSafeRelativePath(bad, "test"); }), ErrorCode::Integrity) << bad;
  EXPECT_NO_THROW(checkSafeRelativePath("sub/file.wgsl.jinja", "test"));
}

TEST(Metadata, GeneratedFromManifestAndFiles) {
  Scratch s;
  fs::path pkg = test::makeFastGeluPackage(s.path(), "webgpu-kernels");
  PackageMetadata m = PackageMetadata::parse(test::readText(webgpuDir(pkg) / "metadata.json"));
  EXPECT_EQ(m.id, "webgpu-kernels/com.microsoft.FastGelu");
  EXPECT_EQ(m.name, "com.microsoft.FastGelu");
  EXPECT_EQ(m.backend, "webgpu");
  ASSERT_EQ(m.variants.size(), 6u);
  // The included template is listed with the one the manifest names.
  std::vector<std::string> expected{"elementwise-bias-gelu.wgsl.jinja", "gelu-common.wgsl.jinja"};
  EXPECT_EQ(m.variants.at("vec4_bias"), expected);
  EXPECT_EQ(m.files.size(), 5u);  // manifest, 2 templates, test.json, bench.json
  EXPECT_FALSE(m.files.count("metadata.json"));
  EXPECT_EQ(m.files.at("test.json"), sha256Base64("{\"cases\": []}\n"));
  EXPECT_EQ(m.provenance.at("generator"), "wgk 0.1.0");
  // Deterministic: regenerating gives the same bytes, and they end with a newline.
  std::string again = generateMetadata(pkg, "webgpu-kernels").serialize();
  EXPECT_EQ(again, test::readText(webgpuDir(pkg) / "metadata.json"));
  EXPECT_EQ(again.back(), '\n');
  EXPECT_TRUE(checkPackageMetadata(pkg, "webgpu-kernels").ok());
}

TEST(Metadata, CheckListsMismatchedMissingExtraAndStale) {
  Scratch s;
  fs::path pkg = test::makeFastGeluPackage(s.path(), "webgpu-kernels");
  fs::path dir = webgpuDir(pkg);
  test::writeText(dir / "gelu-common.wgsl.jinja", "changed\n");
  fs::remove(dir / "bench.json");
  test::writeText(dir / "notes.txt", "extra\n");
  DigestReport r = checkPackageMetadata(pkg, "webgpu-kernels");
  EXPECT_EQ(r.mismatched, std::vector<std::string>{"gelu-common.wgsl.jinja"});
  EXPECT_EQ(r.missing, std::vector<std::string>{"bench.json"});
  EXPECT_EQ(r.extra, std::vector<std::string>{"notes.txt"});
  EXPECT_TRUE(r.stale.empty());
  EXPECT_NE(r.describe().find("mismatch: gelu-common.wgsl.jinja"), std::string::npos);
  // A template no longer included makes the variants stale.
  test::writeText(dir / "elementwise-bias-gelu.wgsl.jinja", "no include\n");
  r = checkPackageMetadata(pkg, "webgpu-kernels");
  EXPECT_EQ(r.stale, std::vector<std::string>{"variants"});
}

TEST(Metadata, FolderNameMustMatchOpId) {
  Scratch s;
  fs::path pkg = test::makeFastGeluPackage(s.path(), "webgpu-kernels");
  fs::path renamed = pkg.parent_path() / "com.microsoft.Other";
  fs::rename(pkg, renamed);
  EXPECT_EQ(codeOf([&] { generateMetadata(renamed, "webgpu-kernels"); }), ErrorCode::Manifest);
}

TEST(Metadata, MissingTemplateIsNamed) {
  Scratch s;
  fs::path pkg = test::makeFastGeluPackage(s.path(), "webgpu-kernels");
  fs::remove(webgpuDir(pkg) / "gelu-common.wgsl.jinja");
  try {
    generateMetadata(pkg, "webgpu-kernels");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Manifest);
    EXPECT_NE(std::string(e.what()).find("gelu-common.wgsl.jinja"), std::string::npos);
  }
}

TEST(Metadata, ParseRefusesUnsafePathsAndBadSchema) {
  Scratch s;
  fs::path pkg = test::makeFastGeluPackage(s.path(), "webgpu-kernels");
  nlohmann::json j = nlohmann::json::parse(test::readText(webgpuDir(pkg) / "metadata.json"));
  nlohmann::json evil = j;
  evil["digest"]["files"]["../../escape"] = sha256Base64("x");
  EXPECT_EQ(codeOf([&] { PackageMetadata::parse(evil.dump()); }), ErrorCode::Integrity);
  nlohmann::json wrongBackend = j;
  wrongBackend["backend"] = "cuda";
  EXPECT_EQ(codeOf([&] { PackageMetadata::parse(wrongBackend.dump()); }), ErrorCode::Manifest);
  nlohmann::json noDigest = j;
  noDigest["digest"]["files"].erase("gelu-common.wgsl.jinja");
  EXPECT_EQ(codeOf([&] { PackageMetadata::parse(noDigest.dump()); }), ErrorCode::Manifest);
  EXPECT_EQ(codeOf([&] { PackageMetadata::parse("{not json"); }), ErrorCode::Parse);
}

TEST(Metadata, ContentRevisionIs40HexOfMetadata) {
  std::string rev = contentRevision("{}\n");
  EXPECT_TRUE(isRevision(rev));
  EXPECT_EQ(rev, sha256Hex("{}\n").substr(0, 40));
}

}  // namespace
}  // namespace wgk::hub

// Package folders: both layouts open, and file reads stay inside build/webgpu/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "package/package.h"
#include "wgk/error.h"

using namespace wgk;
using namespace wgk::package;
namespace fs = std::filesystem;

namespace {
class PackageFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("wgk_pkg_test_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    web_ = root_ / "pkg" / "build" / "webgpu";
    fs::create_directories(web_ / "lib");
    fs::copy_file(fs::path(WGK_SEEDS_DIR) / "com.microsoft.FastGelu.manifest.json", web_ / "manifest.json");
    write(web_ / "lib" / "common.wgsl.jinja", "const K = {{ 1 + 1 }};\n");
    write(root_ / "secret.txt", "outside");
    fs::create_symlink(root_ / "secret.txt", web_ / "escape.txt");
  }
  void TearDown() override { fs::remove_all(root_); }
  static void write(const fs::path& p, const std::string& s) { std::ofstream(p) << s; }
  fs::path root_, web_;
};

void expectCode(ErrorCode code, const std::function<void()>& fn, const std::string& fragment) {
  try {
    fn();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}
}  // namespace

TEST_F(PackageFiles, OpensBothLayouts) {
  auto a = Package::open((root_ / "pkg").string());
  auto b = Package::open(web_.string());
  EXPECT_EQ(a->manifest().id(), "com.microsoft.FastGelu");
  EXPECT_EQ(a->webgpuDir(), b->webgpuDir());
  EXPECT_EQ(a->rootDir(), fs::canonical(root_ / "pkg"));
  expectCode(
      ErrorCode::NotFound, [&] { Package::open(root_.string()); }, "not a kernel package");
}

TEST_F(PackageFiles, ReadsAreConfined) {
  auto p = Package::open((root_ / "pkg").string());
  EXPECT_EQ(p->readFile("lib/common.wgsl.jinja"), "const K = {{ 1 + 1 }};\n");
  EXPECT_TRUE(p->hasFile("manifest.json"));
  EXPECT_FALSE(p->hasFile("escape.txt"));
  expectCode(
      ErrorCode::InvalidArgument, [&] { p->readFile("../../secret.txt"); }, "'..'");
  expectCode(
      ErrorCode::InvalidArgument, [&] { p->readFile((root_ / "secret.txt").string()); }, "absolute");
  expectCode(
      ErrorCode::InvalidArgument, [&] { p->readFile("escape.txt"); }, "outside the package");
  expectCode(
      ErrorCode::NotFound, [&] { p->readFile("missing.wgsl.jinja"); }, "no file");
  auto resolver = p->includeResolver();
  expectCode(
      ErrorCode::InvalidArgument, [&] { resolver("lib/../../../secret.txt"); }, "'..'");
  EXPECT_EQ(resolver("lib/common.wgsl.jinja").size(), 23u);
}

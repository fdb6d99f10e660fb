#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>

#include <cstdio>

#include "io/file.h"
#include "io_test_util.h"

namespace wgk {
namespace {

std::vector<std::string> listDir(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

TEST(File, AtomicWriteReplacesAndLeavesNoTemporaries) {
  const std::string dir = testing::TempDir() + "wgk_file_test";
  mkdir(dir.c_str(), 0755);
  const std::string path = dir + "/a.bin";
  writeFileAtomic(path, testutil::bytesOf("first"));
  writeFileAtomic(path, testutil::bytesOf("second, longer"));
  EXPECT_EQ(readFileBytes(path), testutil::bytesOf("second, longer"));
  writeFileAtomic(path, {});
  EXPECT_TRUE(readFileBytes(path).empty());
  EXPECT_EQ(listDir(dir), std::vector<std::string>{"a.bin"});
  // A failed write (the target is a directory) leaves the directory as it was.
  const std::string sub = dir + "/sub";
  mkdir(sub.c_str(), 0755);
  testutil::expectError([&] { writeFileAtomic(sub, testutil::bytesOf("x")); }, ErrorCode::Io, {sub});
  EXPECT_EQ(listDir(dir).size(), 2u);
  testutil::expectError([&] { readFileBytes(sub); }, ErrorCode::Io, {"directory"});
  rmdir(sub.c_str());
  std::remove(path.c_str());
  rmdir(dir.c_str());
}

TEST(File, ReadsLargeFilesWhole) {
  const std::string path = testing::TempDir() + "wgk_file_big.bin";
  std::vector<std::byte> big(300000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = std::byte(i * 7 % 251);
  writeFileAtomic(path, big);
  EXPECT_EQ(readFileBytes(path), big);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace wgk

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

// issue 15: a device read whole never ends (/dev/zero ran out of memory, exit 70 "internal").
TEST(File, DevicesAndPipesAreRefusedNotReadForever) {
  testutil::expectError([] { readFileBytes("/dev/zero"); }, ErrorCode::Io,
                        {"'/dev/zero' is not a regular file"});
  const std::string fifo = testing::TempDir() + "wgk_file_fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // A FIFO without a writer: a plain open() would block forever.
  testutil::expectError([&] { readFileBytes(fifo); }, ErrorCode::Io, {"not a regular file"});
  std::remove(fifo.c_str());
}

// issue 15: names from a package become file names; a file always lands inside the folder.
TEST(File, OutputPathsStayInsideTheFolder) {
  EXPECT_EQ(pathInsideFolder("out", "Y", ".npy"), "out/Y.npy");
  EXPECT_EQ(pathInsideFolder("out/", "Y", ".npy"), "out/Y.npy");
  for (const char* name : {"../../ESCAPED", "/etc/passwd", "..", ".", "", "a/b"})
    testutil::expectError([&] { pathInsideFolder("out", name, ".npy"); }, ErrorCode::Io,
                          {"not a plain file name inside 'out'"});
}

// issue 15: an unusable output folder is found before any work (it was found after the kernel ran).
TEST(File, OutputFolderProblemsAreIoErrors) {
  const std::string dir = testing::TempDir() + "wgk_outdir_test";
  const std::string file = dir + "/file";
  mkdir(dir.c_str(), 0755);
  writeFileAtomic(file, testutil::bytesOf("x"));
  testutil::expectError([&] { prepareOutputFolder(file); }, ErrorCode::Io, {"exists and is not a folder"});
  testutil::expectError([&] { prepareOutputFolder(file + "/sub/deeper"); }, ErrorCode::Io,
                        {"'" + file + "' is a file"});
  prepareOutputFolder(dir + "/new/nested");
  struct stat st {};
  EXPECT_EQ(stat((dir + "/new/nested").c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  rmdir((dir + "/new/nested").c_str());
  rmdir((dir + "/new").c_str());
  std::remove(file.c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace wgk

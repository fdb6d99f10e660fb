// The persistent pipeline cache's store (runtime/pipeline_store.h) without a GPU: what Dawn stores
// comes back whole; a truncated, corrupt, foreign or linked entry is removed and reported as a miss;
// the size bound evicts the least recently used entries; a folder that is a link is refused; two
// writers of the same entries leave whole entries only.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "runtime/pipeline_store.h"
#include "wgk/error.h"

namespace wgk::runtime {
namespace {

namespace fs = std::filesystem;

struct TempRoot {
  fs::path path;
  TempRoot() {
    path = fs::temp_directory_path() / ("wgk-pipeline-store-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(std::random_device{}()));
    fs::create_directories(path);
  }
  ~TempRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::vector<std::byte> bytes(const std::string& s) {
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

// Dawn's protocol: the size first, then the blob into a buffer of that size.
std::optional<std::string> ask(PipelineStore& store, const std::string& key) {
  const auto k = bytes(key);
  const size_t size = store.load(k, {});
  if (size == 0) return std::nullopt;
  std::string out(size, '\0');
  EXPECT_EQ(store.load(k, {reinterpret_cast<std::byte*>(out.data()), out.size()}), size);
  return out;
}

void put(PipelineStore& store, const std::string& key, const std::string& value) {
  store.store(bytes(key), bytes(value));
}

std::shared_ptr<PipelineStoreCounters> counters() {
  return std::make_shared<PipelineStoreCounters>();
}

TEST(PipelineStore, StoredBlobsComeBackInAnotherStore) {
  TempRoot root;
  auto c1 = counters(), c2 = counters();
  PipelineStore a(root.path, "adapter A", 0, c1);
  EXPECT_FALSE(ask(a, "key1"));
  put(a, "key1", "compiled code");
  EXPECT_EQ(c1->misses, 1u);
  EXPECT_EQ(c1->stores, 1u);
  PipelineStore b(root.path, "adapter A", 0, c2);  // a second process
  EXPECT_EQ(b.folder(), a.folder());
  EXPECT_EQ(ask(b, "key1"), "compiled code");
  EXPECT_EQ(c2->hits, 1u);  // one per blob, not one per call of Dawn's two
  EXPECT_EQ(c2->misses, 0u);
  EXPECT_FALSE(ask(b, "key2"));
}

TEST(PipelineStore, AnotherAdapterOrDawnBuildReadsAnotherFolder) {
  TempRoot root;
  PipelineStore a(root.path, "vendor=x;dawn=build-id:1", 0, counters());
  put(a, "k", "v");
  PipelineStore b(root.path, "vendor=x;dawn=build-id:2", 0, counters());
  EXPECT_NE(a.folder(), b.folder());
  EXPECT_FALSE(ask(b, "k"));
  EXPECT_TRUE(fs::is_regular_file(a.folder() / "identity.txt"));
}

TEST(PipelineStore, DamagedEntriesAreRemovedNotUsed) {
  TempRoot root;
  auto c = counters();
  PipelineStore s(root.path, "id", 0, c);
  const std::string value(1000, 'x');
  for (const char* k : {"trunc", "flip", "magic", "other"}) put(s, k, value);
  const auto entry = [&](const std::string& k) { return s.entryPath(bytes(k)); };
  fs::resize_file(entry("trunc"), fs::file_size(entry("trunc")) - 10);
  {
    std::fstream f(entry("flip"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('y');  // the payload no longer matches its checksum
  }
  {
    std::fstream f(entry("magic"), std::ios::in | std::ios::out | std::ios::binary);
    f.put('X');
  }
  fs::copy_file(entry("other"), entry("foreign"));  // a whole entry, of another key
  for (const char* k : {"trunc", "flip", "magic", "foreign"}) {
    EXPECT_FALSE(ask(s, k)) << k;
    EXPECT_FALSE(fs::exists(entry(k))) << k;
  }
  EXPECT_EQ(c->rejected, 4u);
  EXPECT_EQ(c->hits, 0u);
  put(s, "flip", value);  // a damaged entry is simply written again
  EXPECT_EQ(ask(s, "flip"), value);
}

TEST(PipelineStore, AnEntryThatIsALinkIsNeverFollowed) {
  TempRoot root;
  auto c = counters();
  PipelineStore s(root.path, "id", 0, c);
  put(s, "real", "payload");
  const fs::path elsewhere = root.path / "elsewhere";
  fs::copy_file(s.entryPath(bytes("real")), elsewhere);
  fs::create_symlink(elsewhere, s.entryPath(bytes("linked")));
  EXPECT_FALSE(ask(s, "linked"));
  EXPECT_EQ(c->rejected, 1u);
  EXPECT_FALSE(fs::exists(fs::symlink_status(s.entryPath(bytes("linked")))));
  EXPECT_TRUE(fs::exists(elsewhere));  // the link is gone, not its target
}

TEST(PipelineStore, SizeBoundEvictsLeastRecentlyUsed) {
  TempRoot root;
  auto c = counters();
  const std::string value(1000, 'v');  // each entry: 1000 + key + header (< 1200 bytes)
  PipelineStore s(root.path, "id", 4000, c);
  put(s, "a", value);
  put(s, "b", value);
  put(s, "c", value);
  // Age the entries (mtime is the LRU clock), then use "a": "b" is now the oldest.
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const char* k : {"a", "b", "c"}) fs::last_write_time(s.entryPath(bytes(k)), old);
  fs::last_write_time(s.entryPath(bytes("c")), old + std::chrono::minutes(1));
  EXPECT_TRUE(ask(s, "a"));
  put(s, "d", value);  // 4 entries do not fit in 4000 bytes
  EXPECT_EQ(c->evictions, 1u);
  EXPECT_FALSE(fs::exists(s.entryPath(bytes("b"))));
  for (const char* k : {"a", "c", "d"}) EXPECT_TRUE(ask(s, k)) << k;
  put(s, "huge", std::string(5000, 'h'));  // larger than the whole bound: not stored
  EXPECT_FALSE(ask(s, "huge"));
  EXPECT_EQ(c->stores, 4u);
}

TEST(PipelineStore, FolderBelowTheCacheThatIsALinkIsRefused) {
  TempRoot root, elsewhere;
  fs::create_symlink(elsewhere.path, root.path / "pipelines");
  try {
    PipelineStore s(root.path, "id", 0, counters());
    FAIL() << "a linked pipelines folder was used";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Io);
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(elsewhere.path));
  // The factory the runtime uses turns the refusal into "no cache", not an error.
  RuntimeOptions o;
  o.cacheDir = root.path.string();
  DeviceProfile adapter;
  EXPECT_EQ(pipelineStoreFactory(o, counters())(gpu::BlobCacheIdentity{adapter, "b"}), nullptr);
  o.pipelineCache = false;
  EXPECT_FALSE(pipelineStoreFactory(o, counters()));
}

TEST(PipelineStore, TwoWritersLeaveWholeEntries) {
  TempRoot root;
  auto c1 = counters(), c2 = counters();
  PipelineStore a(root.path, "id", 0, c1), b(root.path, "id", 0, c2);
  auto writer = [](PipelineStore& s, char fill) {
    for (int round = 0; round < 20; ++round)
      for (int k = 0; k < 8; ++k) put(s, "key" + std::to_string(k), std::string(20000 + k, fill));
  };
  std::thread t1(writer, std::ref(a), 'a'), t2(writer, std::ref(b), 'b');
  t1.join();
  t2.join();
  for (int k = 0; k < 8; ++k) {
    auto v = ask(a, "key" + std::to_string(k));
    ASSERT_TRUE(v) << k;
    EXPECT_EQ(v->size(), size_t(20000 + k));
    EXPECT_TRUE(v->find_first_not_of(v->front()) == std::string::npos) << "mixed writers in key" << k;
  }
  EXPECT_EQ(c1->rejected + c2->rejected, 0u);
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(a.folder())) files += e.path().filename() != "identity.txt";
  EXPECT_EQ(files, 8u);  // no temporary file left behind
}

}  // namespace
}  // namespace wgk::runtime

#include "runtime/pipeline_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/log.h"
#include "hub/cache.h"
#include "hub/digest.h"
#include "hub/fs_util.h"
#include "wgk/error.h"

namespace wgk::runtime {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'W', 'G', 'K', 'B', 'L', 'O', 'B', '1'};
constexpr size_t kDigestChars = 64;
constexpr size_t kHeaderBytes = sizeof kMagic + 8 + 8 + kDigestChars;
// A temporary file this old belongs to a writer that died before its rename.
constexpr auto kStaleTemp = std::chrono::minutes(10);

std::string_view bytesView(std::span<const std::byte> b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

void putU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

uint64_t getU64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

std::string checksum(std::string_view key, std::string_view value) {
  std::string both;
  both.reserve(key.size() + value.size());
  both.append(key).append(value);
  return hub::sha256Hex(both);
}

bool isEntryName(const std::string& name) {
  return name.size() == kDigestChars && name.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The whole file behind `fd`, or nullopt when it cannot be read.
std::optional<std::string> readAll(int fd, size_t size) {
  std::string out(size, '\0');
  size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, out.data() + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    got += static_cast<size_t>(n);
  }
  return out;
}

}  // namespace

fs::path PipelineStore::folderFor(const fs::path& cacheDir, const std::string& identity) {
  return cacheDir / "pipelines" / hub::sha256Hex(identity).substr(0, 16);
}

PipelineStore::PipelineStore(const fs::path& cacheDir, const std::string& identity, uint64_t maxBytes,
                             std::shared_ptr<PipelineStoreCounters> counters)
    : cacheDir_(cacheDir),
      folder_(folderFor(cacheDir, identity)),
      maxBytes_(maxBytes ? maxBytes : kDefaultMaxBytes),
      counters_(std::move(counters)) {
  hub::refuseLinksBelow(cacheDir_, folder_, "use the pipeline cache folder");
  std::error_code ec;
  if (fs::is_directory(fs::symlink_status(folder_, ec))) return;
  fs::create_directories(folder_, ec);
  if (ec)
    throw Error(ErrorCode::Io,
                "cannot create the pipeline cache folder " + folder_.string() + ": " + ec.message());
  hub::refuseLinksBelow(cacheDir_, folder_, "use the pipeline cache folder");  // a link planted meanwhile
  hub::writeFileAtomic(folder_ / "identity.txt", identity + "\n");
}

PipelineStore::~PipelineStore() {
  const PipelineStoreCounters& c = *counters_;
  log::debug("pipeline-cache", folder_.string() + ": " + std::to_string(c.hits) + " hits, " +
                                   std::to_string(c.misses) + " misses, " + std::to_string(c.stores) +
                                   " stores, " + std::to_string(c.evictions) + " evictions, " +
                                   std::to_string(c.rejected) + " rejected");
}

fs::path PipelineStore::entryPath(std::span<const std::byte> key) const {
  return folder_ / hub::sha256Hex(bytesView(key));
}

// The value of the entry `file` for `key`; nullopt when absent. A file that is not a whole,
// intact entry for this key is removed (and counted as rejected).
std::optional<std::string> PipelineStore::readEntry(const fs::path& file, std::span<const std::byte> key) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return std::nullopt;
  std::optional<std::string> bytes;
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
    bytes = readAll(fd, static_cast<size_t>(st.st_size));
  std::optional<std::string> value;
  if (bytes && bytes->size() >= kHeaderBytes && std::memcmp(bytes->data(), kMagic, sizeof kMagic) == 0) {
    const uint64_t keySize = getU64(bytes->data() + 8), valueSize = getU64(bytes->data() + 16);
    const std::string_view all(*bytes);
    if (keySize == key.size() && valueSize == bytes->size() - kHeaderBytes - keySize &&
        all.substr(kHeaderBytes, keySize) == bytesView(key)) {
      const std::string_view v = all.substr(kHeaderBytes + keySize);
      if (all.substr(24, kDigestChars) == checksum(bytesView(key), v)) value = std::string(v);
    }
  }
  if (value) {
    ::futimens(fd, nullptr);  // recently used: evicted last
  } else {
    // A link (ELOOP), a folder, a short or damaged file, another key's file: never used again.
    log::debug("pipeline-cache", "removing the damaged or foreign entry " + file.string());
    ::unlink(file.c_str());
    ++counters_->rejected;
  }
  if (fd >= 0) ::close(fd);
  return value;
}

size_t PipelineStore::load(std::span<const std::byte> key, std::span<std::byte> out) noexcept {
  try {
    std::lock_guard lock(mutex_);
    const bool again = std::equal(key.begin(), key.end(), lastKey_.begin(), lastKey_.end());
    if (!again) {
      std::optional<std::string> value = readEntry(entryPath(key), key);
      ++(value ? counters_->hits : counters_->misses);
      lastKey_.clear();
      lastValue_.clear();
      if (!value) return 0;
      lastKey_.assign(key.begin(), key.end());
      lastValue_ = std::move(*value);
    }
    const size_t size = lastValue_.size();
    if (!out.empty() && out.size() >= size) {
      std::memcpy(out.data(), lastValue_.data(), size);
      lastKey_.clear();  // handed over: the next ask reads the file again
      lastValue_.clear();
    }
    return size;
  } catch (const std::exception& e) {  // Dawn's hook must not throw: a failed load is a miss
    log::debug("pipeline-cache", std::string("load failed: ") + e.what());
    return 0;
  }
}

void PipelineStore::store(std::span<const std::byte> key, std::span<const std::byte> value) noexcept {
  try {
    std::lock_guard lock(mutex_);
    if (std::equal(key.begin(), key.end(), lastKey_.begin(), lastKey_.end())) {
      lastKey_.clear();
      lastValue_.clear();
    }
    writeEntry(key, value);
  } catch (const std::exception& e) {  // a cache that cannot write only costs a later compilation
    log::debug("pipeline-cache", std::string("store failed: ") + e.what());
  }
}

void PipelineStore::writeEntry(std::span<const std::byte> key, std::span<const std::byte> value) {
  const uint64_t size = kHeaderBytes + key.size() + value.size();
  if (size > maxBytes_) return;  // larger than the whole cache may be
  std::string bytes(kMagic, sizeof kMagic);
  bytes.reserve(size);
  putU64(bytes, key.size());
  putU64(bytes, value.size());
  bytes += checksum(bytesView(key), bytesView(value));
  bytes.append(bytesView(key)).append(bytesView(value));
  const fs::path file = entryPath(key);
  if (!bytes_) bytes_ = scanBytes();
  struct stat old {};
  const uint64_t replaced = ::lstat(file.c_str(), &old) == 0 && S_ISREG(old.st_mode) ? old.st_size : 0;
  if (*bytes_ - std::min(*bytes_, replaced) + size > maxBytes_) evictToFit(size);
  hub::writeFileAtomic(file, bytes);
  *bytes_ = *bytes_ - std::min(*bytes_, replaced) + size;
  ++counters_->stores;
}

// The bytes of the folder's entries (other processes may have added some since the last scan);
// removes temporary files that writers left behind when they died.
uint64_t PipelineStore::scanBytes() {
  uint64_t total = 0;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (auto it = fs::directory_iterator(folder_, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    std::error_code e2;
    const fs::file_status st = it->symlink_status(e2);
    const std::string name = it->path().filename().string();
    if (e2 || !fs::is_regular_file(st)) continue;
    if (isEntryName(name)) {
      total += it->file_size(e2);
    } else if (name.find(".tmp-") != std::string::npos && now - it->last_write_time(e2) > kStaleTemp) {
      ::unlink(it->path().c_str());
    }
  }
  return total;
}

// Removes the least recently used entries until `incoming` more bytes fit under maxBytes_.
void PipelineStore::evictToFit(uint64_t incoming) {
  struct Entry {
    fs::file_time_type used;
    uint64_t size;
    fs::path path;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator(folder_, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    std::error_code e2;
    if (!fs::is_regular_file(it->symlink_status(e2)) || !isEntryName(it->path().filename().string()))
      continue;
    Entry e{it->last_write_time(e2), it->file_size(e2), it->path()};
    if (e2) continue;
    total += e.size;
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total + incoming <= maxBytes_) break;
    if (::unlink(e.path.c_str()) != 0 && errno != ENOENT) continue;
    total -= e.size;
    ++counters_->evictions;
  }
  bytes_ = total;
}

gpu::BlobCacheFactory pipelineStoreFactory(const RuntimeOptions& options,
                                           std::shared_ptr<PipelineStoreCounters> counters) {
  if (!options.pipelineCache) return {};
  return [dir = options.cacheDir, max = options.pipelineCacheMaxBytes, counters = std::move(counters)](
             const gpu::BlobCacheIdentity& id) -> std::shared_ptr<gpu::BlobCache> {
    try {
      const fs::path root = dir.empty() ? hub::Cache::defaultRoot() : fs::path(dir);
      return std::make_shared<PipelineStore>(root, id.text(), max, counters);
    } catch (const Error& e) {  // only costs compilations: run without it
      log::warn("pipeline-cache",
                std::string(e.what()) + "; pipelines are compiled without the persistent cache");
      return nullptr;
    }
  };
}

}  // namespace wgk::runtime

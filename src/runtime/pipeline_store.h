// The persistent pipeline cache: Dawn's compiled code (gpu/blob_cache.h) kept on disk, so a second
// process compiles nothing the first compiled.
//
//   <cache dir>/pipelines/<identity hash>/<sha256 of Dawn's key>   one entry per blob
//   <cache dir>/pipelines/<identity hash>/identity.txt            what the hash stands for
//
// The identity (adapter vendor, architecture, device, driver description, backend, Dawn build) picks
// the folder: a driver or Dawn update reads an empty folder, never stale blobs. Each entry is
//   "WGKBLOB1" | key bytes (u64 LE) | value bytes (u64 LE) | SHA-256 hex of key+value (64) | key | value
// and is checked on every load: a truncated, corrupt or foreign file (other magic, another key) is
// removed and reported as a miss, never handed to Dawn. Writers write a temporary sibling and rename
// it into place (hub/fs_util.h), so readers and concurrent processes see whole entries only; no
// entry is opened through a symbolic link, and a folder below the cache dir that is a link is refused
// (Error(Io) from the constructor). When a store would take the folder past maxBytes, the least
// recently used entries (mtime, bumped by each load) are removed first.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gpu/blob_cache.h"
#include "wgk/runtime.h"

namespace wgk::runtime {

// Shared by the stores a runtime makes (a new one per device, after a device loss).
struct PipelineStoreCounters {
  std::atomic<uint64_t> hits{0}, misses{0}, stores{0}, evictions{0}, rejected{0};
};

class PipelineStore final : public gpu::BlobCache {
 public:
  static constexpr uint64_t kDefaultMaxBytes = 256ull << 20;

  // The folder <cacheDir>/pipelines/<hash of identity>/, created. Error(Io) when a folder on the
  // way below cacheDir is a symbolic link, or it cannot be created.
  PipelineStore(const std::filesystem::path& cacheDir, const std::string& identity, uint64_t maxBytes,
                std::shared_ptr<PipelineStoreCounters> counters);

  ~PipelineStore() override;  // logs the runtime's counts (WGK_LOG=debug)

  size_t load(std::span<const std::byte> key, std::span<std::byte> out) noexcept override;
  void store(std::span<const std::byte> key, std::span<const std::byte> value) noexcept override;

  const std::filesystem::path& folder() const { return folder_; }
  static std::filesystem::path folderFor(const std::filesystem::path& cacheDir, const std::string& identity);
  // The file of `key` in the folder (the SHA-256 hex of the key).
  std::filesystem::path entryPath(std::span<const std::byte> key) const;

 private:
  std::optional<std::string> readEntry(const std::filesystem::path& file, std::span<const std::byte> key);
  void writeEntry(std::span<const std::byte> key, std::span<const std::byte> value);
  void evictToFit(uint64_t incoming);
  uint64_t scanBytes();

  std::filesystem::path cacheDir_, folder_;
  uint64_t maxBytes_;
  std::shared_ptr<PipelineStoreCounters> counters_;
  std::mutex mutex_;
  // Dawn asks for a blob's size, then for the blob: the payload read for the first is kept for the
  // second, so both see the same bytes even if another process replaces the file in between.
  std::vector<std::byte> lastKey_;
  std::string lastValue_;
  std::optional<uint64_t> bytes_;  // the folder's size, scanned at the first store
};

// What gpu::Device::create asks for the store of an adapter (gpu/blob_cache.h), for a runtime
// with these options: a PipelineStore under options.cacheDir (empty: the
// hub's default root), counting into `counters`; none when options.pipelineCache is false. A folder
// that cannot be used gives a warning and no store.
gpu::BlobCacheFactory pipelineStoreFactory(const RuntimeOptions& options,
                                           std::shared_ptr<PipelineStoreCounters> counters);

}  // namespace wgk::runtime

// The runtime's in-memory pipeline cache: compiled compute pipelines shared by every plan and
// kernel of one runtime, bounded (least recently used first out), with hit/miss/evict counters in
// CacheStats. (The persistent cache of Dawn's compiled code across processes is another thing:
// runtime/pipeline_store.h.)
//
// A key names what the pass is specialised on and identifies its code: the package op, variant
// and pass, the dtypes and overridden tunables the render saw (the "name"), plus the SHA-256 of
// the binding layout and the rendered WGSL (the "digest"). The name keeps apart passes that merely
// render alike across packages and makes the cache readable; the digest is what makes reuse safe:
// every input of the render that changes the code changes the text, and SHA-256 collisions cannot
// be produced, so a hit is the same shader without keeping or comparing the whole text. Device
// features need no place in the key: the cache belongs to one device (reset() on a new one).
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpu/device.h"

namespace wgk::runtime {

struct PipelineKey {
  std::string name;    // "<op>/<variant>/<pass> <dtypes> <tunables>": what the pass is specialised on
  std::string digest;  // SHA-256 (hex) of the binding layout and the WGSL
  // The key of one pass: `name` as above, the digest computed here.
  static PipelineKey of(std::string name, const std::string& wgsl,
                        const std::vector<gpu::BindingKind>& layout);
};

class PipelineCache {
 public:
  static constexpr size_t kDefaultCapacity = 256;
  // capacity 0: kDefaultCapacity.
  PipelineCache(gpu::Device device, size_t capacity);
  // The pipeline for `key`: cached, else compiled from `wgsl` (which must be the text the key's
  // digest was made of). Callers hold the runtime's GPU lock (compilation uses the device). A
  // pipeline evicted here stays alive while a prepared plan still holds it.
  gpu::ComputePipeline get(const PipelineKey& key, const std::string& wgsl,
                           const std::vector<gpu::BindingKind>& layout, const std::string& label);
  // Forgets every pipeline and compiles on `device` from now on (after a device loss).
  void reset(gpu::Device device);

  size_t capacity() const { return capacity_; }
  uint64_t compiled() const { return compiled_; }  // successful compilations
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }  // look-ups that had to compile (failed ones too)
  uint64_t evictions() const { return evictions_; }
  uint64_t size() const { return size_; }
  // The names of the cached pipelines, most recently used first (tests, diagnostics).
  std::vector<std::string> names() const;

 private:
  struct Entry {
    std::string key;  // name + '\n' + digest: the index's key
    std::string name;
    gpu::ComputePipeline pipeline;
  };
  gpu::Device device_;
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;  // front: most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  // Atomic: cacheStats() reads them without the lock while other threads compile.
  std::atomic<uint64_t> compiled_{0}, hits_{0}, misses_{0}, evictions_{0}, size_{0};
};

}  // namespace wgk::runtime

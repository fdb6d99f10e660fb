// Dawn's blob cache as wgk sees it: Dawn hands out opaque (key, blob) pairs of compiled code (Tint's
// SPIR-V, the driver's VkPipelineCache data) through the WGPUDawnCacheDeviceDescriptor chained
// into the device descriptor, and asks for them back before compiling. A BlobCache stores them;
// what it stores is the caller's business (the runtime's on-disk store: runtime/pipeline_store.h).
// Device::create asks a BlobCacheFactory for one once the adapter is known, so the store can be
// keyed by adapter, driver and Dawn build: compiled code is never handed to another driver.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "wgk/device.h"

namespace wgk::gpu {

class BlobCache {
 public:
  virtual ~BlobCache() = default;
  // The size of the blob stored under `key` (0: none). When `out` is at least that size, the blob
  // is copied into it. Dawn asks twice: first with an empty `out` for the size, then with room.
  // Called from Dawn (any thread): must not throw.
  virtual size_t load(std::span<const std::byte> key, std::span<std::byte> out) noexcept = 0;
  virtual void store(std::span<const std::byte> key, std::span<const std::byte> value) noexcept = 0;
};

// What identifies the code Dawn compiles on this adapter: its adapter info (vendor, architecture,
// device, driver description, backend) and the Dawn build (gpu/loader.h LoaderInfo::build).
struct BlobCacheIdentity {
  const DeviceProfile& adapter;
  std::string dawnBuild;
  // One line naming all of the above, e.g. "vendor=mesa;architecture=...;dawn=<build id>".
  std::string text() const;
};

// Returns the cache to use with this adapter, or null for none. Called once per device created.
using BlobCacheFactory = std::function<std::shared_ptr<BlobCache>(const BlobCacheIdentity&)>;

}  // namespace wgk::gpu

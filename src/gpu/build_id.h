// What identifies the build of a loaded shared library, for caches of what it produced (the
// pipeline cache keys Dawn's compiled code by it: a Dawn update must never load stale blobs).
#pragma once

#include <string>

namespace wgk::gpu {

// "build-id:<hex>" from the GNU build-id note of the loaded library `handle` (a dlopen handle), read
// from memory (no file I/O); else "file:<size>:<mtime ns>" of `path`; else "" when neither is known.
std::string libraryBuild(void* handle, const std::string& path);

}  // namespace wgk::gpu

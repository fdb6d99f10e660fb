// The WebGPU loader: finds a Dawn library at run time and resolves every webgpu.h function wgk
// uses into one process-wide table (webgpu_procs.h, internal to src/gpu). docs/setup.md explains
// the search order and the errors.
//
// Two kinds of library:
//  - dawn.node of npm webgpu@0.6.2 (the default). A Node addon: its WebGPU functions are local
//    symbols, found through the ELF .symtab; it is dlopen'ed after libwgk_napi_stubs.so makes its
//    N-API imports resolvable, then dawnProcSetProcs(dawn::native::GetProcs()) is called.
//  - any library exporting the C API (DeviceOptions::webgpuLibrary; WGK_WEBGPU_LIBRARY=/path/to/
//    libwebgpu_dawn.so), via dlsym.
//
// The loader reads no environment variable: the paths come from DeviceOptions (which
// RuntimeOptions::fromEnvironment fills from WGK_WEBGPU_LIBRARY, WGK_DAWN_NODE, WGK_NAPI_STUBS).
// Where dawn.node is looked for: DeviceOptions::dawnNode, else <prefix>/<libdir>/wgk/dawn.node of the
// install prefix wgk runs from (core/install_layout.h), else the path configured at build time
// (CMake cache WGK_DAWN_NODE), else dawn.node next to the executable. The first library loaded stays
// loaded for the life of the process; loading is thread-safe and happens once.
//
//   const wgk::gpu::LoaderInfo& info = wgk::gpu::ensureLoaded(options);  // throws Error(Setup)
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "wgk/device.h"

namespace wgk::gpu {

enum class LibraryKind {
  DawnNode,     // npm webgpu's dawn.node: .symtab lookup + N-API stubs + dawnProcSetProcs
  CApiLibrary,  // a shared library exporting wgpu* normally: dlsym
};

struct LoaderConfig {
  LibraryKind kind = LibraryKind::DawnNode;
  std::string path;                // the file to load
  // Why this path: "WGK_DAWN_NODE" (DeviceOptions::dawnNode, which the edges fill from it),
  // "the build default", ...
  std::string source;
  std::vector<std::string> tried;  // every path considered, for the "not found" message
  std::string napiStubs;           // libwgk_napi_stubs.so to use (DawnNode); empty: search

  // The configuration the options ask for: webgpuLibrary, else dawnNode, else the search above;
  // with their napiStubs.
  static LoaderConfig forOptions(const DeviceOptions& options);
  static LoaderConfig dawnNode(std::string path, std::string source = "argument");
  static LoaderConfig cApiLibrary(std::string path, std::string source = "argument");
};

struct LoaderInfo {
  LibraryKind kind = LibraryKind::DawnNode;
  std::string path;       // the library loaded
  std::string source;     // where its path came from
  std::string napiStubs;  // the stubs library used (DawnNode only)
  size_t functions = 0;   // webgpu.h functions resolved
  std::string build;      // the library's build (gpu/build_id.h): its GNU build id, else size and mtime
};

// Loads the library `options` name (LoaderConfig::forOptions) once per process and returns what was
// loaded; once a library is loaded, later calls return it whatever their options say. Throws
// Error(Setup) naming the file tried and how to fix it; a later call retries.
const LoaderInfo& ensureLoaded(const DeviceOptions& options);

// Loads and self-checks `config` (every needed symbol present) without making it the process's
// library: lets tests and tools check a candidate file. Throws Error(Setup) with a clear message.
LoaderInfo loadLibrary(const LoaderConfig& config);

// The names of every webgpu.h function the project needs (the self-check list).
std::vector<std::string> requiredFunctionNames();

}  // namespace wgk::gpu

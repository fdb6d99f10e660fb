#include "gpu/loader.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "core/install_layout.h"
#include "gpu/build_id.h"
#include "gpu/elf_symbols.h"
#include "gpu/webgpu_procs.h"
#include "wgk/error.h"

namespace wgk::gpu {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSetProcs = "dawnProcSetProcs";
constexpr const char* kGetProcs = "_ZN4dawn6native8GetProcsEv";  // dawn::native::GetProcs()
constexpr const char* kFixHint =
    "run scripts/setup.sh (it fetches npm webgpu@0.6.2 into third_party/), or set WGK_DAWN_NODE=/path/to/"
    "dawn.node, or WGK_WEBGPU_LIBRARY=/path/to/libwebgpu_dawn.so";

bool isFile(const std::string& p) {
  struct stat st {};
  return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string executableDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

std::string joinTried(const std::vector<std::string>& tried) {
  std::string out;
  for (const auto& t : tried) out += (out.empty() ? "" : ", ") + ("'" + t + "'");
  return out;
}

[[noreturn]] void notFound(const LoaderConfig& c) {
  std::string what = c.kind == LibraryKind::DawnNode ? "dawn.node" : "the WebGPU library";
  std::string msg = what + " not found at '" + c.path + "' (from " + c.source + ")";
  if (c.tried.size() > 1) msg += "; tried " + joinTried(c.tried);
  throw Error(ErrorCode::Setup, msg + ": " + kFixHint);
}

// The install prefix's folder of run-time files (core/install_layout.h), or "" outside a prefix.
std::string installedRuntimeFile(const char* name) {
  auto dir = install::runtimeFilesDir();
  return dir ? (*dir / name).string() : std::string();
}

// libwgk_napi_stubs.so: the one the config names (DeviceOptions::napiStubs, WGK_NAPI_STUBS), the
// install prefix wgk runs from, next to the executable, the build tree.
std::string findNapiStubs(const LoaderConfig& c, std::vector<std::string>& tried) {
  std::vector<std::string> candidates;
  if (!c.napiStubs.empty()) candidates.push_back(c.napiStubs);
  if (std::string p = installedRuntimeFile("libwgk_napi_stubs.so"); !p.empty()) candidates.push_back(p);
  if (std::string d = executableDir(); !d.empty()) candidates.push_back(d + "/libwgk_napi_stubs.so");
  candidates.push_back(WGK_NAPI_STUBS_BUILD_PATH);
  for (const auto& p : candidates) {
    tried.push_back(p);
    if (isFile(p)) return p;
  }
  return {};
}

struct Loaded {
  Procs procs;
  LoaderInfo info;
};

void fillFromAddresses(Procs& p, const std::unordered_map<std::string, void*>& addr) {
#define WGK_ASSIGN_PROC(Name) p.Name = reinterpret_cast<WGPUProc##Name>(addr.at("wgpu" #Name));
  WGK_WEBGPU_PROCS(WGK_ASSIGN_PROC)
#undef WGK_ASSIGN_PROC
}

[[noreturn]] void missingSymbols(const std::string& path, const std::vector<std::string>& missing) {
  std::string list;
  for (size_t i = 0; i < missing.size() && i < 8; ++i) list += (i ? ", " : "") + missing[i];
  if (missing.size() > 8) list += ", ... (" + std::to_string(missing.size()) + " in all)";
  throw Error(ErrorCode::Setup, "'" + path + "' lacks the WebGPU function" +
                                    (missing.size() > 1 ? "s " : " ") + list +
                                    ": it is not the Dawn wgk was built for (npm webgpu@0.6.2, webgpu.h of "
                                    "react-native-webgpu@0.10.2)");
}

Loaded loadDawnNode(const LoaderConfig& c) {
  if (!isFile(c.path)) notFound(c);
  // Parse first: a non-ELF, foreign or stripped file gets a precise message before dlopen.
  std::vector<std::string> wanted = requiredFunctionNames();
  wanted.push_back(kSetProcs);
  wanted.push_back(kGetProcs);
  auto offsets = readElfFunctionSymbols(c.path, wanted);
  std::vector<std::string> missing;
  for (const auto& w : wanted)
    if (!offsets.count(w)) missing.push_back(w);
  if (!missing.empty()) missingSymbols(c.path, missing);

  std::vector<std::string> stubTried;
  std::string stubs = findNapiStubs(c, stubTried);
  if (stubs.empty())
    throw Error(ErrorCode::Setup,
                "libwgk_napi_stubs.so (built with wgk, needed to load dawn.node) not found; "
                "tried " +
                    joinTried(stubTried) + ": rebuild wgk or set WGK_NAPI_STUBS");
  // RTLD_GLOBAL: its napi_* definitions must satisfy dawn.node's imports.
  if (!::dlopen(stubs.c_str(), RTLD_NOW | RTLD_GLOBAL))
    throw Error(ErrorCode::Setup, "cannot load '" + stubs + "': " + std::string(::dlerror()));
  void* handle = ::dlopen(c.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw Error(ErrorCode::Setup, "cannot load '" + c.path + "': " + std::string(::dlerror()) +
                                      " (dawn.node needs libstdc++ with GLIBCXX_3.4.29 or newer)");
  struct link_map* lm = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
    throw Error(ErrorCode::Setup,
                "cannot find the load address of '" + c.path + "': " + std::string(::dlerror()));
  const auto base = static_cast<uintptr_t>(lm->l_addr);
  std::unordered_map<std::string, void*> addr;
  for (const auto& [name, off] : offsets) addr.emplace(name, reinterpret_cast<void*>(base + off));

  Loaded out;
  fillFromAddresses(out.procs, addr);
  // dawn.node's wgpu* functions dispatch through dawn_proc's table, which Node's module init fills;
  // without this, wgpuCreateInstance returns null.
  using GetProcsFn = const void* (*)();
  using SetProcsFn = void (*)(const void*);
  auto getProcs = reinterpret_cast<GetProcsFn>(addr.at(kGetProcs));
  auto setProcs = reinterpret_cast<SetProcsFn>(addr.at(kSetProcs));
  setProcs(getProcs());
  out.info = LoaderInfo{LibraryKind::DawnNode,       c.path, c.source, stubs, requiredFunctionNames().size(),
                        libraryBuild(handle, c.path)};
  return out;
}

Loaded loadCApiLibrary(const LoaderConfig& c) {
  if (!isFile(c.path)) notFound(c);
  void* handle = ::dlopen(c.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw Error(ErrorCode::Setup, "cannot load '" + c.path + "': " + std::string(::dlerror()));
  std::unordered_map<std::string, void*> addr;
  std::vector<std::string> missing;
  for (const auto& name : requiredFunctionNames()) {
    void* p = ::dlsym(handle, name.c_str());
    if (p)
      addr.emplace(name, p);
    else
      missing.push_back(name);
  }
  if (!missing.empty()) {
    ::dlclose(handle);
    missingSymbols(c.path, missing);
  }
  Loaded out;
  fillFromAddresses(out.procs, addr);
  out.info = LoaderInfo{LibraryKind::CApiLibrary,    c.path, c.source, {}, requiredFunctionNames().size(),
                        libraryBuild(handle, c.path)};
  return out;
}

Loaded load(const LoaderConfig& c) {
  return withContext("while loading WebGPU from '" + c.path + "'",
                     [&] { return c.kind == LibraryKind::DawnNode ? loadDawnNode(c) : loadCApiLibrary(c); });
}

// The installed table. Written once under the mutex, then only read.
std::mutex g_mutex;
Loaded* g_loaded = nullptr;

}  // namespace

std::string fromView(WGPUStringView v) {
  if (!v.data) return {};
  return v.length == WGPU_STRLEN ? std::string(v.data) : std::string(v.data, v.length);
}

std::vector<std::string> requiredFunctionNames() {
  return {
#define WGK_PROC_NAME(Name) "wgpu" #Name,
      WGK_WEBGPU_PROCS(WGK_PROC_NAME)
#undef WGK_PROC_NAME
  };
}

LoaderConfig LoaderConfig::dawnNode(std::string path, std::string source) {
  LoaderConfig c;
  c.kind = LibraryKind::DawnNode;
  c.tried = {path};
  c.path = std::move(path);
  c.source = std::move(source);
  return c;
}

LoaderConfig LoaderConfig::cApiLibrary(std::string path, std::string source) {
  LoaderConfig c = dawnNode(std::move(path), std::move(source));
  c.kind = LibraryKind::CApiLibrary;
  return c;
}

namespace {
// The library the options name, else the first of the search that exists (when none does, the
// first is reported with every path tried).
LoaderConfig libraryFor(const DeviceOptions& options) {
  if (!options.webgpuLibrary.empty())
    return LoaderConfig::cApiLibrary(options.webgpuLibrary, "WGK_WEBGPU_LIBRARY");
  if (!options.dawnNode.empty()) return LoaderConfig::dawnNode(options.dawnNode, "WGK_DAWN_NODE");
  std::vector<std::pair<std::string, std::string>> candidates;  // (path, source)
  if (std::string p = installedRuntimeFile("dawn.node"); !p.empty())
    candidates.emplace_back(p, "the install prefix");
  candidates.emplace_back(WGK_DAWN_NODE_DEFAULT, "the build default");
  if (std::string d = executableDir(); !d.empty())
    candidates.emplace_back(d + "/dawn.node", "next to the executable");
  LoaderConfig c = LoaderConfig::dawnNode(candidates.front().first, candidates.front().second);
  c.tried.clear();
  for (const auto& [path, source] : candidates) {
    c.tried.push_back(path);
    if (isFile(path)) {
      c.path = path;
      c.source = source;
      break;
    }
  }
  return c;
}
}  // namespace

LoaderConfig LoaderConfig::forOptions(const DeviceOptions& options) {
  LoaderConfig c = libraryFor(options);
  c.napiStubs = options.napiStubs;
  return c;
}

LoaderInfo loadLibrary(const LoaderConfig& config) {
  return load(config).info;
}

const LoaderInfo& ensureLoaded(const DeviceOptions& options) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_loaded) g_loaded = new Loaded(load(LoaderConfig::forOptions(options)));  // lives until exit
  return g_loaded->info;
}

const Procs& procs() {
  // Fast path without the lock once loaded: g_loaded is published under the mutex and never changes.
  static const Procs* table = [] {
    ensureLoaded(DeviceOptions{});
    return &g_loaded->procs;
  }();
  return *table;
}

}  // namespace wgk::gpu

#include "core/install_layout.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <vector>

namespace fs = std::filesystem;

namespace wgk::install {
namespace {

// A symbol with internal linkage: its address always lies in the module this file is linked into,
// even when another module defines the same public functions.
const char kAnchor = 0;

bool endsWith(const fs::path& dir, const fs::path& tail) {
  std::vector<fs::path> d(dir.begin(), dir.end()), t(tail.begin(), tail.end());
  while (!t.empty() && t.back().empty()) t.pop_back();  // "lib/" has an empty last element
  if (t.empty() || t.size() >= d.size()) return false;
  return std::equal(t.rbegin(), t.rend(), d.rbegin());
}

fs::path stripTail(const fs::path& dir, const fs::path& tail) {
  fs::path out = dir;
  for (const auto& part : tail)
    if (!part.empty()) out = out.parent_path();
  return out;
}

}  // namespace

fs::path moduleFile() {
  Dl_info info{};
  struct link_map* map = nullptr;
  if (::dladdr1(&kAnchor, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0) return {};
  // A shared library's link map names the file the dynamic loader opened; the main executable's
  // name is empty there (dladdr would report argv[0], which may be relative or a bare name).
  if (map && map->l_name && map->l_name[0]) return fs::path(map->l_name);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

std::optional<fs::path> prefixOf(const fs::path& moduleDir, const fs::path& libdir, const fs::path& bindir) {
  for (const fs::path& tail : {libdir, bindir})
    if (endsWith(moduleDir, tail)) return stripTail(moduleDir, tail);
  return std::nullopt;
}

std::optional<fs::path> prefix() {
  // Computed once: the module does not move while it is loaded.
  static const std::optional<fs::path> cached = []() -> std::optional<fs::path> {
    const fs::path file = moduleFile();
    if (file.empty()) return std::nullopt;
    std::error_code ec;
    // Canonical: follows a symlinked library to the prefix it really lives in, and folds
    // "bin/../lib" as $ORIGIN-relative run paths produce it.
    const fs::path dir = fs::weakly_canonical(file, ec).parent_path();
    if (ec) return std::nullopt;
    return prefixOf(dir, WGK_INSTALL_LIBDIR, WGK_INSTALL_BINDIR);
  }();
  return cached;
}

std::optional<fs::path> packagesDir() {
  if (auto p = prefix()) return *p / WGK_INSTALL_DATADIR / "wgk" / "packages";
  return std::nullopt;
}

std::optional<fs::path> runtimeFilesDir() {
  if (auto p = prefix()) return *p / WGK_INSTALL_LIBDIR / "wgk";
  return std::nullopt;
}

}  // namespace wgk::install

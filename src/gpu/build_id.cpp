#include "gpu/build_id.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <cstring>

namespace wgk::gpu {
namespace {

struct Search {
  uintptr_t base = 0;
  std::string found;
};

// The NT_GNU_BUILD_ID note among the notes of [p, end), as lowercase hex; "" when absent.
std::string buildIdNote(const char* p, const char* end) {
  static const char* digits = "0123456789abcdef";
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    ElfW(Nhdr) h;
    std::memcpy(&h, p, sizeof h);
    const char* name = p + sizeof h;
    const char* desc = name + ((h.n_namesz + 3) & ~3u);
    const char* next = desc + ((h.n_descsz + 3) & ~3u);
    if (next > end || next <= p) return {};
    if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
      std::string hex;
      for (uint32_t i = 0; i < h.n_descsz; ++i) {
        const auto b = static_cast<unsigned char>(desc[i]);
        hex += digits[b >> 4];
        hex += digits[b & 15];
      }
      return hex;
    }
    p = next;
  }
  return {};
}

int visit(struct dl_phdr_info* info, size_t, void* data) {
  auto* s = static_cast<Search*>(data);
  if (info->dlpi_addr != s->base) return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* start = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    s->found = buildIdNote(start, start + ph.p_memsz);
    if (!s->found.empty()) return 1;
  }
  return 0;
}

}  // namespace

std::string libraryBuild(void* handle, const std::string& path) {
  struct link_map* lm = nullptr;
  if (handle && ::dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm) {
    Search s;
    s.base = static_cast<uintptr_t>(lm->l_addr);
    ::dl_iterate_phdr(visit, &s);
    if (!s.found.empty()) return "build-id:" + s.found;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  const long long ns = static_cast<long long>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return "file:" + std::to_string(st.st_size) + ":" + std::to_string(ns);
}

}  // namespace wgk::gpu

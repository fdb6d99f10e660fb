#include "gpu/elf_symbols.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <unordered_set>

#include "wgk/error.h"

namespace wgk::gpu {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
constexpr const char* kHostMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
constexpr const char* kHostMachineName = "aarch64";
#else
#error "wgk's dawn.node loader supports x86-64 and aarch64 Linux"
#endif

// A read-only mapping of a whole file, unmapped on scope exit.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      int err = errno;
      throw Error(ErrorCode::Setup, "cannot open '" + path + "': " + std::strerror(err));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw Error(ErrorCode::Setup, "'" + path + "' is not a regular file");
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        int err = errno;
        ::close(fd);
        throw Error(ErrorCode::Setup, "cannot map '" + path + "': " + std::strerror(err));
      }
      data_ = static_cast<const unsigned char*>(p);
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  size_t size() const { return size_; }
  // True when [offset, offset + length) lies inside the file (overflow-safe).
  bool contains(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }
  template <class T>
  const T* at(uint64_t offset) const {
    return reinterpret_cast<const T*>(data_ + offset);
  }

 private:
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
};

[[noreturn]] void malformed(const std::string& path, const std::string& what) {
  throw Error(ErrorCode::Setup,
              "'" + path + "' is a malformed ELF file (" + what +
                  "): the file is damaged; re-run scripts/setup.sh to fetch a verified copy");
}

}  // namespace

std::unordered_map<std::string, uint64_t> readElfFunctionSymbols(const std::string& path,
                                                                 const std::vector<std::string>& wanted) {
  MappedFile file(path);
  if (file.size() < sizeof(Elf64_Ehdr) || std::memcmp(file.at<unsigned char>(0), ELFMAG, SELFMAG) != 0)
    throw Error(ErrorCode::Setup,
                "'" + path +
                    "' is not an ELF shared library (no ELF header): point WGK_DAWN_NODE at "
                    "dist/linux-x64/dawn.node of npm webgpu@0.6.2");
  const auto* eh = file.at<Elf64_Ehdr>(0);
  if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
      eh->e_machine != kHostMachine)
    throw Error(ErrorCode::Setup, "'" + path + "' is an ELF file for another machine (this is 64-bit " +
                                      kHostMachineName + "): use the linux-x64 build of dawn.node");
  if (eh->e_shoff == 0 || eh->e_shnum == 0)
    throw Error(ErrorCode::Setup,
                "'" + path +
                    "' has no section headers, so no symbol table (.symtab): it was stripped; "
                    "wgk finds Dawn's WebGPU functions through .symtab, so use the unmodified "
                    "dawn.node of npm webgpu@0.6.2 (scripts/setup.sh verifies it)");
  if (eh->e_shentsize != sizeof(Elf64_Shdr)) malformed(path, "unexpected section header size");
  if (!file.contains(eh->e_shoff, uint64_t(eh->e_shnum) * sizeof(Elf64_Shdr)))
    malformed(path, "section headers past the end of the file");
  const auto* sections = file.at<Elf64_Shdr>(eh->e_shoff);

  const Elf64_Shdr* symtab = nullptr;
  for (unsigned i = 0; i < eh->e_shnum; ++i) {
    if (sections[i].sh_type == SHT_SYMTAB) {
      symtab = &sections[i];
      break;
    }
  }
  if (!symtab)
    throw Error(ErrorCode::Setup,
                "'" + path +
                    "' has no symbol table (.symtab): it was stripped; wgk finds Dawn's "
                    "WebGPU functions through .symtab, so use the unmodified dawn.node of npm "
                    "webgpu@0.6.2 (scripts/setup.sh verifies it)");
  if (symtab->sh_entsize != sizeof(Elf64_Sym)) malformed(path, "unexpected symbol entry size");
  if (!file.contains(symtab->sh_offset, symtab->sh_size)) malformed(path, ".symtab past the end of the file");
  if (symtab->sh_link >= eh->e_shnum) malformed(path, ".symtab names a missing string table");
  const Elf64_Shdr& strtab = sections[symtab->sh_link];
  if (!file.contains(strtab.sh_offset, strtab.sh_size))
    malformed(path, "string table past the end of the file");
  const char* names = file.at<char>(strtab.sh_offset);
  const uint64_t namesSize = strtab.sh_size;

  std::unordered_set<std::string_view> want(wanted.begin(), wanted.end());
  std::unordered_map<std::string, uint64_t> found;
  const auto* syms = file.at<Elf64_Sym>(symtab->sh_offset);
  const uint64_t count = symtab->sh_size / sizeof(Elf64_Sym);
  for (uint64_t i = 0; i < count && found.size() < want.size(); ++i) {
    const Elf64_Sym& s = syms[i];
    if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_value == 0 || s.st_shndx == SHN_UNDEF) continue;
    if (s.st_name >= namesSize) malformed(path, "symbol name outside the string table");
    const char* name = names + s.st_name;
    std::string_view n(name, ::strnlen(name, namesSize - s.st_name));
    if (want.count(n)) found.emplace(std::string(n), s.st_value);
  }
  return found;
}

}  // namespace wgk::gpu

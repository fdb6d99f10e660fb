// Loader error paths: missing file, non-ELF file, foreign/stripped/truncated ELF, a library without
// the WebGPU functions, and the success path on the real dawn.node. No GPU is used.
#include <elf.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "gpu/elf_symbols.h"
#include "gpu/loader.h"
#include "wgk/error.h"

namespace {

namespace fs = std::filesystem;
using wgk::gpu::LoaderConfig;

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/wgk_loader_test_XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name, const std::string& bytes) const {
    std::string p = path_ + "/" + name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }

 private:
  std::string path_;
};

// Calls fn, expects Error(Setup), returns its text.
template <class Fn>
std::string setupError(Fn fn) {
  try {
    fn();
  } catch (const wgk::Error& e) {
    EXPECT_EQ(e.code(), wgk::ErrorCode::Setup) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "expected Error(Setup)";
  return {};
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::string minimalElfHeader(uint64_t shoff, uint16_t shnum) {
  Elf64_Ehdr h{};
  std::memcpy(h.e_ident, ELFMAG, SELFMAG);
  h.e_ident[EI_CLASS] = ELFCLASS64;
  h.e_ident[EI_DATA] = ELFDATA2LSB;
  h.e_ident[EI_VERSION] = EV_CURRENT;
  h.e_type = ET_DYN;
  h.e_machine = EM_X86_64;
  h.e_version = EV_CURRENT;
  h.e_ehsize = sizeof(Elf64_Ehdr);
  h.e_shentsize = sizeof(Elf64_Shdr);
  h.e_shoff = shoff;
  h.e_shnum = shnum;
  return std::string(reinterpret_cast<const char*>(&h), sizeof h);
}

TEST(ElfSymbols, MissingFileNamesThePath) {
  std::string m = setupError([] { wgk::gpu::readElfFunctionSymbols("/nonexistent/dawn.node", {"x"}); });
  EXPECT_TRUE(contains(m, "/nonexistent/dawn.node")) << m;
}

TEST(ElfSymbols, NonElfFileIsRefused) {
  TempDir d;
  std::string p = d.file("dawn.node", "#!/bin/sh\necho I am not a library\n");
  std::string m = setupError([&] { wgk::gpu::readElfFunctionSymbols(p, {"wgpuCreateInstance"}); });
  EXPECT_TRUE(contains(m, p)) << m;
  EXPECT_TRUE(contains(m, "not an ELF")) << m;
}

TEST(ElfSymbols, ElfWithoutSectionsIsReportedAsStripped) {
  TempDir d;
  std::string p = d.file("stripped.node", minimalElfHeader(0, 0));
  std::string m = setupError([&] { wgk::gpu::readElfFunctionSymbols(p, {"wgpuCreateInstance"}); });
  EXPECT_TRUE(contains(m, "stripped")) << m;
}

TEST(ElfSymbols, TruncatedSectionTableIsMalformedNotACrash) {
  TempDir d;
  std::string p = d.file("truncated.node", minimalElfHeader(1 << 20, 30));
  std::string m = setupError([&] { wgk::gpu::readElfFunctionSymbols(p, {"wgpuCreateInstance"}); });
  EXPECT_TRUE(contains(m, "malformed")) << m;
}

TEST(ElfSymbols, ForeignMachineIsRefused) {
  TempDir d;
  std::string h = minimalElfHeader(0, 0);
  reinterpret_cast<Elf64_Ehdr*>(h.data())->e_machine = EM_ARM;
  std::string p = d.file("arm.node", h);
  std::string m = setupError([&] { wgk::gpu::readElfFunctionSymbols(p, {"wgpuCreateInstance"}); });
  EXPECT_TRUE(contains(m, "another machine")) << m;
}

TEST(ElfSymbols, StrippedSharedLibraryIsReported) {
  // A real shared library with its .symtab removed, as `strip` would leave dawn.node.
  TempDir d;
  std::string copy = d.file("stubs_stripped.so", "");
  std::string cmd =
      std::string("objcopy --strip-all '") + WGK_NAPI_STUBS_FILE + "' '" + copy + "' 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) GTEST_SKIP() << "objcopy (binutils) is not installed";
  std::string m = setupError([&] { wgk::gpu::readElfFunctionSymbols(copy, {"napi_create_object"}); });
  EXPECT_TRUE(contains(m, "no symbol table (.symtab)")) << m;
}

TEST(ElfSymbols, FindsDawnFunctionsInDawnNode) {
  auto found = wgk::gpu::readElfFunctionSymbols(
      WGK_DAWN_NODE_PATH,
      {"wgpuCreateInstance", "dawnProcSetProcs", "_ZN4dawn6native8GetProcsEv", "noSuchFn"});
  EXPECT_EQ(found.size(), 3u);
  EXPECT_TRUE(found.count("wgpuCreateInstance"));
  EXPECT_FALSE(found.count("noSuchFn"));
}

TEST(Loader, MissingDawnNodeSaysWhichPathAndHowToFix) {
  std::string m = setupError(
      [] { wgk::gpu::loadLibrary(LoaderConfig::dawnNode("/nonexistent/dawn.node", "WGK_DAWN_NODE")); });
  EXPECT_TRUE(contains(m, "/nonexistent/dawn.node")) << m;
  EXPECT_TRUE(contains(m, "WGK_DAWN_NODE")) << m;
  EXPECT_TRUE(contains(m, "scripts/setup.sh")) << m;
}

TEST(Loader, NonElfDawnNodeIsASetupErrorNamingTheFile) {
  TempDir d;
  std::string p = d.file("dawn.node", "garbage, not ELF");
  std::string m = setupError([&] { wgk::gpu::loadLibrary(LoaderConfig::dawnNode(p)); });
  EXPECT_TRUE(contains(m, p)) << m;
}

TEST(Loader, LibraryWithoutWebGpuFunctionsNamesTheMissingSymbol) {
  // libwgk_napi_stubs.so is a valid shared library exporting no wgpu* function.
  std::string m = setupError([] { wgk::gpu::loadLibrary(LoaderConfig::cApiLibrary(WGK_NAPI_STUBS_FILE)); });
  EXPECT_TRUE(contains(m, "lacks the WebGPU functions")) << m;
  EXPECT_TRUE(contains(m, "wgpuCreateInstance")) << m;
  EXPECT_TRUE(contains(m, WGK_NAPI_STUBS_FILE)) << m;
}

TEST(Loader, MissingCApiLibraryIsASetupError) {
  std::string m =
      setupError([] { wgk::gpu::loadLibrary(LoaderConfig::cApiLibrary("/nonexistent/libwebgpu_dawn.so")); });
  EXPECT_TRUE(contains(m, "/nonexistent/libwebgpu_dawn.so")) << m;
}

TEST(Loader, LoadsTheRealDawnNodeAndResolvesEveryFunction) {
  wgk::gpu::LoaderInfo info = wgk::gpu::loadLibrary(LoaderConfig::dawnNode(WGK_DAWN_NODE_PATH));
  EXPECT_EQ(info.kind, wgk::gpu::LibraryKind::DawnNode);
  EXPECT_EQ(info.functions, wgk::gpu::requiredFunctionNames().size());
  EXPECT_GT(info.functions, 50u);
  EXPECT_FALSE(info.napiStubs.empty());
}

// The options choose the library (RuntimeOptions::fromEnvironment fills them from WGK_DAWN_NODE and
// WGK_WEBGPU_LIBRARY); the loader itself reads no variable.
TEST(LoaderConfig, OptionsChooseTheLibrary) {
  wgk::DeviceOptions o;
  o.dawnNode = "/x/dawn.node";
  o.napiStubs = "/x/stubs.so";
  LoaderConfig c = LoaderConfig::forOptions(o);
  EXPECT_EQ(c.kind, wgk::gpu::LibraryKind::DawnNode);
  EXPECT_EQ(c.path, "/x/dawn.node");
  EXPECT_EQ(c.source, "WGK_DAWN_NODE");
  EXPECT_EQ(c.napiStubs, "/x/stubs.so");
  o.webgpuLibrary = "/y/libwebgpu_dawn.so";  // takes precedence
  c = LoaderConfig::forOptions(o);
  EXPECT_EQ(c.kind, wgk::gpu::LibraryKind::CApiLibrary);
  EXPECT_EQ(c.path, "/y/libwebgpu_dawn.so");
  ::setenv("WGK_DAWN_NODE", "/x/dawn.node", 1);  // not the loader's to read
  c = LoaderConfig::forOptions(wgk::DeviceOptions{});
  ::unsetenv("WGK_DAWN_NODE");
  EXPECT_EQ(c.source, "the build default");
  EXPECT_EQ(c.path, WGK_DAWN_NODE_PATH);
}

}  // namespace

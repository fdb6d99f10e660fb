// The digest scanner (hub::templatesWithIncludes: which files a package's metadata.json must
// cover) and the renderer (package::expandIncludes: which files a shader is made of) read includes
// with one grammar (package::findIncludeTags). Run both over every embedded package: they must
// name the same files, or a package could pass its digest check and render a file it never
// checked (or fail to publish over a file it never renders).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "hub/metadata.h"
#include "package/package.h"
#include "package/template_includes.h"

namespace fs = std::filesystem;
using namespace wgk;

namespace {

std::set<std::string> renderedFiles(const package::Package& pkg, const std::vector<std::string>& shaders) {
  std::set<std::string> read;
  for (const auto& shader : shaders)
    package::expandIncludes(shader, [&](const std::string& f) {
      read.insert(f);
      return pkg.readFile(f);
    });
  return read;
}

TEST(IncludeParity, ScannerAndRendererNameTheSameFilesInEveryPackage) {
  size_t packages = 0, withIncludes = 0;
  for (const auto& org : fs::directory_iterator(fs::path(WGK_SOURCE_DIR) / "packages"))
    for (const auto& folder : fs::directory_iterator(org.path())) {
      if (!fs::is_directory(folder.path() / "build" / "webgpu")) continue;
      const auto pkg = package::Package::open(folder.path().string());
      const std::vector<std::string> shaders = pkg->manifest().shaderFiles();
      const std::set<std::string> scanned = hub::templatesWithIncludes(pkg->webgpuDir(), shaders);
      EXPECT_EQ(scanned, renderedFiles(*pkg, shaders)) << folder.path();
      ++packages;
      withIncludes += scanned.size() > std::set<std::string>(shaders.begin(), shaders.end()).size();
    }
  EXPECT_GE(packages, 10u);
  EXPECT_GE(withIncludes, 1u);  // MatMul's shaders include shared parts: the test sees includes
}

// Whitespace control, comments and relative names, which the two readers once read differently.
TEST(IncludeParity, TheGrammarsEdgesToo) {
  const fs::path dir = fs::temp_directory_path() / ("wgk-include-parity-" + std::to_string(::getpid()));
  fs::create_directories(dir / "k");
  auto write = [&](const std::string& rel, const std::string& text) { std::ofstream(dir / rel) << text; };
  write("main.wgsl.jinja",
        "{%- include 'k/a.wgsl' -%}\n{# {% include 'gone.wgsl' %} #}\n{%include \"b.wgsl\"%}\n");
  write("k/a.wgsl", "{% include './c.wgsl' %}\n");
  write("k/c.wgsl", "c\n");
  write("b.wgsl", "b\n");
  const std::set<std::string> scanned = hub::templatesWithIncludes(dir, {"main.wgsl.jinja"});
  std::set<std::string> read;
  package::expandIncludes("main.wgsl.jinja", [&](const std::string& f) {
    read.insert(f);
    std::ifstream in(dir / f);
    return std::string(std::istreambuf_iterator<char>(in), {});
  });
  EXPECT_EQ(scanned, read);
  EXPECT_EQ(read, (std::set<std::string>{"main.wgsl.jinja", "k/a.wgsl", "k/c.wgsl", "b.wgsl"}));
  fs::remove_all(dir);
}

}  // namespace

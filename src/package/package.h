// A kernel package on disk: a folder holding build/webgpu/manifest.json (or the build/webgpu folder
// itself). Package loads the manifest once, reads files confined to build/webgpu/ (no absolute
// paths, no "..", no symlink that resolves outside), and caches parsed templates.
//
//   auto pkg = wgk::package::Package::open("packages/webgpu-kernels/com.microsoft.FastGelu");
//   const wgk::package::Manifest& m = pkg->manifest();
//   const wgk::templates::Template& t = pkg->shaderTemplate("elementwise-bias-gelu.wgsl.jinja");
//   std::string wgsl = t.render(scope, pkg->includeResolver());
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "package/manifest.h"
#include "templates/template.h"

namespace wgk::package {

class Package {
 public:
  // Error(NotFound) when neither folder/build/webgpu/manifest.json nor folder/manifest.json exists.
  static std::shared_ptr<Package> open(const std::string& folder);
  // A package whose manifest is already parsed (tests, embedded data); files come from `webgpuDir`.
  static std::shared_ptr<Package> fromManifest(Manifest manifest, const std::string& webgpuDir);

  const Manifest& manifest() const { return manifest_; }
  const std::filesystem::path& webgpuDir() const { return dir_; }  // canonical build/webgpu folder
  const std::filesystem::path& rootDir() const { return root_; }   // the package folder

  bool hasFile(const std::string& relative) const;
  // Confined read: Error(InvalidArgument) for a name leaving the folder, Error(NotFound) when absent.
  std::string readFile(const std::string& relative) const;
  // Parsed once per package, after its `{% include "file" %}` tags are expanded as text (the Hub
  // loader's way: an included file's macros and sets are the includer's; paths starting with "."
  // are relative to the including file, others to build/webgpu/). Thread-safe.
  const templates::Template& shaderTemplate(const std::string& relative) const;
  // Renders a shader; errors name the file and line of the source they came from.
  std::string renderShader(const std::string& relative, const expr::Scope& scope) const;
  // For includes the text expansion leaves to the renderer (a computed name: {% include name %}):
  // the confined readFile.
  templates::IncludeResolver includeResolver() const;

 private:
  Package() = default;
  static std::shared_ptr<Package> openChecked(const std::string& folder);
  std::filesystem::path resolve(const std::string& relative) const;  // checked, canonical
  Manifest manifest_;
  std::filesystem::path dir_, root_;
  struct ParsedShader;
  const ParsedShader& parsedShader(const std::string& relative) const;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::unique_ptr<ParsedShader>> templates_;
};

// metadata.json's webgpu.manifestSpec ("2.1"), or nullopt when it has none (the seeds' packages).
std::optional<std::string> manifestSpecOf(const Json& metadata);

// Finds the build/webgpu folder of a package folder (or the folder itself); nullopt when neither
// holds manifest.json.
std::optional<std::filesystem::path> findWebgpuDir(const std::filesystem::path& folder);

}  // namespace wgk::package

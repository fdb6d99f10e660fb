#include "package/package.h"

#include <fstream>
#include <sstream>

#include "package/template_includes.h"
#include "core/foreign_errors.h"
#include "wgk/error.h"

namespace wgk::package {

namespace fs = std::filesystem;

std::optional<fs::path> findWebgpuDir(const fs::path& folder) {
  std::error_code ec;
  if (fs::is_regular_file(folder / "build" / "webgpu" / "manifest.json", ec))
    return folder / "build" / "webgpu";
  if (fs::is_regular_file(folder / "manifest.json", ec)) return folder;
  return std::nullopt;
}

std::optional<std::string> manifestSpecOf(const Json& metadata) {
  if (!metadata.is_object()) return std::nullopt;
  auto w = metadata.find("webgpu");
  if (w == metadata.end() || !w->is_object()) return std::nullopt;
  auto s = w->find("manifestSpec");
  if (s == w->end()) return std::nullopt;
  if (!s->is_string()) throw Error(ErrorCode::Manifest, "metadata.json webgpu.manifestSpec must be a string");
  return s->get<std::string>();
}

std::shared_ptr<Package> Package::open(const std::string& folder) {
  // A package too large for the host's memory is the package's fault (exit 4), never an abort.
  return hostMemoryErrorsAs(ErrorCode::Manifest, "while loading the package " + folder,
                            [&] { return openChecked(folder); });
}

std::shared_ptr<Package> Package::openChecked(const std::string& folder) {
  return asWgkErrors([&] {
    auto dir = findWebgpuDir(folder);
    if (!dir)
      throw Error(ErrorCode::NotFound, "'" + folder + "' is not a kernel package: neither " + folder +
                                           "/build/webgpu/manifest.json nor " + folder +
                                           "/manifest.json exists");
    std::shared_ptr<Package> p(new Package());
    p->dir_ = fs::canonical(*dir);
    p->root_ = p->dir_.filename() == "webgpu" && p->dir_.parent_path().filename() == "build"
                   ? p->dir_.parent_path().parent_path()
                   : p->dir_;
    // metadata.json names the manifest's spec (webgpu.manifestSpec); without it, its shape does.
    std::optional<std::string> spec;
    if (fs::is_regular_file(p->dir_ / "metadata.json")) {
      const std::string file = (p->dir_ / "metadata.json").string();
      spec = loadOrderedJsonFile(file, manifestSpecOf);
    }
    p->manifest_ = loadManifest((p->dir_ / "manifest.json").string(), spec);
    return p;
  });
}

std::shared_ptr<Package> Package::fromManifest(Manifest manifest, const std::string& webgpuDir) {
  std::shared_ptr<Package> p(new Package());
  std::error_code ec;
  p->dir_ = fs::weakly_canonical(webgpuDir, ec);
  if (ec) p->dir_ = webgpuDir;
  p->root_ = p->dir_;
  p->manifest_ = std::move(manifest);
  return p;
}

fs::path Package::resolve(const std::string& relative) const {
  auto refuse = [&](const std::string& why) -> fs::path {
    throw Error(ErrorCode::InvalidArgument, "package file name '" + relative + "' refused: " + why);
  };
  if (relative.empty()) return refuse("empty name");
  const fs::path rel(relative);
  if (rel.is_absolute() || relative.front() == '/' || relative.front() == '\\')
    return refuse("absolute path");
  for (const auto& part : rel)
    if (part == "..") return refuse("'..' leaves the package folder");
  std::error_code ec;
  const fs::path full = dir_ / rel;
  if (!fs::exists(full, ec))
    throw Error(ErrorCode::NotFound, "package has no file '" + relative + "' in " + dir_.string());
  const fs::path canon = fs::canonical(full, ec);
  if (ec) return refuse("cannot resolve: " + ec.message());
  // A symlink may point anywhere: compare the resolved path with the package folder.
  auto d = dir_.begin();
  auto c = canon.begin();
  for (; d != dir_.end(); ++d, ++c)
    if (c == canon.end() || *c != *d)
      return refuse("resolves outside the package folder (" + canon.string() + ")");
  return canon;
}

bool Package::hasFile(const std::string& relative) const {
  try {
    return fs::is_regular_file(resolve(relative));
  } catch (const Error&) {
    return false;
  }
}

std::string Package::readFile(const std::string& relative) const {
  const fs::path p = resolve(relative);
  if (!fs::is_regular_file(p))
    throw Error(ErrorCode::NotFound, "package file '" + relative + "' is not a regular file");
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(ErrorCode::Io, "cannot read package file '" + p.string() + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Package::ParsedShader {
  ExpandedTemplate source;
  templates::Template parsed;
};

const Package::ParsedShader& Package::parsedShader(const std::string& relative) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = templates_.find(relative);
  if (it != templates_.end()) return *it->second;
  ExpandedTemplate source = expandIncludes(relative, [this](const std::string& f) { return readFile(f); });
  templates::Template parsed = withSourceLines(source, [&] { return templates::Template::parse(source.text, relative); });
  auto t = std::make_unique<ParsedShader>(ParsedShader{std::move(source), std::move(parsed)});
  return *templates_.emplace(relative, std::move(t)).first->second;
}

const templates::Template& Package::shaderTemplate(const std::string& relative) const {
  return parsedShader(relative).parsed;
}

std::string Package::renderShader(const std::string& relative, const expr::Scope& scope) const {
  const ParsedShader& s = parsedShader(relative);
  return withSourceLines(s.source, [&] { return s.parsed.render(scope, includeResolver()); });
}

templates::IncludeResolver Package::includeResolver() const {
  return [this](const std::string& name) { return readFile(name); };
}

}  // namespace wgk::package

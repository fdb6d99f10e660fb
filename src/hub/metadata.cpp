#include "hub/metadata.h"

#include <sstream>

#include "core/json_read.h"
#include "hub/digest.h"
#include "hub/fs_util.h"
#include "package/manifest.h"
#include "package/template_includes.h"
#include "wgk/error.h"

namespace wgk::hub {

using nlohmann::json;

fs::path webgpuDir(const fs::path& packageDir) {
  return packageDir / "build" / "webgpu";
}

// <major>.<minor>, digits only: what std::regex ^\d+\.\d+$ matched, without compiling a regex on
// every metadata.json read (a fifth of the fuzz_package target's time on small packages).
static bool isMajorMinor(const std::string& s) {
  const size_t dot = s.find('.');
  auto digits = [&](size_t from, size_t to) {
    if (from >= to) return false;
    for (size_t i = from; i < to; ++i)
      if (s[i] < '0' || s[i] > '9') return false;
    return true;
  };
  return dot != std::string::npos && digits(0, dot) && digits(dot + 1, s.size());
}

ManifestFacts manifestFacts(const package::Manifest& m) {
  ManifestFacts f{m.domain, m.name, std::nullopt, {}};
  if (m.dialect == package::Dialect::Spec21) f.manifestSpec = "2.1";
  for (const auto& v : m.variants) f.variantShaders.emplace_back(v.id, m.shaderFiles(v));
  return f;
}

std::set<std::string> templatesWithIncludes(const fs::path& dir, const std::vector<std::string>& shaders) {
  // Jinja includes with a literal name, by the renderer's own grammar (package/template_includes.h);
  // a computed include cannot be followed and is left to the renderer (which refuses files
  // outside the package).
  std::set<std::string> seen;
  std::vector<std::string> todo(shaders.begin(), shaders.end());
  while (!todo.empty()) {
    std::string name = todo.back();
    todo.pop_back();
    if (!seen.insert(name).second) continue;
    checkSafeRelativePath(name, "manifest.json");
    std::string text;
    try {
      text = readFileBytes(dir / name);
    } catch (const Error&) {
      throw Error(ErrorCode::Manifest, "template \"" + name +
                                           "\" is named by the manifest (or included) but " +
                                           (dir / name).string() + " does not exist");
    }
    for (const package::IncludeTag& tag : package::findIncludeTags(text))
      todo.push_back(
          withContext("in template " + name, [&] { return package::resolveInclude(name, tag.name); }));
  }
  return seen;
}

json PackageMetadata::toJson() const {
  json j = json::object();
  j["id"] = id;
  j["name"] = name;
  j["backend"] = {{"type", backend}};
  j["webgpu"] = {{"variants", json::object()}};
  if (manifestSpec) j["webgpu"]["manifestSpec"] = *manifestSpec;
  for (const auto& [vid, files] : variants) j["webgpu"]["variants"][vid] = files;
  j["provenance"] = provenance;
  j["digest"] = {{"algorithm", algorithm}, {"files", json::object()}};
  for (const auto& [path, d] : files) j["digest"]["files"][path] = d;
  return j;
}

std::string PackageMetadata::serialize() const {
  return toJson().dump(2) + "\n";
}

PackageMetadata PackageMetadata::parse(const std::string& bytes) {
  json j = wgk::parseJson(bytes, "metadata.json");
  auto fail = [](const std::string& why) { throw Error(ErrorCode::Manifest, "metadata.json: " + why); };
  auto str = [&](const json& o, const char* key) {
    if (!o.contains(key) || !o[key].is_string()) fail(std::string("\"") + key + "\" must be a string");
    return o[key].get<std::string>();
  };
  if (!j.is_object()) fail("top level must be an object");
  PackageMetadata m;
  m.id = j.contains("id") ? str(j, "id") : std::string();
  m.name = str(j, "name");
  if (m.id.empty()) m.id = "webgpu-kernels/" + m.name;
  // The Hub's layout: backend {type}, webgpu {manifestSpec, variants}; wgk's earlier one: backend
  // "webgpu" and top-level variants.
  const bool hubLayout = j.contains("webgpu");
  if (!j.contains("backend")) fail("\"backend\" is missing");
  m.backend = j["backend"].is_object() ? str(j["backend"], "type") : str(j, "backend");
  if (m.backend != "webgpu") fail("backend is \"" + m.backend + "\", expected \"webgpu\"");
  const json* variantsJson = nullptr;
  if (hubLayout) {
    if (!j["webgpu"].is_object()) fail("\"webgpu\" must be an object");
    if (j["webgpu"].contains("manifestSpec")) {
      m.manifestSpec = str(j["webgpu"], "manifestSpec");
      if (!isMajorMinor(*m.manifestSpec))
        fail("webgpu.manifestSpec \"" + m.manifestSpec->substr(0, 40) + "\" is not <major>.<minor>");
    }
    if (j["webgpu"].contains("variants")) variantsJson = &j["webgpu"]["variants"];
  } else if (j.contains("variants")) {
    variantsJson = &j["variants"];
  }
  if (!variantsJson || !variantsJson->is_object()) fail("webgpu.variants must be an object");
  for (const auto& [vid, files] : variantsJson->items()) {
    if (!files.is_array()) fail("variants." + vid + " must be a list of template files");
    for (const auto& f : files) {
      if (!f.is_string()) fail("variants." + vid + " must list file names");
      checkSafeRelativePath(f.get<std::string>(), "metadata.json variants." + vid);
      m.variants[vid].push_back(f.get<std::string>());
    }
  }
  if (j.contains("provenance")) m.provenance = j["provenance"];
  if (!j.contains("digest") || !j["digest"].is_object()) fail("\"digest\" must be an object");
  m.algorithm = str(j["digest"], "algorithm");
  if (m.algorithm != "sha256") fail("digest.algorithm is \"" + m.algorithm + "\"; only sha256 is supported");
  if (!j["digest"].contains("files") || !j["digest"]["files"].is_object())
    fail("digest.files must be an object");
  for (const auto& [path, d] : j["digest"]["files"].items()) {
    checkSafeRelativePath(path, "metadata.json digest.files");
    if (!d.is_string() || d.get<std::string>().size() != 44)
      fail("digest.files." + path + " must be a base64 sha256");
    m.files[path] = d.get<std::string>();
  }
  for (const auto& t : m.allTemplates())
    if (!m.files.count(t)) fail("template \"" + t + "\" used by a variant has no digest");
  return m;
}

std::set<std::string> PackageMetadata::allTemplates() const {
  std::set<std::string> all;
  for (const auto& [vid, files] : variants) all.insert(files.begin(), files.end());
  return all;
}

std::string orgOfPackageDir(const fs::path& packageDir) {
  fs::path abs = fs::weakly_canonical(fs::absolute(packageDir));
  std::string org = abs.parent_path().filename().string();
  if (org.empty()) throw Error(ErrorCode::InvalidArgument, "cannot tell the organisation of " + abs.string());
  return org;
}

// Package files are regular files inside the package. A symbolic link would make `digest --write`
// read (and vouch for) whatever it points at, possibly outside the package, so any link is refused.
static void refuseSymlinks(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;  // reading the manifest reports the missing folder
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_symlink(ec)) continue;
    std::error_code rec;
    const fs::path target = fs::read_symlink(it->path(), rec);
    throw Error(ErrorCode::Integrity, "refusing to digest " + it->path().string() +
                                          ": it is a symbolic link (to " + target.string() +
                                          "); package files must be regular files inside the package");
  }
  if (ec) throw Error(ErrorCode::Io, "cannot list " + dir.string() + ": " + ec.message());
}

PackageMetadata generateMetadata(const fs::path& packageDir, const std::string& org,
                                 const std::string& name) {
  fs::path dir = webgpuDir(packageDir);
  refuseSymlinks(dir);
  fs::path abs = fs::weakly_canonical(fs::absolute(packageDir));
  ManifestFacts facts = manifestFacts(package::loadManifest((dir / "manifest.json").string()));
  std::string basename = name.empty() ? abs.filename().string() : name;
  if (facts.opId() != basename)
    throw Error(ErrorCode::Manifest, "the package folder is named \"" + basename +
                                         "\" but its manifest's op id is \"" + facts.opId() +
                                         "\" (they must match: <domain>.<name>)");
  PackageMetadata m;
  m.id = org + "/" + facts.opId();
  m.name = facts.opId();
  m.backend = "webgpu";
  m.manifestSpec = facts.manifestSpec;
  for (const auto& [vid, shaders] : facts.variantShaders) {
    auto all = templatesWithIncludes(dir, shaders);
    m.variants[vid] = std::vector<std::string>(all.begin(), all.end());
  }
  m.provenance = {{"generator", std::string("wgk ") + WGK_HUB_VERSION},
                  {"source", org + "/" + facts.opId() + "/build/webgpu"},
                  {"generatedFrom", "manifest.json and the files of build/webgpu"}};
  for (const auto& rel : listFilesRecursive(dir)) {
    if (rel == "metadata.json") continue;
    m.files[rel] = fileSha256Base64(dir / rel);
  }
  return m;
}

std::string DigestReport::describe() const {
  std::ostringstream out;
  for (const auto& f : mismatched) out << "mismatch: " << f << " (digest differs from metadata.json)\n";
  for (const auto& f : missing) out << "missing: " << f << " (recorded in metadata.json, not on disk)\n";
  for (const auto& f : extra) out << "extra: " << f << " (on disk, not recorded in metadata.json)\n";
  for (const auto& f : stale) out << "stale: " << f << " (differs from what the manifest gives)\n";
  return out.str();
}

DigestReport compareDigests(const fs::path& dir, const std::map<std::string, std::string>& recorded,
                            const std::set<std::string>& allowMissing) {
  DigestReport r;
  std::set<std::string> present;
  for (const auto& rel : listFilesRecursive(dir))
    if (rel != "metadata.json") present.insert(rel);
  for (const auto& [path, digest] : recorded) {
    if (!present.count(path)) {
      if (!allowMissing.count(path)) r.missing.push_back(path);
    } else if (fileSha256Base64(dir / path) != digest) {
      r.mismatched.push_back(path);
    }
  }
  for (const auto& p : present)
    if (!recorded.count(p)) r.extra.push_back(p);
  return r;
}

DigestReport checkPackageMetadata(const fs::path& packageDir, const std::string& org,
                                  const std::string& name) {
  fs::path dir = webgpuDir(packageDir);
  std::error_code ec;
  if (!fs::is_regular_file(dir / "metadata.json", ec))
    throw Error(ErrorCode::NotFound, (dir / "metadata.json").string() +
                                         " does not exist; generate it with `wgk digest " +
                                         packageDir.string() + " --write`");
  PackageMetadata recorded = PackageMetadata::parse(readFileBytes(dir / "metadata.json"));
  DigestReport r = compareDigests(dir, recorded.files);
  PackageMetadata now = generateMetadata(packageDir, org, name);
  if (recorded.id != now.id) r.stale.push_back("id (\"" + recorded.id + "\", expected \"" + now.id + "\")");
  if (recorded.name != now.name)
    r.stale.push_back("name (\"" + recorded.name + "\", expected \"" + now.name + "\")");
  if (recorded.variants != now.variants) r.stale.push_back("variants");
  if (recorded.manifestSpec != now.manifestSpec)
    r.stale.push_back("webgpu.manifestSpec (\"" + recorded.manifestSpec.value_or("") + "\", expected \"" +
                      now.manifestSpec.value_or("") + "\")");
  return r;
}

std::string contentRevision(const std::string& metadataBytes) {
  return sha256Hex(metadataBytes).substr(0, 40);
}

}  // namespace wgk::hub

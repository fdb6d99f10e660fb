// metadata.json of a kernel package (docs/hub.md): identity, the templates each variant uses,
// provenance and the sha256 digests of every other file in build/webgpu/. Always generated from
// the manifest and the files (`wgk digest --write`), never hand-written; serialised with sorted
// keys, two-space indent and a trailing newline so regenerating unchanged input is byte-identical.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "package/manifest.h"

namespace wgk::hub {

namespace fs = std::filesystem;

// The folder of a package that holds the files: <package>/build/webgpu.
fs::path webgpuDir(const fs::path& packageDir);

// What the hub needs from a manifest (read by package::readManifest / loadManifest, either
// dialect): the op id, the dialect and, per variant (families expanded), the shader files its
// passes name.
struct ManifestFacts {
  std::string domain;
  std::string name;
  std::optional<std::string> manifestSpec;  // "2.1" for a spec 2.1 manifest, else none
  std::vector<std::pair<std::string, std::vector<std::string>>> variantShaders;  // declaration order
  std::string opId() const { return domain + "." + name; }
};
ManifestFacts manifestFacts(const package::Manifest& manifest);

// `shaders` plus every template they reach through {% include "..." %}, read from `dir`.
// A missing file is Error(Manifest) naming it.
std::set<std::string> templatesWithIncludes(const fs::path& dir, const std::vector<std::string>& shaders);

// The Hub's layout (hub-spec-2.1/README.md "metadata.json"): {name, backend: {type: "webgpu"},
// webgpu: {manifestSpec?, variants}, digest: {algorithm, files}}, plus wgk's id and provenance.
// parse() also reads the earlier wgk layout (backend "webgpu", top-level variants).
struct PackageMetadata {
  std::string id;       // "<org>/<domain>.<Op>"
  std::string name;     // "<domain>.<Op>": the manifest's op id and the repo basename
  std::string backend;  // "webgpu"
  std::optional<std::string> manifestSpec;  // "2.1"; none for the seeds' dialect
  std::map<std::string, std::vector<std::string>> variants;  // variant id -> template files (sorted)
  nlohmann::json provenance = nlohmann::json::object();
  std::string algorithm = "sha256";
  std::map<std::string, std::string> files;  // path relative to build/webgpu -> base64 sha256

  nlohmann::json toJson() const;
  std::string serialize() const;  // deterministic text, trailing newline
  // Validates the schema (and that every path is a safe relative path); Error(Manifest) otherwise.
  static PackageMetadata parse(const std::string& bytes);
  // Every template any variant uses.
  std::set<std::string> allTemplates() const;
};

// Builds metadata.json's content for <packageDir>/build/webgpu from its manifest and files. The
// package folder's basename (or `name`, when given: a cache folder is named by its commit) must
// equal the manifest's op id. `org` fills the id.
PackageMetadata generateMetadata(const fs::path& packageDir, const std::string& org,
                                 const std::string& name = "");

// The org a package folder belongs to: the name of its parent folder (packages/<org>/<name>).
std::string orgOfPackageDir(const fs::path& packageDir);

// Differences between recorded digests and the files in a folder.
struct DigestReport {
  std::vector<std::string> mismatched;  // present, digest differs
  std::vector<std::string> missing;     // recorded, absent
  std::vector<std::string> extra;       // present, not recorded (metadata.json itself excluded)
  std::vector<std::string> stale;       // metadata fields that differ from what the manifest gives
  bool ok() const { return mismatched.empty() && missing.empty() && extra.empty() && stale.empty(); }
  std::string describe() const;  // one line per problem
};

// Compares every file under `dir` (except metadata.json) with `recorded`. With allowMissing, files
// in `allowMissing` may be absent (a cache holds only what was downloaded).
DigestReport compareDigests(const fs::path& dir, const std::map<std::string, std::string>& recorded,
                            const std::set<std::string>& allowMissing = {});

// What `wgk digest PACKAGE` checks: the recorded digests against the files, and the recorded id,
// name, backend and variants against what generateMetadata gives now (provenance is not compared,
// so a new wgk version does not make every package stale). Error(NotFound) without metadata.json.
DigestReport checkPackageMetadata(const fs::path& packageDir, const std::string& org,
                                  const std::string& name = "");

// The package's content revision: the first 40 hex digits of sha256(metadata.json bytes). As
// metadata.json records the digest of every other file, it changes whenever any file does. Used as
// the embedded packages' revision and publish-layout's default commit.
std::string contentRevision(const std::string& metadataBytes);

}  // namespace wgk::hub

#include "hub/lock_file.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/json_read.h"
#include "hub/digest.h"
#include "hub/fs_util.h"
#include "wgk/error.h"

namespace wgk::hub {

using nlohmann::json;

LockFile LockFile::load(const fs::path& path) {
  return withContext("in lock file " + path.string(), [&] { return parse(readFileBytes(path)); });
}

LockFile LockFile::parse(const std::string& text) {
  json j = parseJson(text, "lock file");
  auto fail = [](const std::string& why) { throw Error(ErrorCode::Manifest, "lock file: " + why); };
  if (!j.is_object() || !j.contains("lockVersion") || j["lockVersion"] != 1)
    fail("expected an object with \"lockVersion\": 1");
  if (!j.contains("packages") || !j["packages"].is_array()) fail("\"packages\" must be an array");
  LockFile lock;
  for (size_t i = 0; i < j["packages"].size(); ++i) {
    const json& p = j["packages"][i];
    std::string where = "packages[" + std::to_string(i) + "]";
    if (!p.is_object() || !p.contains("repo") || !p["repo"].is_string())
      fail(where + ".repo must be a string");
    LockEntry e;
    e.repo = parseRepoId(p["repo"].get<std::string>());
    if (p.contains("version") && !p["version"].is_null()) {
      if (!p["version"].is_number_integer() || p["version"].get<int>() < 1)
        fail(where + ".version must be an integer >= 1 or null");
      e.version = p["version"].get<int>();
    }
    if (!p.contains("revision") || !p["revision"].is_string() ||
        !isRevision(p["revision"].get<std::string>()))
      fail(where + ".revision must be 40 hex digits");
    e.revision = p["revision"].get<std::string>();
    std::transform(e.revision.begin(), e.revision.end(), e.revision.begin(),
                   [](char c) { return char(std::tolower(c)); });
    if (!p.contains("files") || !p["files"].is_object() || !p["files"].contains("metadata.json"))
      fail(where + ".files must be an object including metadata.json");
    for (const auto& [path, d] : p["files"].items()) {
      checkSafeRelativePath(path, "lock file " + where);
      if (!d.is_string()) fail(where + ".files." + path + " must be a digest string");
      e.files[path] = d.get<std::string>();
    }
    if (lock.find(e.repo)) fail("repo " + e.repo.str() + " appears twice");
    lock.put(std::move(e));
  }
  return lock;
}

std::string LockFile::serialize() const {
  json j = {{"lockVersion", 1}, {"packages", json::array()}};
  for (const auto& e : packages) {
    json p = {{"repo", e.repo.str()}, {"revision", e.revision}, {"files", e.files}};
    p["version"] = e.version ? json(*e.version) : json(nullptr);
    j["packages"].push_back(p);
  }
  return j.dump(2) + "\n";
}

const LockEntry* LockFile::find(const RepoId& repo) const {
  for (const auto& e : packages)
    if (e.repo == repo) return &e;
  return nullptr;
}

void LockFile::put(LockEntry entry) {
  packages.erase(std::remove_if(packages.begin(), packages.end(),
                                [&](const LockEntry& e) { return e.repo == entry.repo; }),
                 packages.end());
  packages.push_back(std::move(entry));
  std::sort(packages.begin(), packages.end(),
            [](const LockEntry& a, const LockEntry& b) { return a.repo.str() < b.repo.str(); });
}

LockEntry lockEntryFor(const RepoId& repo, std::optional<int> version, const std::string& revision,
                       const fs::path& packageDir) {
  std::string metaBytes = readFileBytes(webgpuDir(packageDir) / "metadata.json");
  PackageMetadata meta = PackageMetadata::parse(metaBytes);
  LockEntry e{repo, version, revision, meta.files};
  e.files["metadata.json"] = sha256Base64(metaBytes);
  return e;
}

void checkAgainstLock(const LockEntry& entry, const fs::path& packageDir) {
  fs::path dir = webgpuDir(packageDir);
  std::string metaBytes = readFileBytes(dir / "metadata.json");
  PackageMetadata meta = PackageMetadata::parse(metaBytes);
  std::map<std::string, std::string> actual = meta.files;
  actual["metadata.json"] = sha256Base64(metaBytes);
  std::ostringstream drift;
  for (const auto& [path, digest] : entry.files) {
    auto it = actual.find(path);
    if (it == actual.end())
      drift << "  " << path << ": locked, but the package no longer records it\n";
    else if (it->second != digest)
      drift << "  " << path << ": locked " << digest << ", package has " << it->second << "\n";
  }
  for (const auto& [path, digest] : actual)
    if (!entry.files.count(path)) drift << "  " << path << ": in the package, not in the lock\n";
  std::string text = drift.str();
  if (!text.empty())
    throw Error(ErrorCode::Integrity, "package " + entry.repo.str() + " at revision " + entry.revision +
                                          " drifted from the lock file:\n" + text +
                                          "re-run `wgk lock` if the change is intended");
}

}  // namespace wgk::hub

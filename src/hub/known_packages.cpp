#include "hub/known_packages.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace wgk::hub {

namespace fs = std::filesystem;

namespace {
// <root>/<org>/<name> folders that `keep` accepts, as "<org>/<name>"; dot folders (.tmp) skipped.
void collect(const fs::path& root, std::set<std::string>& out, bool (*keep)(const fs::path&)) {
  std::error_code ec;
  if (root.empty() || !fs::is_directory(root, ec)) return;
  for (auto org = fs::directory_iterator(root, ec); !ec && org != fs::directory_iterator();
       org.increment(ec)) {
    const std::string o = org->path().filename().string();
    if (o.empty() || o[0] == '.' || !org->is_directory(ec)) continue;
    std::error_code ec2;
    for (auto name = fs::directory_iterator(org->path(), ec2); !ec2 && name != fs::directory_iterator();
         name.increment(ec2)) {
      const std::string n = name->path().filename().string();
      if (!n.empty() && n[0] != '.' && keep(name->path())) out.insert(o + "/" + n);
    }
  }
}

bool isEmbeddedPackage(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "build" / "webgpu" / "metadata.json", ec);
}

// A cache repo folder holding at least one commit folder.
bool hasCachedCommit(const fs::path& dir) {
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (isRevision(it->path().filename().string()) && it->is_directory(ec)) return true;
  return false;
}
}  // namespace

std::vector<std::string> knownRepoIds(const HubOptions& o) {
  std::set<std::string> ids;
  collect(o.embeddedRoot, ids, isEmbeddedPackage);
  collect(o.cacheDir, ids, hasCachedCommit);
  return {ids.begin(), ids.end()};
}

bool knownLocally(const RepoId& repo, const HubOptions& o) {
  return (!o.embeddedRoot.empty() && isEmbeddedPackage(fs::path(o.embeddedRoot) / repo.org / repo.name)) ||
         (!o.cacheDir.empty() && hasCachedCommit(fs::path(o.cacheDir) / repo.org / repo.name));
}

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> nearestIds(const std::string& id, const std::vector<std::string>& known,
                                    size_t count) {
  const size_t limit = std::max<size_t>(3, id.size() / 3);
  std::vector<std::pair<size_t, std::string>> near;
  for (const auto& k : known)
    if (size_t d = editDistance(id, k); d <= limit) near.emplace_back(d, k);
  std::sort(near.begin(), near.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < near.size() && i < count; ++i) out.push_back(near[i].second);
  return out;
}

std::string unknownPackageMessage(const RepoId& repo, const HubOptions& o, const std::string& why) {
  std::string text = "unknown package " + repo.str() + " (not embedded or cached; " + why + ")";
  std::vector<std::string> near = nearestIds(repo.str(), knownRepoIds(o));
  for (size_t i = 0; i < near.size(); ++i) text += (i == 0 ? "; nearest known: " : ", ") + near[i];
  return text;
}

}  // namespace wgk::hub

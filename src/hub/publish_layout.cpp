#include "hub/publish_layout.h"

#include "hub/cache.h"
#include "hub/fs_util.h"
#include "hub/metadata.h"
#include "hub/repo_ref.h"
#include "wgk/error.h"

namespace wgk::hub {

static void copyPackage(const fs::path& packageDir, const fs::path& dest) {
  removeQuietly(dest);
  std::error_code ec;
  fs::create_directories(dest, ec);
  if (fs::is_regular_file(packageDir / "README.md", ec))
    fs::copy_file(packageDir / "README.md", dest / "README.md", ec);
  fs::path src = webgpuDir(packageDir);
  for (const auto& rel : listFilesRecursive(src)) {
    fs::path to = webgpuDir(dest) / rel;
    fs::create_directories(to.parent_path(), ec);
    fs::copy_file(src / rel, to, fs::copy_options::overwrite_existing, ec);
    if (ec) throw Error(ErrorCode::Io, "cannot copy " + rel + " to " + to.string() + ": " + ec.message());
  }
}

PublishResult publishLayout(const fs::path& packageDir, const fs::path& outDir,
                            std::optional<std::string> revision, int version, std::optional<std::string> org,
                            std::optional<std::string> name) {
  std::string orgName = org ? *org : orgOfPackageDir(packageDir);
  std::string repoName = name ? *name : fs::weakly_canonical(fs::absolute(packageDir)).filename().string();
  RepoId repo = parseRepoId(orgName + "/" + repoName);
  PackageRequest req = PackageRequest::make(version, std::nullopt);
  PackageMetadata meta =
      withContext("in package " + packageDir.string(), [&] { return verifyPackageFolder(packageDir, true); });
  if (meta.name != repo.name)
    throw Error(ErrorCode::Integrity,
                "metadata.json names \"" + meta.name + "\" but the package folder is \"" + repo.name + "\"");
  std::string commit = revision ? *PackageRequest::make(std::nullopt, *revision).revision
                                : contentRevision(readFileBytes(webgpuDir(packageDir) / "metadata.json"));
  fs::path repoOut = outDir / repo.org / repo.name;
  PublishResult r{repo.str(), commit, req.gitRev(), repoOut / "resolve" / commit,
                  repoOut / "resolve" / req.gitRev()};
  copyPackage(packageDir, r.commitDir);
  copyPackage(packageDir, r.branchDir);
  writeFileAtomic(repoOut / "refs" / r.branch, commit + "\n");
  return r;
}

}  // namespace wgk::hub

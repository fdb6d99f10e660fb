#include "hub/publish_layout.h"

#include "hub/cache.h"
#include "hub/fs_util.h"
#include "hub/metadata.h"
#include "hub/repo_ref.h"
#include "wgk/error.h"

namespace wgk::hub {

// Replaces `dest` (under the output folder `base`) by a copy of the package. Nothing below base on
// the way to dest may be a link, so the delete and the copies stay inside the output folder.
static void copyPackage(const fs::path& packageDir, const fs::path& base, const fs::path& dest) {
  removeTreeBelow(base, dest);
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

void refuseLayoutOverlap(const fs::path& packageDir, const fs::path& outDir, const RepoId& repo) {
  // Writing into the package (or deleting it) would change what was just verified.
  const fs::path repoOut = outDir / repo.org / repo.name;
  if (isSameOrInside(repoOut, packageDir) || isSameOrInside(packageDir, repoOut / "resolve"))
    throw Error(ErrorCode::InvalidArgument,
                "the output folder " + outDir.string() + " overlaps the package " + packageDir.string() +
                    " it publishes (its layout would be written inside the package, "
                    "or replace it); choose an --out outside the package");
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
  // The output folder the user named is resolved once; below it nothing may be a link.
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(fs::absolute(outDir), ec);
  fs::path repoOut = base / repo.org / repo.name;
  PublishResult r{repo.str(), commit, req.gitRev(), repoOut / "resolve" / commit,
                  repoOut / "resolve" / req.gitRev()};
  refuseLayoutOverlap(packageDir, base, repo);
  const fs::path refFile = repoOut / "refs" / r.branch;
  refuseLinksBelow(base, refFile, "write");
  copyPackage(packageDir, base, r.commitDir);
  copyPackage(packageDir, base, r.branchDir);
  writeFileAtomic(refFile, commit + "\n");
  return r;
}

}  // namespace wgk::hub

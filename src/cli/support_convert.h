// Converting a package folder to a manifest dialect with a fresh metadata.json: what `wgk convert`
// writes and what `wgk publish-layout --spec 2.1` publishes (package/manifest_writer.h).
#pragma once

#include <filesystem>
#include <string>

#include "package/manifest.h"

namespace wgk::cli {

// "2.1" or "seeds" (Error(InvalidArgument) otherwise).
package::Dialect parseDialect(const std::string& text);

struct ConvertedPackage {
  std::filesystem::path folder;  // <outDir>/<op id>, or outDir when it is named <op id>
  size_t files = 0;              // files written, metadata.json included
};

// Writes <packageDir> re-expressed in `to` into <outDir>/<op id>/ (or outDir itself when it is
// named <op id>), replacing its build/webgpu/; generates metadata.json (id <org>/<op id>) and
// reopens the result to check it reads back. A convert signs what it writes, so it refuses:
// an org that is not an organisation name (Error(InvalidArgument)); an output folder that is the
// package, lies inside it or holds it (Error(InvalidArgument)); a symbolic link anywhere below
// outDir on the way to what it replaces (Error(Io)); and, with `verify`, a package whose files do
// not match its own metadata.json (Error(Integrity)) — re-signing would launder the change.
ConvertedPackage convertPackageFolder(const std::filesystem::path& packageDir, package::Dialect to,
                                      const std::filesystem::path& outDir, const std::string& org,
                                      bool verify);

}  // namespace wgk::cli

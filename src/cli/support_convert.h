// Converting a package folder to a manifest dialect with a fresh metadata.json: what `wgk convert`
// writes and what `wgk publish-layout --spec 2.1` publishes (package/manifest_writer.h).
#pragma once

#include <filesystem>
#include <string>

#include "package/manifest.h"

namespace wgk::cli {

// "2.1" or "seeds" (Error(InvalidArgument) otherwise).
package::Dialect parseDialect(const std::string& text);

// Writes <packageDir> re-expressed in `to` into `outPackageDir` (replacing its build/webgpu/),
// generates metadata.json (id <org>/<op id>), and reopens the result to check it reads back.
// Returns the number of files written.
size_t convertPackageFolder(const std::filesystem::path& packageDir, package::Dialect to,
                            const std::filesystem::path& outPackageDir, const std::string& org);

}  // namespace wgk::cli

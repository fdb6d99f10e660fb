// Whole-file reads and atomic writes, with errors that name the path and the OS reason.
//
//   std::vector<std::byte> bytes = wgk::readFileBytes("x.npy");   // Error(Io) if unreadable
//   wgk::writeFileAtomic("out/y.npy", bytes);  // temp file in the same folder, then rename
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace wgk {

std::vector<std::byte> readFileBytes(const std::string& path);

// Writes to a temporary file beside `path` and renames it over `path`, so readers never see a
// half-written file; the temporary is removed when anything fails.
void writeFileAtomic(const std::string& path, std::span<const std::byte> bytes);

}  // namespace wgk

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

// Creates `dir` (and its parents) when missing and checks that it is a writable folder, so that a
// command fails with Error(Io) before any GPU work rather than after (a file in the way, a parent
// that is a file, no permission).
void prepareOutputFolder(const std::string& dir);

// dir/<name><extension>, where `name` comes from a package: Error(Io) unless it is one plain file
// name (no '/', not "." or "..", no NUL), so a written file always lands inside `dir`.
std::string pathInsideFolder(const std::string& dir, const std::string& name, const std::string& extension);

}  // namespace wgk

// The input format of the multi-file fuzz targets (fuzz_package, fuzz_hub_response): sections,
// each a line "=== <name>" followed by its bytes up to the next such line (or the end). Text, so
// the seeds scripts/fuzz_corpus.py writes stay readable and the fuzzer's mutations of one file
// leave the others intact.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wgk::fuzz {

using Sections = std::vector<std::pair<std::string, std::string>>;

inline Sections splitSections(std::string_view in, size_t maxSections = 16) {
  Sections out;
  const std::string_view marker = "=== ";
  size_t at = in.rfind(marker, 0) == 0 ? 0 : in.find("\n=== ");
  if (at == std::string_view::npos) return out;
  if (at != 0) ++at;  // past the newline
  while (at != std::string_view::npos && out.size() < maxSections) {
    const size_t eol = in.find('\n', at);
    if (eol == std::string_view::npos) break;
    std::string name(in.substr(at + marker.size(), eol - at - marker.size()));
    size_t next = in.find("\n=== ", eol);
    const size_t end = next == std::string_view::npos ? in.size() : next + 1;  // the newline is the body's
    out.emplace_back(std::move(name), std::string(in.substr(eol + 1, end - eol - 1)));
    at = next == std::string_view::npos ? next : next + 1;
  }
  return out;
}

inline const std::string* section(const Sections& s, std::string_view name) {
  for (const auto& [n, body] : s)
    if (n == name) return &body;
  return nullptr;
}

}  // namespace wgk::fuzz

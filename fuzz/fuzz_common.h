// Shared by the libFuzzer targets (fuzz/CMakeLists.txt, docs/reliability.md "Fuzzing").
//
// The contract under test: whatever the bytes, wgk answers with a wgk::Error or a result. Any other
// exception (std::out_of_range, nlohmann's, std::bad_alloc) escapes the target and aborts, which
// libFuzzer reports as a crash: the CLI would have answered "internal error" (exit 70) for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "wgk/error.h"

#if __has_include("core/json_read.h")
#include "core/json_read.h"
#define WGK_FUZZ_SHARED_JSON_READER 1
#else
#include "package/json_reader.h"
#endif

namespace wgk::fuzz {

inline std::string_view text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// JSON as wgk reads it from a package. With the shared reader (core/json_read.h, issue 15 item 1)
// its depth limit applies; before it exists, documents nested deeper than it allows are skipped
// here so that the known recursion finding does not mask new ones (reported separately).
inline bool parseJsonInput(std::string_view t, nlohmann::json& out) {
#ifdef WGK_FUZZ_SHARED_JSON_READER
  out = wgk::parseJson(t, "fuzz input");
#else
  int depth = 0, maxDepth = 0;
  bool inString = false;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      maxDepth = std::max(maxDepth, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  if (maxDepth > 64) return false;
  out = wgk::parseOrderedJson(std::string(t), "fuzz input");
#endif
  return true;
}

// Runs fn; a wgk::Error is an acceptable answer to bad input.
template <class F>
void expectOnlyWgkErrors(F&& fn) {
  try {
    fn();
  } catch (const wgk::Error&) {
  }
}

}  // namespace wgk::fuzz

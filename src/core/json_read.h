// core/json_read.h — the one way wgk parses JSON text (manifests, metadata, test.json, bench.json,
// lock files, tuning tables, device profiles, --attr values, evidence, cached Hub packages).
//
// JSON from a package is untrusted. nlohmann's parser is iterative, but everything that walks the
// result afterwards (conversion, copy, dump(), wgk's own readers) recurses, so a document nested
// 50,000 deep would overflow the stack far from the parse. The depth is therefore bounded here, at
// parse time, once for every caller; duplicate keys in an object are refused too (nlohmann would
// silently keep the last, so two readers of one file could disagree about what it says). Sizes are
// budgeted before anything is allocated for them, and parsing stays linear in the text: no key is
// looked up in the object being built (ordered_json's lookup is a linear scan).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "wgk/error.h"

namespace wgk {

// Deep enough for every real document (manifests nest about 8 levels), shallow enough that any
// recursive walk of the result stays far inside the stack.
inline constexpr int kMaxJsonDepth = 64;
// Keys in one object: the largest real object is a metadata.json digest map (one key per package
// file, hundreds); a million leaves room for generated packages and refuses a map built to exhaust
// memory before each key is stored.
inline constexpr size_t kMaxJsonObjectKeys = size_t{1} << 20;
// Text of one JSON document: the largest file a package ships is a test.json of about 10 MB, and
// the Hub client accepts no file above 64 MiB (HttpOptions::maxFileBytes). A file is checked
// before it is read.
inline constexpr size_t kMaxJsonBytes = size_t{64} << 20;

// Error(Parse) "<what> is not valid JSON: ..." / "<what>: JSON nested deeper than 64 levels" /
// "<what>: duplicate key 'k' in an object" / "<what>: an object holds more than 1048576 keys" /
// "<what>: JSON text of N bytes exceeds the limit of 67108864 bytes".
nlohmann::json parseJson(std::string_view text, const std::string& what);
nlohmann::ordered_json parseOrderedJson(std::string_view text, const std::string& what);

// Like parseJson, but returns a discarded value (is_discarded()) when the text is not JSON at all;
// still throws for too-deep nesting and duplicate keys, which are never a bare string.
nlohmann::json parseJsonOrDiscarded(std::string_view text, const std::string& what);

// Reads the file (Error(Io) when it cannot be opened) and parses it; `what` defaults to 'file'.
nlohmann::json readJsonFile(const std::string& file);
nlohmann::ordered_json readOrderedJsonFile(const std::string& file);

// The one way wgk loads a JSON file into something: reads and parses `file` (Error(Io) when it
// cannot be read, Error(Parse) when it is not JSON), then returns read(document). Every error,
// read's own included, gets the context "while reading <what>" once (what: the file's path, or a
// phrase naming it: "tuning file '/x/t.json'").
template <class Fn>
decltype(auto) loadJsonFile(const std::string& file, Fn&& read, const std::string& what = {}) {
  return withContext("while reading " + (what.empty() ? file : what),
                     [&]() -> decltype(auto) { return std::forward<Fn>(read)(readJsonFile(file)); });
}
// The same, keeping the order of object keys (package files: manifests, test.json, card.json).
template <class Fn>
decltype(auto) loadOrderedJsonFile(const std::string& file, Fn&& read, const std::string& what = {}) {
  return withContext("while reading " + (what.empty() ? file : what),
                     [&]() -> decltype(auto) { return std::forward<Fn>(read)(readOrderedJsonFile(file)); });
}

// j.dump() cut to `maxChars` characters with "..." (for messages; j is already depth-bounded).
template <class J>
std::string jsonExcerpt(const J& j, size_t maxChars = 80) {
  std::string s = j.dump();
  if (s.size() > maxChars) s = s.substr(0, maxChars) + "...";
  return s;
}

}  // namespace wgk

// Strict reading of package JSON files (manifest.json, test.json, bench.json) with errors that name
// the JSON path of the offending value ("/variants/2/when/1: expected a string, got number").
// Every object is read through ObjectReader, whose finish() rejects fields nobody asked for, so an
// unknown or misspelt field is an error rather than silently ignored. "$comment" keys are allowed
// anywhere (the Hub loader strips them too).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_read.h"  // parseOrderedJson, readOrderedJsonFile, loadOrderedJsonFile

namespace wgk::package {

// ordered_json keeps object members in file order: derive and constants depend on it.
using Json = nlohmann::ordered_json;

// Error(Manifest) "<path>: <what>" (path "" becomes "/").
[[noreturn]] void schemaError(const std::string& path, const std::string& what);

// Appends one JSON-pointer step (escaping ~ and /).
std::string jsonPath(const std::string& parent, std::string_view key);
std::string jsonPath(const std::string& parent, size_t index);

// "string", "number", "object", ... for messages.
std::string jsonKindName(const Json& j);

std::string readString(const Json& j, const std::string& path);
int64_t readInt(const Json& j, const std::string& path);  // integral numbers only (2.0 is accepted)
double readNumber(const Json& j, const std::string& path);
bool readBool(const Json& j, const std::string& path);
std::vector<std::string> readStringList(const Json& j, const std::string& path);
const Json& readObject(const Json& j, const std::string& path);
const Json& readArray(const Json& j, const std::string& path);

class ObjectReader {
 public:
  ObjectReader(const Json& j, std::string path);  // throws when j is not an object
  const Json* optional(std::string_view key);     // nullptr when absent
  const Json& required(std::string_view key);     // "missing required field" when absent
  std::string path(std::string_view key) const { return jsonPath(path_, key); }
  const std::string& path() const { return path_; }
  const Json& json() const { return j_; }
  // Throws naming the first member that was never asked for, and the fields that are known.
  void finish() const;

 private:
  const Json& j_;
  std::string path_;
  std::set<std::string, std::less<>> known_;
};


}  // namespace wgk::package

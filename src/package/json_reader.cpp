#include "package/json_reader.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/json_read.h"
#include "wgk/error.h"

namespace wgk::package {

void schemaError(const std::string& path, const std::string& what) {
  throw Error(ErrorCode::Manifest, (path.empty() ? std::string("/") : path) + ": " + what);
}

std::string jsonPath(const std::string& parent, std::string_view key) {
  std::string out = parent + "/";
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string jsonPath(const std::string& parent, size_t index) {
  return parent + "/" + std::to_string(index);
}

std::string jsonKindName(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "bool";
    case Json::value_t::string:
      return "string";
    case Json::value_t::array:
      return "array";
    case Json::value_t::object:
      return "object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "number";
    default:
      return "value";
  }
}

namespace {
[[noreturn]] void expected(const Json& j, const std::string& path, const std::string& what) {
  schemaError(path, "expected " + what + ", got " + jsonKindName(j) + " " + jsonExcerpt(j));
}
}  // namespace

std::string readString(const Json& j, const std::string& path) {
  if (!j.is_string()) expected(j, path, "a string");
  return j.get<std::string>();
}

int64_t readInt(const Json& j, const std::string& path) {
  if (j.is_number_integer()) return j.get<int64_t>();
  if (j.is_number_unsigned()) {
    if (j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) expected(j, path, "an integer below 2^63");
    return static_cast<int64_t>(j.get<uint64_t>());
  }
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18) return static_cast<int64_t>(d);
  }
  expected(j, path, "an integer");
}

double readNumber(const Json& j, const std::string& path) {
  if (!j.is_number()) expected(j, path, "a number");
  return j.get<double>();
}

bool readBool(const Json& j, const std::string& path) {
  if (!j.is_boolean()) expected(j, path, "true or false");
  return j.get<bool>();
}

std::vector<std::string> readStringList(const Json& j, const std::string& path) {
  if (!j.is_array()) expected(j, path, "an array of strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < j.size(); ++i) out.push_back(readString(j[i], jsonPath(path, i)));
  return out;
}

const Json& readObject(const Json& j, const std::string& path) {
  if (!j.is_object()) expected(j, path, "an object");
  return j;
}

const Json& readArray(const Json& j, const std::string& path) {
  if (!j.is_array()) expected(j, path, "an array");
  return j;
}

ObjectReader::ObjectReader(const Json& j, std::string path) : j_(j), path_(std::move(path)) {
  if (!j_.is_object()) expected(j_, path_, "an object");
}

const Json* ObjectReader::optional(std::string_view key) {
  known_.insert(std::string(key));
  auto it = j_.find(std::string(key));
  return it == j_.end() ? nullptr : &*it;
}

const Json& ObjectReader::required(std::string_view key) {
  const Json* v = optional(key);
  if (!v) schemaError(path(key), "missing required field '" + std::string(key) + "'");
  return *v;
}

void ObjectReader::finish() const {
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    if (it.key() == "$comment" || known_.count(it.key())) continue;
    std::string list;
    for (const auto& k : known_) list += (list.empty() ? "" : ", ") + k;
    schemaError(jsonPath(path_, it.key()), "unknown field '" + it.key() + "' (known here: " + list + ")");
  }
}

}  // namespace wgk::package

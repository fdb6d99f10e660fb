#include "runtime/attributes.h"

#include <nlohmann/json.hpp>

#include "core/json_read.h"
#include "wgk/error.h"

namespace wgk::runtime {

expr::Value toValue(const Attribute& a) {
  return std::visit(
      [](const auto& v) -> expr::Value {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<double>>) {
          expr::List l;
          for (auto x : v) l.emplace_back(x);
          return expr::Value(std::move(l));
        } else {
          return expr::Value(v);
        }
      },
      a);
}

std::map<std::string, expr::Value> toValues(const std::map<std::string, Attribute>& attrs) {
  std::map<std::string, expr::Value> out;
  for (const auto& [k, v] : attrs) out.emplace(k, toValue(v));
  return out;
}

namespace {
// nlohmann stores 2^63..2^64-1 as unsigned, and get<int64_t>() would wrap them to negatives.
int64_t exactInt(const nlohmann::json& j, const std::string& text) {
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    throw Error(ErrorCode::InvalidArgument, "attribute value '" + text + "': integer " +
                                                std::to_string(j.get<uint64_t>()) + " does not fit in 64 signed bits");
  return j.get<int64_t>();
}
}  // namespace

Attribute parseAttributeValue(const std::string& text) {
  const nlohmann::json j = parseJsonOrDiscarded(text, "attribute value");
  if (j.is_boolean()) return j.get<bool>();
  if (j.is_number_integer()) return exactInt(j, text);
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) return j.get<std::string>();
  if (j.is_array()) {
    bool allInt = true;
    for (const auto& e : j) {
      if (!e.is_number()) throw Error(ErrorCode::InvalidArgument, "attribute list '" + text + "' must hold numbers only");
      allInt = allInt && e.is_number_integer();
    }
    if (allInt) {
      std::vector<int64_t> out;
      for (const auto& e : j) out.push_back(exactInt(e, text));
      return out;
    }
    return j.get<std::vector<double>>();
  }
  return text;  // not JSON: a bare string such as tanh
}

std::pair<std::string, Attribute> parseAttributeAssignment(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(ErrorCode::InvalidArgument, "attribute '" + text + "' must be written NAME=VALUE");
  return {text.substr(0, eq), parseAttributeValue(text.substr(eq + 1))};
}

Attribute fromValue(const expr::Value& v) {
  switch (v.kind()) {
    case expr::Value::Kind::Bool: return v.asBool();
    case expr::Value::Kind::Int: return v.asInt();
    case expr::Value::Kind::Float: return v.asNumber();
    case expr::Value::Kind::String: return v.asString();
    case expr::Value::Kind::List: {
      bool allInt = true;
      for (const auto& e : v.asList()) {
        if (!e.isNumber()) throw Error(ErrorCode::InvalidArgument, "attribute list " + v.repr() + " must hold numbers");
        allInt = allInt && e.isInt();
      }
      if (allInt) {
        std::vector<int64_t> out;
        for (const auto& e : v.asList()) out.push_back(e.asInt());
        return out;
      }
      std::vector<double> out;
      for (const auto& e : v.asList()) out.push_back(e.asNumber());
      return out;
    }
    default: throw Error(ErrorCode::InvalidArgument, "attribute value " + v.repr() + " is not a number, string or list");
  }
}

std::map<std::string, Attribute> fromValues(const std::map<std::string, expr::Value>& values) {
  std::map<std::string, Attribute> out;
  for (const auto& [k, v] : values) out.emplace(k, fromValue(v));
  return out;
}

}  // namespace wgk::runtime

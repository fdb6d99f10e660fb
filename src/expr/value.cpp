#include "expr/value.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wgk/error.h"

namespace wgk::expr {

Value Value::function(std::string name, NativeFunction fn) {
  Value v;
  v.v_ = std::make_shared<const Function>(Function{std::move(name), std::move(fn)});
  return v;
}

Value::Kind Value::kind() const {
  return static_cast<Kind>(v_.index());
}

std::string_view Value::kindName() const {
  static constexpr std::string_view kNames[] = {"none",   "bool", "int", "float",
                                                "string", "list", "map", "function"};
  return kNames[v_.index()];
}

namespace {
[[noreturn]] void mismatch(const Value& v, std::string_view expected) {
  std::string shown = v.repr();
  if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
  throw Error(ErrorCode::Expression, fmt::format("expected {}, got {} {}", expected, v.kindName(), shown));
}
}  // namespace

bool Value::asBool() const {
  if (auto* b = std::get_if<bool>(&v_)) return *b;
  mismatch(*this, "a bool");
}

int64_t Value::asInt() const {
  if (auto* i = std::get_if<int64_t>(&v_)) return *i;
  if (auto* d = std::get_if<double>(&v_)) {
    // 2^63 is exactly representable; anything at or above it does not fit.
    if (std::isfinite(*d) && std::floor(*d) == *d && *d >= -9223372036854775808.0 &&
        *d < 9223372036854775808.0)
      return static_cast<int64_t>(*d);
    mismatch(*this, "an integer (a float is accepted only when integral)");
  }
  mismatch(*this, "an integer");
}

double Value::asNumber() const {
  if (auto* i = std::get_if<int64_t>(&v_)) return static_cast<double>(*i);
  if (auto* d = std::get_if<double>(&v_)) return *d;
  mismatch(*this, "a number");
}

const std::string& Value::asString() const {
  if (auto* s = std::get_if<std::string>(&v_)) return *s;
  mismatch(*this, "a string");
}

const List& Value::asList() const {
  if (auto* l = std::get_if<std::shared_ptr<const List>>(&v_)) return **l;
  mismatch(*this, "a list");
}

const Map& Value::asMap() const {
  if (auto* m = std::get_if<std::shared_ptr<const Map>>(&v_)) return **m;
  mismatch(*this, "a map");
}

const Function& Value::asFunction() const {
  if (auto* f = std::get_if<std::shared_ptr<const Function>>(&v_)) return **f;
  mismatch(*this, "a function");
}

bool Value::truthy() const {
  switch (kind()) {
    case Kind::None:
      return false;
    case Kind::Bool:
      return std::get<bool>(v_);
    case Kind::Int:
      return std::get<int64_t>(v_) != 0;
    case Kind::Float:
      return std::get<double>(v_) != 0.0;
    case Kind::String:
      return !std::get<std::string>(v_).empty();
    case Kind::List:
      return !asList().empty();
    case Kind::Map:
      return !asMap().empty();
    case Kind::Function:
      return true;
  }
  return false;
}

const Value* Value::find(std::string_view key) const {
  auto* m = std::get_if<std::shared_ptr<const Map>>(&v_);
  if (!m) return nullptr;
  auto it = (*m)->find(key);
  return it == (*m)->end() ? nullptr : &it->second;
}

bool Value::operator==(const Value& other) const {
  if (isNumber() && other.isNumber()) {
    if (isInt() && other.isInt()) return std::get<int64_t>(v_) == std::get<int64_t>(other.v_);
    // int vs float: equal only when the float is exactly that integer (no rounding of large ints).
    if (isInt() || other.isInt()) {
      int64_t i = isInt() ? std::get<int64_t>(v_) : std::get<int64_t>(other.v_);
      double d = isInt() ? std::get<double>(other.v_) : std::get<double>(v_);
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || std::floor(d) != d) return false;
      return static_cast<int64_t>(d) == i;
    }
    return std::get<double>(v_) == std::get<double>(other.v_);
  }
  if (kind() != other.kind()) return false;
  switch (kind()) {
    case Kind::None:
      return true;
    case Kind::Bool:
      return std::get<bool>(v_) == std::get<bool>(other.v_);
    case Kind::String:
      return std::get<std::string>(v_) == std::get<std::string>(other.v_);
    case Kind::List:
      return asList() == other.asList();
    case Kind::Map:
      return asMap() == other.asMap();
    case Kind::Function:
      return &asFunction() == &other.asFunction();
    default:
      return false;
  }
}

nlohmann::json Value::toJson() const {
  switch (kind()) {
    case Kind::None:
      return nullptr;
    case Kind::Bool:
      return std::get<bool>(v_);
    case Kind::Int:
      return std::get<int64_t>(v_);
    case Kind::Float:
      return std::get<double>(v_);
    case Kind::String:
      return std::get<std::string>(v_);
    case Kind::List: {
      auto out = nlohmann::json::array();
      for (const auto& item : asList()) out.push_back(item.toJson());
      return out;
    }
    case Kind::Map: {
      auto out = nlohmann::json::object();
      for (const auto& [k, item] : asMap()) out[k] = item.toJson();
      return out;
    }
    case Kind::Function:
      return asFunction().name;
  }
  return nullptr;
}

namespace {

template <class J>
Value valueFromJson(const J& j) {
  switch (j.type()) {
    case nlohmann::detail::value_t::null:
      return Value();
    case nlohmann::detail::value_t::boolean:
      return Value(j.template get<bool>());
    case nlohmann::detail::value_t::number_integer:
      return Value(j.template get<int64_t>());
    case nlohmann::detail::value_t::number_unsigned: {
      uint64_t u = j.template get<uint64_t>();
      if (u > static_cast<uint64_t>(INT64_MAX))
        throw Error(ErrorCode::Expression,
                    fmt::format("integer {} does not fit in 64 signed bits", u));
      return Value(static_cast<int64_t>(u));
    }
    case nlohmann::detail::value_t::number_float:
      return Value(j.template get<double>());
    case nlohmann::detail::value_t::string:
      return Value(j.template get<std::string>());
    case nlohmann::detail::value_t::array: {
      List l;
      l.reserve(j.size());
      for (const auto& item : j) l.push_back(valueFromJson(item));
      return Value(std::move(l));
    }
    case nlohmann::detail::value_t::object: {
      Map m;
      for (auto it = j.begin(); it != j.end(); ++it) m.emplace(it.key(), valueFromJson(it.value()));
      return Value(std::move(m));
    }
    default:
      throw Error(ErrorCode::Expression, fmt::format("cannot convert JSON {} to a value", j.type_name()));
  }
}

}  // namespace

Value Value::fromJson(const nlohmann::json& j) { return valueFromJson(j); }
Value Value::fromJson(const nlohmann::ordered_json& j) { return valueFromJson(j); }

Value wholeNumbersAsInts(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Float: {
      const double d = v.asNumber();
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9007199254740992.0)
        return Value(static_cast<int64_t>(d));
      return v;
    }
    case Value::Kind::List: {
      List out;
      out.reserve(v.asList().size());
      for (const auto& e : v.asList()) out.push_back(wholeNumbersAsInts(e));
      return Value(std::move(out));
    }
    case Value::Kind::Map: {
      Map out;
      for (const auto& [k, e] : v.asMap()) out.emplace(k, wholeNumbersAsInts(e));
      return Value(std::move(out));
    }
    default:
      return v;
  }
}

}  // namespace wgk::expr

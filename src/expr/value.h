// Values of the expression language: none, bool, int64, double, string, list, map, function.
// Jinja semantics: 1 == 1.0, `/` gives a double, an integral double is accepted where an integer
// is needed (asInt), anything else is an Error(Expression) naming what was expected.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace wgk::expr {

class Value;
class Scope;
using List = std::vector<Value>;
using Map = std::map<std::string, Value, std::less<>>;
// A builtin or method. `scope` is the caller's scope (f16Ok reads `device` from it).
using NativeFunction = std::function<Value(std::span<const Value> args, const Scope& scope)>;

struct Function {
  std::string name;
  NativeFunction call;
};

class Value {
 public:
  enum class Kind { None, Bool, Int, Float, String, List, Map, Function };

  Value() = default;  // none
  Value(std::nullptr_t) {}
  Value(bool b) : v_(b) {}
  Value(int i) : v_(static_cast<int64_t>(i)) {}
  Value(int64_t i) : v_(i) {}
  Value(uint32_t i) : v_(static_cast<int64_t>(i)) {}
  Value(uint64_t i) : v_(static_cast<int64_t>(i)) {}
  Value(double d) : v_(d) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(std::string_view s) : v_(std::string(s)) {}
  Value(const char* s) : v_(std::string(s)) {}
  Value(List l) : v_(std::make_shared<const List>(std::move(l))) {}
  Value(Map m) : v_(std::make_shared<const Map>(std::move(m))) {}
  static Value function(std::string name, NativeFunction fn);

  Kind kind() const;
  std::string_view kindName() const;  // "none", "bool", "int", "float", "string", "list", "map", "function"
  bool isNone() const { return kind() == Kind::None; }
  bool isBool() const { return kind() == Kind::Bool; }
  bool isInt() const { return kind() == Kind::Int; }
  bool isFloat() const { return kind() == Kind::Float; }
  bool isNumber() const { return isInt() || isFloat(); }
  bool isString() const { return kind() == Kind::String; }
  bool isList() const { return kind() == Kind::List; }
  bool isMap() const { return kind() == Kind::Map; }
  bool isFunction() const { return kind() == Kind::Function; }

  // Accessors throw Error(Expression) "expected <what>, got <kind> <repr>" on a mismatch.
  bool asBool() const;                 // exactly a bool
  int64_t asInt() const;               // an int, or a float with an integral value
  double asNumber() const;             // int or float (bool is not a number here)
  const std::string& asString() const;
  const List& asList() const;
  const Map& asMap() const;
  const Function& asFunction() const;

  bool truthy() const;                 // Jinja truthiness: none/false/0/""/[]/{} are false
  const Value* find(std::string_view key) const;  // map member, or nullptr (also for non-maps)

  // Python-style text: repr quotes strings ('f16'), str does not; floats use the shortest
  // round-trip form with ".0" for integral values (1.0, 1e-05, 0.5).
  std::string repr() const;
  std::string str() const;

  bool operator==(const Value& other) const;  // numeric cross-kind equality, deep for lists/maps

  nlohmann::json toJson() const;              // functions become their name
  // The one JSON -> Value conversion (manifests, test.json, tuning tables, --attr, templates' scopes).
  // Integers above INT64_MAX are refused (Error(Expression)), never wrapped.
  static Value fromJson(const nlohmann::json& j);
  static Value fromJson(const nlohmann::ordered_json& j);

 private:
  std::variant<std::monostate, bool, int64_t, double, std::string, std::shared_ptr<const List>,
               std::shared_ptr<const Map>, std::shared_ptr<const Function>>
      v_;
};

// The value with every float that holds a whole number (|x| < 2^53) made an int, lists and maps
// deeply. Values a manifest stores (derives, constants, tunables, attributes) pass through this:
// the Hub loader's values are JavaScript numbers, so a derive of 8 / 4 is the integer 2 to every
// later expression and template ("{{ n }}" prints 2, not 2.0).
Value wholeNumbersAsInts(const Value& v);

}  // namespace wgk::expr

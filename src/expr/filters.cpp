// Jinja filters: value | name(args). `default` is handled by the evaluator (it must see an
// undefined input); everything else is here.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "expr/budget.h"
#include "expr/support.h"

namespace wgk::expr {
namespace {

int64_t toIntTruncating(const Value& v) {
  if (v.isInt()) return v.asInt();
  if (v.isBool()) return v.asBool() ? 1 : 0;
  if (v.isFloat()) {
    double d = std::trunc(v.asNumber());
    if (!std::isfinite(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
      fail(fmt::format("int: {} does not fit in a 64-bit integer", v.repr()));
    return static_cast<int64_t>(d);
  }
  if (v.isString()) {
    const std::string& s = v.asString();
    int64_t i = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), i);
    if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return i;
    double d = 0;
    auto rd = std::from_chars(s.data(), s.data() + s.size(), d);
    if (rd.ec == std::errc() && rd.ptr == s.data() + s.size()) return toIntTruncating(Value(d));
    fail(fmt::format("int: cannot convert string {} to an integer", v.repr()));
  }
  fail(fmt::format("int: cannot convert {} {} to an integer", v.kindName(), v.repr()));
}

double toFloat(const Value& v) {
  if (v.isNumber()) return v.asNumber();
  if (v.isBool()) return v.asBool() ? 1.0 : 0.0;
  if (v.isString()) {
    const std::string& s = v.asString();
    double d = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), d);
    if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return d;
    fail(fmt::format("float: cannot convert string {} to a number", v.repr()));
  }
  fail(fmt::format("float: cannot convert {} {} to a number", v.kindName(), v.repr()));
}

std::string caseMap(const std::string& s, bool upper) {
  chargeResult(s.size(), upper ? "upper" : "lower");
  std::string out = s;
  for (char& c : out) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

const List& sequence(std::string_view filter, const Value& v) {
  if (!v.isList()) fail(fmt::format("filter '{}' needs a list, got {} {}", filter, v.kindName(), v.repr()));
  return v.asList();
}

void arity(std::string_view name, std::span<const Value> args, size_t min, size_t max) {
  checkArity(fmt::format("filter {}", name), args, min, max);
}

std::string join(const Value& input, std::span<const Value> args) {
  arity("join", args, 0, 1);
  std::string sep = args.empty() ? "" : args[0].asString();
  std::string out;
  bool first = true;
  for (const auto& item : sequence("join", input)) {
    if (!first) out += sep;
    first = false;
    out += item.str();
    if (out.size() > kMaxResultBytes) chargeResult(out.size(), "join");  // stops a runaway join early
  }
  chargeWork(out.size(), "join");
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return std::string();
  chargeWork(s.size(), "trim");
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string replace(const std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) fail("filter replace: the text to replace is empty");
  // Size the result first: one replace can multiply a string, a loop of them multiplies work.
  size_t count = 0;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + from.size())) ++count;
  const size_t grown = s.size() + count * to.size();  // before removing what is replaced
  chargeResult(std::max(s.size(), grown - count * from.size()), "replace");
  std::string out;
  out.reserve(grown - count * from.size());
  size_t start = 0, at;
  while ((at = s.find(from, start)) != std::string::npos) {
    out.append(s, start, at - start);
    out += to;
    start = at + from.size();
  }
  out.append(s, start);
  return out;
}

// Jinja's round filter: precision digits, method common (half away from zero) | floor | ceil;
// always a float.
double roundNumber(const Value& input, std::span<const Value> args) {
  arity("round", args, 0, 2);
  int64_t precision = args.empty() ? 0 : args[0].asInt();
  std::string method = args.size() < 2 ? "common" : args[1].asString();
  double scale = std::pow(10.0, static_cast<double>(precision));
  double x = input.asNumber() * scale;
  if (method == "common")
    x = std::round(x);
  else if (method == "floor")
    x = std::floor(x);
  else if (method == "ceil")
    x = std::ceil(x);
  else
    fail(fmt::format("filter round: method must be common, floor or ceil, got '{}'", method));
  return x / scale;
}

Value toList(const Value& input) {
  if (input.isList()) return input;
  if (input.isString()) {
    chargeWork(input.asString().size() * sizeof(Value), "list");
    List out;
    for (char c : input.asString()) out.emplace_back(std::string(1, c));
    return out;
  }
  if (input.isMap()) {
    List out;
    for (const auto& [k, v] : input.asMap()) out.emplace_back(k);
    return out;
  }
  fail(fmt::format("filter list: cannot convert {} to a list", input.kindName()));
}

// Filters on text: join, lower, upper, trim, replace.
std::optional<Value> textFilter(std::string_view name, const Value& input, std::span<const Value> args) {
  if (name == "join") return join(input, args);
  if (name == "lower" || name == "upper") {
    arity(name, args, 0, 0);
    return caseMap(input.asString(), name == "upper");
  }
  if (name == "trim") {
    arity(name, args, 0, 0);
    return trim(input.asString());
  }
  if (name == "replace") {
    arity(name, args, 2, 2);
    return replace(input.asString(), args[0].asString(), args[1].asString());
  }
  return std::nullopt;
}

// Conversions: int, float, string, list, tojson.
std::optional<Value> conversionFilter(std::string_view name, const Value& input, std::span<const Value> args) {
  if (name != "int" && name != "float" && name != "string" && name != "list" && name != "tojson")
    return std::nullopt;
  arity(name, args, 0, 0);
  if (name == "int") return toIntTruncating(input);
  if (name == "float") return toFloat(input);
  if (name == "list") return toList(input);
  if (name == "tojson") return input.toJson().dump();
  std::string out = input.str();
  chargeResult(out.size(), "string");
  return out;
}

// Numbers: abs, round, and the reductions sum, min, max.
std::optional<Value> numberFilter(std::string_view name, const Value& input, std::span<const Value> args) {
  if (name == "round") return roundNumber(input, args);
  if (name == "abs") {
    arity(name, args, 0, 0);
    if (input.isInt()) {
      if (input.asInt() == INT64_MIN) fail("integer overflow in abs");
      return input.asInt() < 0 ? -input.asInt() : input.asInt();
    }
    return std::fabs(input.asNumber());
  }
  if (name == "sum") {
    arity(name, args, 0, 0);
    Value total = int64_t{0};
    for (const auto& item : sequence(name, input)) total = binaryOp("+", total, item);
    return total;
  }
  if (name == "min" || name == "max") {
    arity(name, args, 0, 0);
    const List& l = sequence(name, input);
    if (l.empty()) fail(fmt::format("filter {}: the list is empty", name));
    Value best = l.front();
    for (const auto& item : l)
      if (name == "min" ? lessThan(item, best) : lessThan(best, item)) best = item;
    return best;
  }
  return std::nullopt;
}

// Sequences (lists and strings): length/count, first, last, reverse.
std::optional<Value> sequenceFilter(std::string_view name, const Value& input, std::span<const Value> args) {
  if (name == "length" || name == "count") {
    arity(name, args, 0, 0);
    if (input.isList()) return static_cast<int64_t>(input.asList().size());
    if (input.isMap()) return static_cast<int64_t>(input.asMap().size());
    if (input.isString()) return static_cast<int64_t>(input.asString().size());
    fail(fmt::format("filter '{}' needs a list, map or string, got {}", name, input.kindName()));
  }
  if (name == "first" || name == "last") {
    arity(name, args, 0, 0);
    if (input.isString()) {
      const std::string& s = input.asString();
      if (s.empty()) fail(fmt::format("filter {}: the string is empty", name));
      return std::string(1, name == "first" ? s.front() : s.back());
    }
    const List& l = sequence(name, input);
    if (l.empty()) fail(fmt::format("filter {}: the list is empty", name));
    return name == "first" ? l.front() : l.back();
  }
  if (name == "reverse") {
    arity(name, args, 0, 0);
    if (input.isString()) {
      chargeResult(input.asString().size(), "reverse");
      return std::string(input.asString().rbegin(), input.asString().rend());
    }
    chargeWork(sequence(name, input).size() * sizeof(Value), "reverse");
    List l = sequence(name, input);
    std::reverse(l.begin(), l.end());
    return l;
  }
  return std::nullopt;
}

}  // namespace

Value applyFilter(std::string_view name, const Value& input, std::span<const Value> args) {
  for (auto* group : {textFilter, conversionFilter, numberFilter, sequenceFilter})
    if (std::optional<Value> v = group(name, input, args)) return std::move(*v);
  fail(fmt::format("unknown filter '{}'", name));
}

}  // namespace wgk::expr

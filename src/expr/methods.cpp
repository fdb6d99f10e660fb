// Methods callable as x.name(args): the ones manifests use (`device.features.has("x")`) and the
// common Jinja/Python ones templates reach for (m.get, m.items, s.startswith, ...).
#include <fmt/format.h>

#include "expr/budget.h"
#include "expr/support.h"

namespace wgk::expr {
namespace {

std::string strip(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

bool mapMethod(const Value& object, std::string_view name, std::span<const Value> args, Value& out) {
  const Map& m = object.asMap();
  if (name == "has") {
    checkArity("has", args, 1, 1);
    out = args[0].isString() && m.find(args[0].asString()) != m.end();
  } else if (name == "get") {
    checkArity("get", args, 1, 2);
    const Value* v = object.find(args[0].asString());
    out = v ? *v : (args.size() == 2 ? args[1] : Value());
  } else if (name == "keys" || name == "values" || name == "items") {
    checkArity(name, args, 0, 0);
    chargeWork(m.size() * sizeof(Value), "items");
    List l;
    for (const auto& [k, v] : m) {
      if (name == "keys")
        l.emplace_back(k);
      else if (name == "values")
        l.push_back(v);
      else
        l.emplace_back(List{Value(k), v});
    }
    out = std::move(l);
  } else {
    return false;
  }
  return true;
}

bool listMethod(const Value& object, std::string_view name, std::span<const Value> args, Value& out) {
  const List& l = object.asList();
  if (name == "has") {
    checkArity("has", args, 1, 1);
    out = false;
    for (const auto& item : l)
      if (item == args[0]) out = true;
  } else if (name == "index") {
    checkArity("index", args, 1, 1);
    for (size_t i = 0; i < l.size(); ++i)
      if (l[i] == args[0]) {
        out = static_cast<int64_t>(i);
        return true;
      }
    fail(fmt::format("{} is not in the list", args[0].repr()));
  } else if (name == "count") {
    checkArity("count", args, 1, 1);
    int64_t c = 0;
    for (const auto& item : l) c += item == args[0];
    out = c;
  } else {
    return false;
  }
  return true;
}

bool stringMethod(const Value& object, std::string_view name, std::span<const Value> args, Value& out) {
  const std::string& s = object.asString();
  if (name == "has") {
    checkArity("has", args, 1, 1);
    out = s.find(args[0].asString()) != std::string::npos;
  } else if (name == "startswith") {
    checkArity("startswith", args, 1, 1);
    out = s.starts_with(args[0].asString());
  } else if (name == "endswith") {
    checkArity("endswith", args, 1, 1);
    out = s.ends_with(args[0].asString());
  } else if (name == "upper" || name == "lower") {
    checkArity(name, args, 0, 0);
    Value input = object;
    out = applyFilter(name, input, {});
  } else if (name == "strip") {
    checkArity("strip", args, 0, 0);
    chargeWork(s.size(), "strip");
    out = strip(s);
  } else if (name == "replace") {
    checkArity("replace", args, 2, 2);
    out = applyFilter("replace", object, args);
  } else if (name == "split") {
    checkArity("split", args, 1, 1);
    const std::string& sep = args[0].asString();
    if (sep.empty()) fail("split() separator is empty");
    size_t count = 1;
    for (size_t at = s.find(sep); at != std::string::npos; at = s.find(sep, at + sep.size())) ++count;
    chargeWork(s.size() + count * sizeof(Value), "split");
    List parts;
    size_t start = 0, at;
    while ((at = s.find(sep, start)) != std::string::npos) {
      parts.emplace_back(s.substr(start, at - start));
      start = at + sep.size();
    }
    parts.emplace_back(s.substr(start));
    out = std::move(parts);
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool callMethod(const Value& object, std::string_view name, std::span<const Value> args, Value& result) {
  if (object.isMap()) return mapMethod(object, name, args, result);
  if (object.isList()) return listMethod(object, name, args, result);
  if (object.isString()) return stringMethod(object, name, args, result);
  return false;
}

}  // namespace wgk::expr

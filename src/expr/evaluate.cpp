// Tree-walking evaluator. Errors raised below (builtins, operators) carry a plain message; the
// caller of evaluateNode (Expression::evaluate) appends "in `<expr>`".
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "expr/budget.h"
#include "expr/node.h"
#include "expr/support.h"
#include "wgk/error.h"

namespace wgk::expr {
namespace {

// "device.limits" for a Name/Attr chain, nullopt for anything else.
std::optional<std::string> pathOf(const Node& n) {
  if (n.kind == NodeKind::Name) return n.text;
  if (n.kind == NodeKind::Attr) {
    auto base = pathOf(*n.kids[0]);
    if (base) return *base + "." + n.text;
  }
  return std::nullopt;
}

std::string describeObject(const Node& n) {
  auto p = pathOf(n);
  return p ? "`" + *p + "`" : "the value";
}

std::string joinKeys(const Map& m) {
  std::string out;
  size_t shown = 0;
  for (const auto& [k, v] : m) {
    if (shown == 40) return out + ", ...";
    if (shown++) out += ", ";
    out += k;
  }
  return out.empty() ? "none" : out;
}

std::string listNames(const Scope& scope) {
  auto names = scope.names();
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i == 60) return out + ", ...";
    if (i) out += ", ";
    out += names[i];
  }
  return out;
}

int64_t normalizeIndex(int64_t i, size_t size, std::string_view what) {
  int64_t n = static_cast<int64_t>(size);
  int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n) fail(fmt::format("index {} out of range for {} of length {}", i, what, n));
  return j;
}

// Strings are values: every read of a name, literal or element copies one, and a loop that reads
// a 16 MB string a million times is as much work as building it; charge the copy to the budget.
const Value& charged(const Value& v) {
  if (v.isString() && v.asString().size() > 64) chargeWork(v.asString().size(), "copying a string");
  return v;
}

class Evaluator {
 public:
  Evaluator(const Scope& scope, std::string_view source) : scope_(scope), source_(source) {}

  Value eval(const Node& n) {
    switch (n.kind) {
      case NodeKind::Literal:
        return charged(n.value);
      case NodeKind::Name: {
        if (const Value* v = scope_.lookup(n.text)) return charged(*v);
        throw Error(ErrorCode::Expression, fmt::format("unknown name '{}' in `{}` (in scope: {})", n.text,
                                                       source_, listNames(scope_)));
      }
      case NodeKind::ListLit: {
        List items;
        items.reserve(n.kids.size());
        for (const auto& k : n.kids) items.push_back(eval(*k));
        return items;
      }
      case NodeKind::Attr:
        return attribute(n, eval(*n.kids[0]));
      case NodeKind::Index:
        return index(n, eval(*n.kids[0]), eval(*n.kids[1]));
      case NodeKind::Slice:
        return slice(n);
      case NodeKind::Call:
        return call(n);
      case NodeKind::Unary:
        return unary(n);
      case NodeKind::Binary:
        return binaryOp(n.text, eval(*n.kids[0]), eval(*n.kids[1]));
      case NodeKind::And: {
        Value a = eval(*n.kids[0]);
        return a.truthy() ? eval(*n.kids[1]) : a;
      }
      case NodeKind::Or: {
        Value a = eval(*n.kids[0]);
        return a.truthy() ? a : eval(*n.kids[1]);
      }
      case NodeKind::Cond:
        if (eval(*n.kids[1]).truthy()) return eval(*n.kids[0]);
        return n.kids[2] ? eval(*n.kids[2]) : Value();
      case NodeKind::Filter:
        return filter(n);
      case NodeKind::Test:
        return test(n);
    }
    fail("internal: unknown node");
  }

 private:
  const Scope& scope_;
  std::string_view source_;

  Value attribute(const Node& n, const Value& object) {
    if (object.isMap()) {
      if (const Value* v = object.find(n.text)) return charged(*v);
      fail(fmt::format("{} has no key '{}' (keys: {})", describeObject(*n.kids[0]), n.text,
                       joinKeys(object.asMap())));
    }
    fail(fmt::format("cannot read attribute '{}' of {} {}", n.text, object.kindName(), object.repr()));
  }

  Value index(const Node& n, const Value& object, const Value& key) {
    if (object.isMap()) {
      if (!key.isString()) fail(fmt::format("map keys are strings, got {} {}", key.kindName(), key.repr()));
      if (const Value* v = object.find(key.asString())) return charged(*v);
      fail(fmt::format("{} has no key '{}' (keys: {})", describeObject(*n.kids[0]), key.asString(),
                       joinKeys(object.asMap())));
    }
    if (object.isList()) {
      const List& l = object.asList();
      return charged(l[normalizeIndex(key.asInt(), l.size(), "list")]);
    }
    if (object.isString()) {
      const std::string& s = object.asString();
      return std::string(1, s[normalizeIndex(key.asInt(), s.size(), "string")]);
    }
    fail(fmt::format("cannot index {} {}", object.kindName(), object.repr()));
  }

  Value slice(const Node& n) {
    Value object = eval(*n.kids[0]);
    if (!object.isList() && !object.isString()) fail(fmt::format("cannot slice {}", object.kindName()));
    int64_t size = object.isList() ? object.asList().size() : object.asString().size();
    int64_t step = n.kids[3] ? eval(*n.kids[3]).asInt() : 1;
    if (step == 0) fail("slice step cannot be zero");
    // Python's clamping rules for start/stop, for either sign of step.
    auto bound = [&](const NodePtr& k, int64_t dflt) -> int64_t {
      if (!k) return dflt;
      int64_t v = eval(*k).asInt();
      if (v < 0) v += size;
      if (step > 0) return std::clamp<int64_t>(v, 0, size);
      return std::clamp<int64_t>(v, -1, size - 1);
    };
    int64_t start = bound(n.kids[1], step > 0 ? 0 : size - 1);
    int64_t stop = bound(n.kids[2], step > 0 ? size : -1);
    List outList;
    std::string outStr;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (object.isList())
        outList.push_back(object.asList()[i]);
      else
        outStr += object.asString()[i];
    }
    if (object.isList()) return outList;
    return outStr;
  }

  std::vector<Value> args(const Node& n) {
    std::vector<Value> out;
    out.reserve(n.kids.size() - 1);
    for (size_t i = 1; i < n.kids.size(); ++i) out.push_back(eval(*n.kids[i]));
    return out;
  }

  Value call(const Node& n) {
    const Node& callee = *n.kids[0];
    if (callee.kind == NodeKind::Attr) {
      Value object = eval(*callee.kids[0]);
      const Value* member = object.find(callee.text);
      if (member && member->isFunction()) return member->asFunction().call(args(n), scope_);
      std::vector<Value> a = args(n);
      Value result;
      if (callMethod(object, callee.text, a, result)) return result;
      fail(fmt::format("{} {} has no method '{}'", describeObject(*callee.kids[0]), object.kindName(),
                       callee.text));
    }
    Value f = eval(callee);
    if (!f.isFunction()) {
      auto p = pathOf(callee);
      fail(fmt::format("{} is {} {}, not a function", p ? "`" + *p + "`" : "the callee", f.kindName(),
                       f.repr()));
    }
    return f.asFunction().call(args(n), scope_);
  }

  Value unary(const Node& n) {
    Value v = eval(*n.kids[0]);
    if (n.text == "not") return !v.truthy();
    if (!v.isNumber()) fail(fmt::format("cannot apply unary '{}' to {} {}", n.text, v.kindName(), v.repr()));
    if (n.text == "+") return v;
    if (v.isInt()) {
      if (v.asInt() == INT64_MIN) fail("integer overflow in unary '-'");
      return -v.asInt();
    }
    return -v.asNumber();
  }

  // Like eval, but a missing name, key or index gives nullopt (for `default` and `is defined`).
  std::optional<Value> tryResolve(const Node& n) {
    if (n.kind == NodeKind::Name) {
      const Value* v = scope_.lookup(n.text);
      return v ? std::optional<Value>(*v) : std::nullopt;
    }
    if (n.kind == NodeKind::Attr || n.kind == NodeKind::Index) {
      auto object = tryResolve(*n.kids[0]);
      if (!object) return std::nullopt;
      if (n.kind == NodeKind::Attr) {
        const Value* v = object->find(n.text);
        return v ? std::optional<Value>(*v) : std::nullopt;
      }
      Value key = eval(*n.kids[1]);
      if (object->isMap() && key.isString()) {
        const Value* v = object->find(key.asString());
        return v ? std::optional<Value>(*v) : std::nullopt;
      }
      if (object->isList() && key.isInt()) {
        int64_t size = object->asList().size(), i = key.asInt() < 0 ? key.asInt() + size : key.asInt();
        return (i >= 0 && i < size) ? std::optional<Value>(object->asList()[i]) : std::nullopt;
      }
      return std::nullopt;
    }
    return eval(n);
  }

  Value filter(const Node& n) {
    if (n.text == "default" || n.text == "d") {
      auto v = tryResolve(*n.kids[0]);
      std::vector<Value> a = args(n);
      if (a.size() > 2) fail("default() takes at most 2 arguments");
      bool boolean = a.size() == 2 && a[1].truthy();  // default(x, true) also replaces falsy values
      if (v && !(boolean && !v->truthy())) return *v;
      return a.empty() ? Value(std::string()) : a[0];
    }
    Value input = eval(*n.kids[0]);
    return applyFilter(n.text, input, args(n));
  }

  Value test(const Node& n) {
    bool result;
    if (n.text == "defined" || n.text == "undefined") {
      result = tryResolve(*n.kids[0]).has_value() == (n.text == "defined");
    } else {
      Value v = eval(*n.kids[0]);
      std::vector<Value> a = args(n);
      auto arity = [&](size_t k) {
        if (a.size() != k) fail(fmt::format("test '{}' takes {} argument(s), got {}", n.text, k, a.size()));
      };
      const std::string& t = n.text;
      if (t == "divisibleby")
        arity(1);
      else if (t == "eq" || t == "equalto" || t == "ne" || t == "lt" || t == "gt" || t == "le" || t == "ge" ||
               t == "in" || t == "sameas")
        arity(1);
      else
        arity(0);
      if (t == "none")
        result = v.isNone();
      else if (t == "number")
        result = v.isNumber();
      else if (t == "integer")
        result = v.isInt();
      else if (t == "float")
        result = v.isFloat();
      else if (t == "string")
        result = v.isString();
      else if (t == "boolean")
        result = v.isBool();
      else if (t == "true")
        result = v.isBool() && v.asBool();
      else if (t == "false")
        result = v.isBool() && !v.asBool();
      else if (t == "mapping")
        result = v.isMap();
      else if (t == "sequence" || t == "iterable")
        result = v.isList() || v.isString() || v.isMap();
      else if (t == "callable")
        result = v.isFunction();
      else if (t == "even")
        result = v.asInt() % 2 == 0;
      else if (t == "odd")
        result = v.asInt() % 2 != 0;
      else if (t == "divisibleby") {
        if (a[0].asInt() == 0) fail("division by zero in test 'divisibleby'");
        result = v.asInt() % a[0].asInt() == 0;
      } else if (t == "eq" || t == "equalto" || t == "sameas")
        result = v == a[0];
      else if (t == "ne")
        result = !(v == a[0]);
      else if (t == "lt")
        result = lessThan(v, a[0]);
      else if (t == "gt")
        result = lessThan(a[0], v);
      else if (t == "le")
        result = !lessThan(a[0], v);
      else if (t == "ge")
        result = !lessThan(v, a[0]);
      else if (t == "in")
        result = binaryOp("in", v, a[0]).asBool();
      else
        fail(fmt::format("unknown test '{}'", t));
    }
    return n.negated ? !result : result;
  }
};

}  // namespace

Value evaluateNode(const Node& node, const Scope& scope, std::string_view source) {
  return Evaluator(scope, source).eval(node);
}

}  // namespace wgk::expr

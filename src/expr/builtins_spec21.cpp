// The builtins manifest spec 2.1 adds (hub-spec-2.1/README.md "Expression scope"), with the Hub
// loader's semantics: pow, log2ceil, rows, prefix, suffix, fill, moveAxis, permuteShape,
// reversedAxes, broadcastShape, matmulShape, hasAxis, axisValue, isUniqueIntList, pick.
// Axes wrap modulo the rank as the loader's do; errors name the function and the values.
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/shape_text.h"
#include "expr/support.h"

namespace wgk::expr {

namespace {

Value shapeValue(const Shape& s) {
  List l;
  l.reserve(s.size());
  for (int64_t d : s) l.emplace_back(d);
  return l;
}

// ((i % n) + n) % n: any integer axis, also an out-of-range one, wraps modulo the rank.
size_t wrap(std::string_view fn, int64_t i, size_t rank) {
  if (rank == 0) fail(fmt::format("{}(): axis {} of a rank-0 shape", fn, i));
  const int64_t n = static_cast<int64_t>(rank);
  return static_cast<size_t>(((i % n) + n) % n);
}

// A strict axis in [-rank, rank - 1], normalised.
size_t strictAxis(std::string_view fn, const Value& v, size_t rank) {
  const int64_t a = v.asInt(), r = static_cast<int64_t>(rank);
  if (a < -r || a >= r) fail(fmt::format("{}(): axis {} must be in [{}, {}]", fn, a, -r, r - 1));
  return static_cast<size_t>(a < 0 ? a + r : a);
}

Shape broadcast(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i + a.size() < n ? 1 : a[i + a.size() - n];
    const int64_t y = i + b.size() < n ? 1 : b[i + b.size() - n];
    if (x != y && x != 1 && y != 1)
      fail(fmt::format("broadcastShape(): shapes {} and {} are not broadcast-compatible", shapeText(a),
                       shapeText(b)));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

Value matmulShape(std::span<const Value> a) {
  checkArity("matmulShape", a, 2, 2);
  const Shape x = toShape(a[0], "matmulShape()"), y = toShape(a[1], "matmulShape()");
  if (x.empty() || y.empty()) fail("matmulShape(): MatMul inputs must each have rank >= 1");
  const int64_t k = x.back(), ky = y.size() == 1 ? y[0] : y[y.size() - 2];
  if (k != ky) fail(fmt::format("matmulShape(): inner dimensions do not match ({} != {})", k, ky));
  Shape out = broadcast(x.size() == 1 ? Shape{} : Shape(x.begin(), x.end() - 2),
                        y.size() == 1 ? Shape{} : Shape(y.begin(), y.end() - 2));
  if (x.size() > 1) out.push_back(x[x.size() - 2]);
  if (y.size() > 1) out.push_back(y.back());
  return shapeValue(out);
}

bool isInteger(const Value& v) {
  return v.isInt() ||
         (v.isFloat() && std::isfinite(v.asNumber()) && v.asNumber() == std::floor(v.asNumber()));
}

Value isUniqueIntList(std::span<const Value> a) {
  checkArity("isUniqueIntList", a, 3, 4);
  if (!a[0].isList() || !isInteger(a[1]) || !isInteger(a[2]) || (a.size() == 4 && !isInteger(a[3])))
    return false;
  const int64_t lo = a[1].asInt(), hi = a[2].asInt(), rank = a.size() == 4 ? a[3].asInt() : 0;
  if (hi < lo || rank < 0) return false;
  std::set<int64_t> seen;
  for (const auto& e : a[0].asList()) {
    if (!isInteger(e)) return false;
    const int64_t v = e.asInt();
    if (v < lo || v >= hi) return false;
    const int64_t key = rank == 0 ? v : ((v % rank) + rank) % rank;
    if (!seen.insert(key).second) return false;
  }
  return true;
}

Value pick(std::span<const Value> a) {
  checkArity("pick", a, 1, 2);
  if (!a[0].isList()) fail("pick() expects a list of [condition, value] pairs as its first argument");
  for (const auto& pair : a[0].asList()) {
    if (!pair.isList() || pair.asList().size() < 2) fail("pick() entries must be [condition, value] pairs");
    // JavaScript truthiness: a list, even an empty one, is true.
    const Value& c = pair.asList()[0];
    if (c.isList() || c.isMap() || c.truthy()) return pair.asList()[1];
  }
  return a.size() == 2 ? a[1] : Value();
}

}  // namespace

namespace {

using AddBuiltin = std::function<void(std::string, std::function<Value(std::span<const Value>)>)>;

// The spec 2.1 builtins on numbers: pow, log2ceil.
void addArithmetic(const AddBuiltin& add) {
  add("pow", [](std::span<const Value> a) {
    checkArity("pow", a, 2, 2);
    const double r = std::pow(a[0].asNumber(), a[1].asNumber());
    if (a[0].isInt() && a[1].isInt() && a[1].asInt() >= 0 && std::fabs(r) < 9007199254740992.0)
      return Value(static_cast<int64_t>(r));
    return Value(r);
  });
  add("log2ceil", [](std::span<const Value> a) {
    checkArity("log2ceil", a, 1, 1);
    const double x = a[0].asNumber();
    if (std::isnan(x)) fail("log2ceil(): argument is nan");
    return Value(static_cast<int64_t>(x <= 1 ? 0 : std::ceil(std::log2(x))));
  });
}

// The spec 2.1 builtins on shapes and axes: rows, prefix, suffix, moveAxis, permuteShape, broadcastShape,
// matmulShape.
void addShapeBuiltins(const AddBuiltin& add) {
  add("rows", [](std::span<const Value> a) {
    checkArity("rows", a, 2, 2);
    const Shape s = toShape(a[0], "rows()");
    const size_t n = wrap("rows", a[1].asInt(), s.size());
    return Value(shapeProduct(s, 0, n, "rows") * shapeProduct(s, n + 1, s.size(), "rows"));
  });
  add("prefix", [](std::span<const Value> a) {
    checkArity("prefix", a, 2, 2);
    const Shape s = toShape(a[0], "prefix()");
    const size_t k =
        static_cast<size_t>(std::clamp<int64_t>(a[1].asInt(), 0, static_cast<int64_t>(s.size())));
    return shapeValue(Shape(s.begin(), s.begin() + k));
  });
  add("suffix", [](std::span<const Value> a) {
    checkArity("suffix", a, 2, 2);
    const Shape s = toShape(a[0], "suffix()");
    const size_t k =
        static_cast<size_t>(std::clamp<int64_t>(a[1].asInt(), 0, static_cast<int64_t>(s.size())));
    return shapeValue(Shape(s.begin() + k, s.end()));
  });
  add("moveAxis", [](std::span<const Value> a) {
    checkArity("moveAxis", a, 3, 3);
    Shape s = toShape(a[0], "moveAxis()");
    if (s.empty()) fail("moveAxis() expects a non-empty shape");
    const size_t from = strictAxis("moveAxis", a[1], s.size()), to = strictAxis("moveAxis", a[2], s.size());
    const int64_t d = s[from];
    s.erase(s.begin() + static_cast<ptrdiff_t>(from));
    s.insert(s.begin() + static_cast<ptrdiff_t>(std::min(to, s.size())), d);
    return shapeValue(s);
  });
  add("permuteShape", [](std::span<const Value> a) {
    checkArity("permuteShape", a, 2, 2);
    const Shape s = toShape(a[0], "permuteShape()");
    if (!a[1].isList() || a[1].asList().size() != s.size())
      fail(fmt::format("permuteShape() expects one axis per dimension of {}", shapeText(s)));
    Shape out;
    std::set<size_t> used;
    for (const auto& p : a[1].asList()) {
      const size_t axis = strictAxis("permuteShape", p, s.size());
      if (!used.insert(axis).second)
        fail(fmt::format("permuteShape() axes must be unique, saw {} twice", axis));
      out.push_back(s[axis]);
    }
    return shapeValue(out);
  });
  add("broadcastShape", [](std::span<const Value> a) {
    checkArity("broadcastShape", a, 2, 2);
    return shapeValue(broadcast(toShape(a[0], "broadcastShape()"), toShape(a[1], "broadcastShape()")));
  });
  add("matmulShape", matmulShape);
}

// The spec 2.1 builtins on lists: fill, reversedAxes, hasAxis, axisValue, isUniqueIntList, pick.
void addListBuiltins(const AddBuiltin& add) {
  add("fill", [](std::span<const Value> a) {
    checkArity("fill", a, 2, 2);
    if (!isInteger(a[1]) || a[1].asInt() < 0) fail("fill() count must be a non-negative integer");
    if (a[1].asInt() > kMaxRangeLength)
      fail(fmt::format("fill() count {} is above {}", a[1].asInt(), kMaxRangeLength));
    const size_t each = sizeof(Value) + (a[0].isString() ? a[0].asString().size() : 0);
    chargeWork(static_cast<size_t>(a[1].asInt()) * each, "fill");
    return Value(List(static_cast<size_t>(a[1].asInt()), a[0]));
  });
  add("reversedAxes", [](std::span<const Value> a) {
    checkArity("reversedAxes", a, 1, 1);
    if (!isInteger(a[0]) || a[0].asInt() < 0 || a[0].asInt() > 64)
      fail("reversedAxes() expects a rank: an integer in [0, 64]");
    List out;
    for (int64_t i = a[0].asInt() - 1; i >= 0; --i) out.emplace_back(i);
    return Value(std::move(out));
  });
  add("hasAxis", [](std::span<const Value> a) {
    checkArity("hasAxis", a, 3, 3);
    const int64_t rank = a[2].asInt();
    if (rank <= 0) fail("hasAxis(): the rank must be positive");
    const int64_t want = ((a[1].asInt() % rank) + rank) % rank;
    if (!a[0].isList()) fail("hasAxis() expects a list of axes");
    for (const auto& x : a[0].asList())
      if (((x.asInt() % rank) + rank) % rank == want) return Value(true);
    return Value(false);
  });
  add("axisValue", [](std::span<const Value> a) {
    checkArity("axisValue", a, 5, 5);
    const int64_t rank = a[3].asInt();
    if (rank <= 0) fail("axisValue(): the rank must be positive");
    if (!a[0].isList() || !a[1].isList()) fail("axisValue() expects lists of values and axes");
    const int64_t want = ((a[2].asInt() % rank) + rank) % rank;
    const auto& axes = a[1].asList();
    for (size_t i = 0; i < axes.size(); ++i)
      if (((axes[i].asInt() % rank) + rank) % rank == want)
        return i < a[0].asList().size() ? a[0].asList()[i] : a[4];
    return a[4];
  });
  add("isUniqueIntList", isUniqueIntList);
  add("pick", pick);
}

}  // namespace

void addSpec21Builtins(Scope& s) {
  const AddBuiltin add = [&](std::string name, std::function<Value(std::span<const Value>)> fn) {
    s.set(name, Value::function(name, [fn](std::span<const Value> a, const Scope&) { return fn(a); }));
  };
  addArithmetic(add);
  addShapeBuiltins(add);
  addListBuiltins(add);
}

}  // namespace wgk::expr

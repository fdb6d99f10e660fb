// The general builtins: has, min, max, floor, ceil, pow2ceil, ceilDiv, range, len/length, abs,
// int, float, str, round. Shape and dtype builtins are in builtins_shape.cpp.
#include <cmath>

#include <fmt/format.h>

#include "expr/support.h"

namespace wgk::expr {

void checkArity(std::string_view fn, std::span<const Value> args, size_t min, size_t max) {
  if (args.size() >= min && args.size() <= max) return;
  std::string expected = min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
  fail(fmt::format("{}() takes {} argument{}, got {}", fn, expected, max == 1 ? "" : "s", args.size()));
}

namespace {

// Python's math.floor/ceil: an int for finite input.
Value roundToInt(std::string_view fn, const Value& v, double (*op)(double)) {
  if (v.isInt()) return v;
  double d = op(v.asNumber());
  if (!std::isfinite(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
    fail(fmt::format("{}(): cannot convert {} to an integer", fn, v.repr()));
  return static_cast<int64_t>(d);
}

Value minMax(std::string_view fn, std::span<const Value> args, bool wantMin) {
  if (args.empty()) fail(fmt::format("{}() takes a list or at least 2 arguments, got none", fn));
  std::span<const Value> items = args;
  if (args.size() == 1) {
    if (!args[0].isList())
      fail(fmt::format("{}() of one argument needs a list, got {} {}", fn, args[0].kindName(),
                       args[0].repr()));
    items = args[0].asList();
    if (items.empty()) fail(fmt::format("{}() of an empty list", fn));
  }
  const Value* best = &items[0];
  for (const auto& v : items.subspan(1))
    if (wantMin ? lessThan(v, *best) : lessThan(*best, v)) best = &v;
  return *best;
}

Value range(std::span<const Value> args) {
  checkArity("range", args, 1, 3);
  int64_t start = 0, stop, step = 1;
  if (args.size() == 1) {
    stop = args[0].asInt();
  } else {
    start = args[0].asInt();
    stop = args[1].asInt();
    if (args.size() == 3) step = args[2].asInt();
  }
  if (step == 0) fail("range() step must not be zero");
  // Count without overflow: (stop - start) may not fit in int64.
  __int128 span = static_cast<__int128>(stop) - start;
  __int128 count = 0;
  if (step > 0 && span > 0) count = (span + step - 1) / step;
  if (step < 0 && span < 0)
    count = (-span + (-static_cast<__int128>(step)) - 1) / -static_cast<__int128>(step);
  if (count > kMaxRangeLength)
    fail(fmt::format("range({}, {}, {}) would have {} elements; the limit is {}", start, stop, step,
                     static_cast<int64_t>(count), kMaxRangeLength));
  chargeWork(static_cast<size_t>(count) * sizeof(Value), "range");
  List out;
  out.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) out.emplace_back(start + i * step);
  return out;
}

Value length(std::span<const Value> args) {
  checkArity("len", args, 1, 1);
  return applyFilter("length", args[0], {});
}

// Python's round(): half to even; an int without ndigits, a float with.
Value pyRound(std::span<const Value> args) {
  checkArity("round", args, 1, 2);
  if (args.size() == 1) {
    if (args[0].isInt()) return args[0];
    return roundToInt("round", Value(std::nearbyint(args[0].asNumber())), [](double d) { return d; });
  }
  double scale = std::pow(10.0, static_cast<double>(args[1].asInt()));
  return std::nearbyint(args[0].asNumber() * scale) / scale;
}

Value pow2ceil(std::span<const Value> args) {
  checkArity("pow2ceil", args, 1, 1);
  double x = args[0].asNumber();
  if (std::isnan(x)) fail("pow2ceil(): argument is nan");
  if (x <= 1) return int64_t{1};
  if (x > 4611686018427387904.0)
    fail(fmt::format("pow2ceil({}) does not fit in a 64-bit integer", args[0].repr()));
  int64_t p = 1;
  while (static_cast<double>(p) < x) p <<= 1;
  return p;
}

Value ceilDiv(std::span<const Value> args) {
  checkArity("ceilDiv", args, 2, 2);
  int64_t a = args[0].asInt(), b = args[1].asInt();
  if (b == 0) fail(fmt::format("ceilDiv({}, 0): division by zero", a));
  // ceil(a / b) == -((-a) // b) with floor division; computed without overflow via q/r.
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r > 0) == (b > 0))) q += 1;
  return q;
}

Value has(std::span<const Value> args) {
  checkArity("has", args, 2, 2);
  Value out;
  if (!callMethod(args[0], "has", args.subspan(1), out))
    fail(fmt::format("has() needs a map, list or string, got {} {}", args[0].kindName(), args[0].repr()));
  return out;
}

Scope* makeBuiltins() {
  auto* s = new Scope();
  auto add = [&](std::string name, std::function<Value(std::span<const Value>)> fn) {
    s->set(name, Value::function(name, [fn](std::span<const Value> a, const Scope&) { return fn(a); }));
  };
  add("has", has);
  add("min", [](std::span<const Value> a) { return minMax("min", a, true); });
  add("max", [](std::span<const Value> a) { return minMax("max", a, false); });
  add("floor", [](std::span<const Value> a) {
    checkArity("floor", a, 1, 1);
    return roundToInt("floor", a[0], std::floor);
  });
  add("ceil", [](std::span<const Value> a) {
    checkArity("ceil", a, 1, 1);
    return roundToInt("ceil", a[0], std::ceil);
  });
  add("pow2ceil", pow2ceil);
  add("ceilDiv", ceilDiv);
  add("range", range);
  add("len", length);
  add("length", length);
  add("abs", [](std::span<const Value> a) {
    checkArity("abs", a, 1, 1);
    return applyFilter("abs", a[0], {});
  });
  add("int", [](std::span<const Value> a) {
    checkArity("int", a, 1, 1);
    return applyFilter("int", a[0], {});
  });
  add("float", [](std::span<const Value> a) {
    checkArity("float", a, 1, 1);
    return applyFilter("float", a[0], {});
  });
  add("str", [](std::span<const Value> a) {
    checkArity("str", a, 1, 1);
    return Value(a[0].str());
  });
  add("round", pyRound);
  addShapeBuiltins(*s);
  addSpec21Builtins(*s);
  return s;
}

}  // namespace

const Scope& builtins() {
  static const Scope* scope = makeBuiltins();  // immutable after construction; never freed
  return *scope;
}

}  // namespace wgk::expr

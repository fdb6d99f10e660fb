// Shape and dtype builtins of SPEC.md §4: dim, numel, outer, inner, sameShape, broadcastable,
// f16Ok, onnxDtypeCode, dtypeBytes (and rank).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/shape_text.h"
#include "expr/support.h"

namespace wgk::expr {

Shape toShape(const Value& v, std::string_view what) {
  if (!v.isList())
    fail(fmt::format("{}: expected a shape (list of integers), got {} {}", what, v.kindName(), v.repr()));
  Shape s;
  s.reserve(v.asList().size());
  for (const auto& d : v.asList()) {
    if (!d.isNumber())
      fail(fmt::format("{}: shape {} holds a {}, not an integer", what, v.repr(), d.kindName()));
    int64_t i = d.asInt();
    if (i < 0) fail(fmt::format("{}: shape {} has a negative dimension", what, v.repr()));
    s.push_back(i);
  }
  return s;
}

int64_t shapeProduct(const Shape& s, size_t from, size_t to, std::string_view fn) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i)
    if (__builtin_mul_overflow(p, s[i], &p))
      fail(fmt::format("{}(): product of {} overflows", fn, shapeText(s)));
  return p;
}

namespace {

// An axis for outer/inner: negative counts from the end; 0..rank inclusive (rank means "past the end").
size_t axisOf(std::string_view fn, const Shape& s, const Value& axisValue) {
  int64_t rank = static_cast<int64_t>(s.size());
  int64_t axis = axisValue.asInt();
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a > rank)
    fail(fmt::format("{}(): axis {} out of range for shape {} (rank {})", fn, axis, shapeText(s), rank));
  return static_cast<size_t>(a);
}

Value dim(std::span<const Value> args) {
  checkArity("dim", args, 2, 2);
  Shape s = toShape(args[0], "dim()");
  int64_t rank = static_cast<int64_t>(s.size());
  int64_t i = args[1].asInt();
  int64_t j = i < 0 ? i + rank : i;
  if (j < 0 || j >= rank)
    fail(fmt::format("dim(): index {} out of range for shape {} (rank {})", i, shapeText(s), rank));
  return s[j];
}

bool isF16Name(std::string_view t) {
  return t == "f16" || t == "float16" || t.find("<f16>") != std::string_view::npos;
}

Value f16Ok(std::span<const Value> args, const Scope& scope) {
  checkArity("f16Ok", args, 1, 1);
  const std::string& t = args[0].asString();
  if (!isF16Name(t)) return true;
  const Value* device = scope.lookup("device");
  if (!device) fail("f16Ok() needs `device` in scope (a device profile)");
  const Value* features = device->find("features");
  if (!features) fail("f16Ok(): `device` has no `features`");
  if (!features->isList() && !features->isMap())
    fail(fmt::format("f16Ok(): `device.features` is {}, not a list", features->kindName()));
  Value key("shader-f16"), found;
  callMethod(*features, "has", std::span<const Value>(&key, 1), found);
  return found;
}

// Bytes of one element on the device: dtype names (float16; int8, uint8, int16 and bool take a
// 4-byte word, as the Hub's storage ABI has it) and WGSL types (f16, vec4<f32>, vec2<u32>).
int64_t elementBytes(std::string_view t) {
  if (auto d = dtypeFromName(t)) return static_cast<int64_t>(storageBytes(*d));
  if (t == "f16") return 2;
  if (t == "f32" || t == "i32" || t == "u32") return 4;
  if (t.size() == 9 && t.starts_with("vec") && t[4] == '<' && t.back() == '>' && t[3] >= '2' && t[3] <= '4')
    return (t[3] - '0') * elementBytes(t.substr(5, 3));
  fail(fmt::format(
      "dtypeBytes(): unknown type '{}' (expected a dtype name like float16, or f16, f32, i32, u32, "
      "vecN<T>)",
      t));
}

Value onnxCode(std::span<const Value> args) {
  checkArity("onnxDtypeCode", args, 1, 1);
  const std::string& name = args[0].asString();
  auto d = dtypeFromName(name);
  if (!d)
    fail(fmt::format(
        "onnxDtypeCode(): unknown dtype '{}' (known: float32, float16, int32, uint32, int8, uint8, "
        "int16, int64, bool)",
        name));
  return static_cast<int64_t>(onnxDtypeCode(*d));
}

}  // namespace

void addShapeBuiltins(Scope& s) {
  auto add = [&](std::string name, std::function<Value(std::span<const Value>)> fn) {
    s.set(name, Value::function(name, [fn](std::span<const Value> a, const Scope&) { return fn(a); }));
  };
  add("dim", dim);
  add("rank", [](std::span<const Value> a) {
    checkArity("rank", a, 1, 1);
    return Value(static_cast<int64_t>(toShape(a[0], "rank()").size()));
  });
  add("numel", [](std::span<const Value> a) {
    checkArity("numel", a, 1, 1);
    Shape sh = toShape(a[0], "numel()");
    return Value(shapeProduct(sh, 0, sh.size(), "numel"));
  });
  add("outer", [](std::span<const Value> a) {
    checkArity("outer", a, 2, 2);
    Shape sh = toShape(a[0], "outer()");
    return Value(shapeProduct(sh, 0, axisOf("outer", sh, a[1]), "outer"));
  });
  add("inner", [](std::span<const Value> a) {
    checkArity("inner", a, 2, 2);
    Shape sh = toShape(a[0], "inner()");
    size_t axis = axisOf("inner", sh, a[1]);
    return Value(shapeProduct(sh, std::min(axis + 1, sh.size()), sh.size(), "inner"));
  });
  add("sameShape", [](std::span<const Value> a) {
    checkArity("sameShape", a, 2, 2);
    return Value(toShape(a[0], "sameShape()") == toShape(a[1], "sameShape()"));
  });
  add("broadcastable", [](std::span<const Value> a) {
    checkArity("broadcastable", a, 2, 2);
    Shape from = toShape(a[0], "broadcastable()"), to = toShape(a[1], "broadcastable()");
    if (from.size() > to.size()) return Value(false);
    size_t offset = to.size() - from.size();
    for (size_t i = 0; i < from.size(); ++i)
      if (from[i] != 1 && from[i] != to[offset + i]) return Value(false);
    return Value(true);
  });
  add("onnxDtypeCode", onnxCode);
  add("dtypeBytes", [](std::span<const Value> a) {
    checkArity("dtypeBytes", a, 1, 1);
    return Value(elementBytes(a[0].asString()));
  });
  s.set("f16Ok", Value::function("f16Ok", f16Ok));
}

}  // namespace wgk::expr

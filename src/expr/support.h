// Helpers shared by the expr layer's implementation files (not part of its public API).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "expr/budget.h"
#include "expr/scope.h"
#include "expr/value.h"
#include "wgk/dtype.h"

namespace wgk::expr {

std::string formatFloat(double d);  // Python repr of a float (value_format.cpp)

// Error(Expression) with this message (the evaluator adds "in `<expr>`").
[[noreturn]] void fail(std::string message);

// Checks a builtin's argument count: "dim() takes 2 arguments, got 3".
void checkArity(std::string_view fn, std::span<const Value> args, size_t min, size_t max);

// Python floor division/modulo and overflow-checked integer ops (operators.cpp).
Value binaryOp(std::string_view op, const Value& a, const Value& b);
bool lessThan(const Value& a, const Value& b);  // numbers or strings; throws otherwise

// Methods on values: x.has(k), m.get(k, d), m.items(), s.startswith(p), ... (methods.cpp).
// Returns false when `object` has no method `name`.
bool callMethod(const Value& object, std::string_view name, std::span<const Value> args, Value& result);

// Filters: value | name(args) (filters.cpp). Throws for an unknown filter.
Value applyFilter(std::string_view name, const Value& input, std::span<const Value> args);

// Shape helpers shared by builtins: a list of integers (int or integral float).
Shape toShape(const Value& v, std::string_view what);
// The product of s[from, to); `fn` names the builtin in the overflow error (builtins_shape.cpp).
int64_t shapeProduct(const Shape& s, size_t from, size_t to, std::string_view fn);

}  // namespace wgk::expr

namespace wgk::expr {
// Registers dim, numel, outer, inner, sameShape, broadcastable, f16Ok, onnxDtypeCode, dtypeBytes.
void addShapeBuiltins(Scope& scope);
// Registers spec 2.1's additions: pow, log2ceil, rows, prefix, suffix, fill, moveAxis,
// permuteShape, reversedAxes, broadcastShape, matmulShape, hasAxis, axisValue, isUniqueIntList, pick.
void addSpec21Builtins(Scope& scope);
}  // namespace wgk::expr

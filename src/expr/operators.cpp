// Arithmetic and comparison operators with Jinja/Python semantics: int op int stays int (except
// `/`), any float makes a float, `//` and `%` floor toward -inf (the result of `%` takes the sign
// of the divisor), integer overflow and division by zero are errors rather than wrap or inf.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "expr/budget.h"
#include "expr/support.h"
#include "wgk/error.h"

namespace wgk::expr {

void fail(std::string message) {
  throw Error(ErrorCode::Expression, std::move(message));
}

namespace {

[[noreturn]] void badOperands(std::string_view op, const Value& a, const Value& b) {
  fail(fmt::format("cannot apply '{}' to {} and {}", op, a.kindName(), b.kindName()));
}

[[noreturn]] void overflow(std::string_view op, int64_t a, int64_t b) {
  fail(fmt::format("integer overflow in {} {} {}", a, op, b));
}

int64_t intPow(int64_t base, int64_t exp) {
  int64_t result = 1;
  int64_t b = base;
  int64_t e = exp;
  while (e > 0) {
    if (e & 1) {
      if (__builtin_mul_overflow(result, b, &result)) overflow("**", base, exp);
    }
    e >>= 1;
    if (e > 0 && __builtin_mul_overflow(b, b, &b)) overflow("**", base, exp);
  }
  return result;
}

Value intOp(std::string_view op, int64_t a, int64_t b) {
  int64_t r = 0;
  if (op == "+") {
    if (__builtin_add_overflow(a, b, &r)) overflow(op, a, b);
    return r;
  }
  if (op == "-") {
    if (__builtin_sub_overflow(a, b, &r)) overflow(op, a, b);
    return r;
  }
  if (op == "*") {
    if (__builtin_mul_overflow(a, b, &r)) overflow(op, a, b);
    return r;
  }
  if (op == "/") {
    if (b == 0) fail("division by zero");
    return static_cast<double>(a) / static_cast<double>(b);
  }
  if (op == "//" || op == "%") {
    if (b == 0) fail(op == "%" ? "modulo by zero (division by zero)" : "division by zero");
    if (a == std::numeric_limits<int64_t>::min() && b == -1) {
      if (op == "%") return int64_t{0};
      overflow(op, a, b);
    }
    int64_t q = a / b, m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) {
      q -= 1;
      m += b;
    }
    return op == "//" ? q : m;
  }
  if (op == "**") {
    if (b < 0) return std::pow(static_cast<double>(a), static_cast<double>(b));
    return intPow(a, b);
  }
  fail(fmt::format("unknown operator '{}'", op));
}

Value floatOp(std::string_view op, double a, double b) {
  if (op == "+") return a + b;
  if (op == "-") return a - b;
  if (op == "*") return a * b;
  if (op == "/") {
    if (b == 0) fail("division by zero");
    return a / b;
  }
  if (op == "//") {
    if (b == 0) fail("division by zero");
    return std::floor(a / b);
  }
  if (op == "%") {
    if (b == 0) fail("modulo by zero (division by zero)");
    double m = std::fmod(a, b);
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
    return m;
  }
  if (op == "**") {
    if (a == 0 && b < 0) fail("zero raised to a negative power (division by zero)");
    double r = std::pow(a, b);
    if (std::isnan(r) && !std::isnan(a) && !std::isnan(b))
      fail(fmt::format("{} ** {} has no real value", formatFloat(a), formatFloat(b)));
    return r;
  }
  fail(fmt::format("unknown operator '{}'", op));
}

}  // namespace

bool lessThan(const Value& a, const Value& b) {
  if (a.isInt() && b.isInt()) return a.asInt() < b.asInt();
  if (a.isNumber() && b.isNumber()) return a.asNumber() < b.asNumber();
  if (a.isString() && b.isString()) return a.asString() < b.asString();
  fail(fmt::format("cannot order {} {} and {} {}", a.kindName(), a.repr(), b.kindName(), b.repr()));
}

namespace {
// Concatenation doubles sizes cheaply (`{% set s = s ~ s %}`); cap it before memory runs out, and
// charge it to the work budget (a loop of small concatenations adds up too).
void checkConcatSize(size_t size) {
  chargeResult(size, "concatenation");
}
}  // namespace

Value binaryOp(std::string_view op, const Value& a, const Value& b) {
  if (op == "==") return a == b;
  if (op == "!=") return !(a == b);
  if (op == "<") return lessThan(a, b);
  if (op == ">") return lessThan(b, a);
  if (op == "<=") return !lessThan(b, a);
  if (op == ">=") return !lessThan(a, b);
  if (op == "~") {
    std::string ta, tb;  // text of non-strings; strings are used in place
    const std::string& as = a.isString() ? a.asString() : (ta = a.str());
    const std::string& bs = b.isString() ? b.asString() : (tb = b.str());
    checkConcatSize(as.size() + bs.size());
    std::string out;
    out.reserve(as.size() + bs.size());
    return out.append(as).append(bs);
  }
  if (op == "in" || op == "not in") {
    bool found = false;
    if (b.isList()) {
      for (const auto& item : b.asList())
        if (item == a) found = true;
    } else if (b.isMap()) {
      if (!a.isString()) badOperands(op, a, b);
      found = b.find(a.asString()) != nullptr;
    } else if (b.isString()) {
      if (!a.isString()) badOperands(op, a, b);
      found = b.asString().find(a.asString()) != std::string::npos;
    } else {
      badOperands(op, a, b);
    }
    return op == "in" ? found : !found;
  }
  if (op == "+" && a.isString() && b.isString()) {
    checkConcatSize(a.asString().size() + b.asString().size());
    return a.asString() + b.asString();
  }
  if (op == "+" && a.isList() && b.isList()) {
    checkConcatSize((a.asList().size() + b.asList().size()) * sizeof(Value));
    List out = a.asList();
    out.insert(out.end(), b.asList().begin(), b.asList().end());
    return out;
  }
  if (!a.isNumber() || !b.isNumber()) badOperands(op, a, b);
  if (a.isInt() && b.isInt()) return intOp(op, a.asInt(), b.asInt());
  return floatOp(op, a.asNumber(), b.asNumber());
}

}  // namespace wgk::expr

// Python-like text for values: repr ('f16', [1, 2.0], {'a': 1}) and str (f16). Floats use the
// shortest text that round-trips, laid out the way Python's repr does: positional for exponents
// -4..15 with ".0" when integral, otherwise d.ddde±XX; inf, -inf, nan. Booleans and none print as
// the expression language writes them (true, false, none) because templates emit WGSL, where
// `true`/`false` are the literals.
#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "expr/value.h"

namespace wgk::expr {

std::string formatFloat(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, r.ptr);  // "-1.2345e+02": shortest round-trip digits
  bool negative = sci[0] == '-';
  size_t ePos = sci.find('e');
  std::string mantissa = sci.substr(negative ? 1 : 0, ePos - (negative ? 1 : 0));
  int exponent = std::stoi(sci.substr(ePos + 1));
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    int pointAt = exponent + 1;  // digits before the decimal point
    if (pointAt <= 0) {
      out += "0." + std::string(-pointAt, '0') + digits;
    } else if (pointAt >= static_cast<int>(digits.size())) {
      out += digits + std::string(pointAt - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, pointAt) + "." + digits.substr(pointAt);
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  out += fmt::format("e{}{:02d}", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out;
}

namespace {
std::string quote(const std::string& s) {
  // Python picks single quotes unless the text holds one and no double quote.
  char q = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c == q) out += '\\';
        out += c;
    }
  }
  return out + q;
}
}  // namespace

std::string Value::repr() const {
  switch (kind()) {
    case Kind::None:
      return "none";
    case Kind::Bool:
      return std::get<bool>(v_) ? "true" : "false";
    case Kind::Int:
      return std::to_string(std::get<int64_t>(v_));
    case Kind::Float:
      return formatFloat(std::get<double>(v_));
    case Kind::String:
      return quote(std::get<std::string>(v_));
    case Kind::List: {
      std::string out = "[";
      bool first = true;
      for (const auto& item : asList()) {
        if (!first) out += ", ";
        first = false;
        out += item.repr();
      }
      return out + "]";
    }
    case Kind::Map: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, item] : asMap()) {
        if (!first) out += ", ";
        first = false;
        out += quote(k) + ": " + item.repr();
      }
      return out + "}";
    }
    case Kind::Function:
      return "<function " + asFunction().name + ">";
  }
  return "";
}

std::string Value::str() const {
  if (isString()) return std::get<std::string>(v_);
  return repr();
}

}  // namespace wgk::expr

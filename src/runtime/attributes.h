// Attribute values between the public API (wgk::Attribute), the expression language
// (expr::Value) and the command line (NAME=VALUE, VALUE read as JSON, else as a string).
#pragma once

#include <map>
#include <string>

#include "expr/value.h"
#include "wgk/runtime.h"

namespace wgk::runtime {

expr::Value toValue(const Attribute& a);
std::map<std::string, expr::Value> toValues(const std::map<std::string, Attribute>& attrs);
// "NAME=VALUE" -> (NAME, value). Error(InvalidArgument) naming the text when there is no '='.
std::pair<std::string, Attribute> parseAttributeAssignment(const std::string& text);
Attribute parseAttributeValue(const std::string& text);
// An expression value (test.json / bench.json attrs) as an attribute; Error(InvalidArgument) for
// values no attribute can hold (none, maps, nested lists).
Attribute fromValue(const expr::Value& v);
std::map<std::string, Attribute> fromValues(const std::map<std::string, expr::Value>& values);

}  // namespace wgk::runtime

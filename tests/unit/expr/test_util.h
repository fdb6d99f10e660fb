// Helpers for the expression tests: evaluate a string in a scope, and expect a wgk::Error.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "expr/expression.h"
#include "support/expect_error.h"
#include "wgk/error.h"

namespace wgk::expr::testing {

inline Value eval(std::string_view src, const Scope& scope) {
  return Expression::parse(src).evaluate(scope);
}

inline Value eval(std::string_view src) {
  Scope s(&builtins());
  return eval(src, s);
}

using test_support::expectError;

inline void expectEvalError(std::string_view src, std::initializer_list<std::string_view> fragments) {
  expectError([&] { eval(src); }, ErrorCode::Expression, fragments);
}

inline void expectParseError(std::string_view src, std::initializer_list<std::string_view> fragments) {
  expectError([&] { Expression::parse(src); }, ErrorCode::Parse, fragments);
}

}  // namespace wgk::expr::testing

// Helpers for the expression tests: evaluate a string in a scope, and expect a wgk::Error.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "expr/expression.h"
#include "wgk/error.h"

namespace wgk::expr::testing {

inline Value eval(std::string_view src, const Scope& scope) {
  return Expression::parse(src).evaluate(scope);
}

inline Value eval(std::string_view src) {
  Scope s(&builtins());
  return eval(src, s);
}

// Runs fn, expects an Error with `code` whose what() contains every fragment.
template <class Fn>
void expectError(Fn&& fn, ErrorCode code, std::initializer_list<std::string_view> fragments) {
  try {
    fn();
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(errorCodeName(e.code()), errorCodeName(code)) << e.what();
    for (auto f : fragments)
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << "missing '" << f << "' in: " << e.what();
  }
}

inline void expectEvalError(std::string_view src, std::initializer_list<std::string_view> fragments) {
  expectError([&] { eval(src); }, ErrorCode::Expression, fragments);
}

inline void expectParseError(std::string_view src, std::initializer_list<std::string_view> fragments) {
  expectError([&] { Expression::parse(src); }, ErrorCode::Parse, fragments);
}

}  // namespace wgk::expr::testing

// Recursive-descent parser of the expression language (Jinja expression syntax).
#pragma once

#include <string_view>

#include "expr/node.h"

namespace wgk::expr {

// Nesting limits: deeper input is an Error(Parse), never a stack overflow.
inline constexpr int kMaxParseDepth = 256;   // nested parentheses/brackets/unary operators
inline constexpr int kMaxTreeHeight = 1024;  // long operator chains (1+1+1+...)

NodePtr parseExpression(std::string_view source);

}  // namespace wgk::expr

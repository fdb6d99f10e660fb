// Tokens of the expression language. The lexer is also used by the template parser to split
// statement tags ("for k, v in m.items()") into their parts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wgk::expr {

enum class TokenKind { Int, Float, String, Name, Op, End };

struct Token {
  TokenKind kind;
  std::string text;  // the name, the operator, or the decoded string literal / number text
  int column;        // 0-based offset in the source
};

// Throws Error(Parse) "cannot parse `<source>` at column N: <what>" on a bad character, an
// unterminated string or a malformed number.
std::vector<Token> tokenize(std::string_view source);

// The parse error every expr/templates parser throws.
[[noreturn]] void throwParseError(std::string_view source, int column, std::string_view what);

}  // namespace wgk::expr

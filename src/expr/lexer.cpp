#include "expr/lexer.h"

#include <cctype>

#include <fmt/format.h>

#include "wgk/error.h"

namespace wgk::expr {

void throwParseError(std::string_view source, int column, std::string_view what) {
  throw Error(ErrorCode::Parse, fmt::format("cannot parse `{}` at column {}: {}", source, column, what));
}

namespace {

bool isNameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

// Longest operators first so "//" wins over "/" and "**" over "*".
constexpr std::string_view kOperators[] = {"//", "**", "==", "!=", "<=", ">=", "+", "-", "*",
                                           "/",  "%",  "~",  "<",  ">",  "(",  ")", "[", "]",
                                           ",",  ".",  ":",  "|",  "{",  "}",  "="};

Token lexNumber(std::string_view src, size_t& i) {
  size_t start = i;
  bool isFloat = false;
  while (i < src.size() && (isDigit(src[i]) || src[i] == '_')) ++i;
  if (i + 1 < src.size() && src[i] == '.' && isDigit(src[i + 1])) {
    isFloat = true;
    ++i;
    while (i < src.size() && (isDigit(src[i]) || src[i] == '_')) ++i;
  }
  if (i < src.size() && (src[i] == 'e' || src[i] == 'E')) {
    size_t j = i + 1;
    if (j < src.size() && (src[j] == '+' || src[j] == '-')) ++j;
    if (j < src.size() && isDigit(src[j])) {
      isFloat = true;
      i = j;
      while (i < src.size() && isDigit(src[i])) ++i;
    } else {
      throwParseError(src, static_cast<int>(i), "malformed exponent in number");
    }
  }
  if (i < src.size() && isNameStart(src[i])) {
    throwParseError(src, static_cast<int>(i), fmt::format("unexpected '{}' after number", src[i]));
  }
  std::string text;
  for (size_t k = start; k < i; ++k)
    if (src[k] != '_') text += src[k];
  return {isFloat ? TokenKind::Float : TokenKind::Int, text, static_cast<int>(start)};
}

Token lexString(std::string_view src, size_t& i) {
  size_t start = i;
  char quote = src[i++];
  std::string text;
  while (i < src.size() && src[i] != quote) {
    char c = src[i++];
    if (c != '\\') {
      text += c;
      continue;
    }
    if (i >= src.size()) break;
    char e = src[i++];
    switch (e) {
      case 'n':
        text += '\n';
        break;
      case 't':
        text += '\t';
        break;
      case 'r':
        text += '\r';
        break;
      case '0':
        text += '\0';
        break;
      case '\\':
      case '\'':
      case '"':
        text += e;
        break;
      default:
        text += '\\';
        text += e;
        break;  // unknown escapes stay as written, like Python
    }
  }
  if (i >= src.size()) throwParseError(src, static_cast<int>(start), "unterminated string literal");
  ++i;  // closing quote
  return {TokenKind::String, std::move(text), static_cast<int>(start)};
}

}  // namespace

std::vector<Token> tokenize(std::string_view src) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < src.size()) {
    char c = src[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (isDigit(c) || (c == '.' && i + 1 < src.size() && isDigit(src[i + 1]))) {
      if (c == '.') throwParseError(src, static_cast<int>(i), "a number must start with a digit");
      out.push_back(lexNumber(src, i));
    } else if (isNameStart(c)) {
      size_t start = i;
      while (i < src.size() && isNameChar(src[i])) ++i;
      out.push_back({TokenKind::Name, std::string(src.substr(start, i - start)), static_cast<int>(start)});
    } else if (c == '"' || c == '\'') {
      out.push_back(lexString(src, i));
    } else {
      bool matched = false;
      for (std::string_view op : kOperators) {
        if (src.substr(i, op.size()) == op) {
          out.push_back({TokenKind::Op, std::string(op), static_cast<int>(i)});
          i += op.size();
          matched = true;
          break;
        }
      }
      if (!matched) throwParseError(src, static_cast<int>(i), fmt::format("unexpected character '{}'", c));
    }
  }
  out.push_back({TokenKind::End, "", static_cast<int>(src.size())});
  return out;
}

}  // namespace wgk::expr

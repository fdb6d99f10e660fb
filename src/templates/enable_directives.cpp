// Adds the `enable` directives WGSL needs for what the code uses. The scan skips comments
// (WGSL block comments nest) and looks at whole tokens, so `myf16var` or a commented-out
// `subgroupAdd` does not count. Prepending keeps the module valid: directives may appear in any
// order among themselves, and all of them come before the first declaration.
#include <cctype>
#include <set>
#include <string>

#include "templates/template.h"

namespace wgk::templates {
namespace {

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

const std::set<std::string, std::less<>>& subgroupNames() {
  static const std::set<std::string, std::less<>> names = {"subgroupAdd",
                                                           "subgroupExclusiveAdd",
                                                           "subgroupInclusiveAdd",
                                                           "subgroupMul",
                                                           "subgroupExclusiveMul",
                                                           "subgroupInclusiveMul",
                                                           "subgroupMin",
                                                           "subgroupMax",
                                                           "subgroupAnd",
                                                           "subgroupOr",
                                                           "subgroupXor",
                                                           "subgroupBroadcast",
                                                           "subgroupBroadcastFirst",
                                                           "subgroupShuffle",
                                                           "subgroupShuffleUp",
                                                           "subgroupShuffleDown",
                                                           "subgroupShuffleXor",
                                                           "subgroupBallot",
                                                           "subgroupElect",
                                                           "subgroupAll",
                                                           "subgroupAny",
                                                           "quadBroadcast",
                                                           "quadSwapX",
                                                           "quadSwapY",
                                                           "quadSwapDiagonal",
                                                           "subgroup_invocation_id",
                                                           "subgroup_size",
                                                           "subgroup_id"};
  return names;
}

// f16 as a type, or one of the predeclared f16 aliases (vec4h, mat2x2h).
bool isF16Type(std::string_view id) {
  if (id == "f16") return true;
  if (id.size() == 5 && id.starts_with("vec") && id[3] >= '2' && id[3] <= '4' && id[4] == 'h') return true;
  return id.size() == 7 && id.starts_with("mat") && id[3] >= '2' && id[3] <= '4' && id[4] == 'x' &&
         id[5] >= '2' && id[5] <= '4' && id[6] == 'h';
}

struct Usage {
  bool usesF16 = false, usesSubgroups = false, enablesF16 = false, enablesSubgroups = false;
};

size_t skipComment(std::string_view s, size_t i) {
  if (s.substr(i, 2) == "//") {
    size_t nl = s.find('\n', i);
    return nl == std::string_view::npos ? s.size() : nl;
  }
  int depth = 0;  // block comments nest in WGSL
  while (i < s.size()) {
    if (s.substr(i, 2) == "/*") {
      ++depth;
      i += 2;
    } else if (s.substr(i, 2) == "*/") {
      i += 2;
      if (--depth == 0) return i;
    } else {
      ++i;
    }
  }
  return i;
}

// Consumes a numeric literal; returns true when it carries the f16 suffix `h`.
bool numberIsF16(std::string_view s, size_t& i) {
  bool hex = s.substr(i, 2) == "0x" || s.substr(i, 2) == "0X";
  if (hex) i += 2;
  char expChar = hex ? 'p' : 'e';
  while (i < s.size()) {
    char c = s[i];
    char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == expChar && i + 1 < s.size() && (s[i + 1] == '+' || s[i + 1] == '-')) {
      i += 2;
    } else if (isDigit(c) || c == '.' || (hex && std::isxdigit(static_cast<unsigned char>(c))) ||
               lower == expChar) {
      ++i;
    } else {
      break;
    }
  }
  bool f16 = i < s.size() && s[i] == 'h';
  while (i < s.size() && isIdentChar(s[i])) ++i;  // suffix (f, h, i, u)
  return f16;
}

Usage scan(std::string_view s) {
  Usage u;
  bool inEnable = false, inDirective = false;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) {
      i = skipComment(s, i);
    } else if (isIdentStart(c)) {
      size_t start = i;
      while (i < s.size() && isIdentChar(s[i])) ++i;
      std::string_view id = s.substr(start, i - start);
      if (inEnable) {
        if (id == "f16") u.enablesF16 = true;
        if (id == "subgroups") u.enablesSubgroups = true;
      } else if (inDirective) {
        // `requires subgroup_id;` names a language feature, not a use
      } else if (id == "enable") {
        inEnable = true;
      } else if (id == "requires" || id == "diagnostic") {
        inDirective = true;
      } else if (isF16Type(id)) {
        u.usesF16 = true;
      } else if (subgroupNames().count(id)) {
        u.usesSubgroups = true;
      }
    } else if (isDigit(c) || (c == '.' && i + 1 < s.size() && isDigit(s[i + 1]))) {
      if (numberIsF16(s, i)) u.usesF16 = true;
    } else {
      if (c == ';') inEnable = inDirective = false;
      ++i;
    }
  }
  return u;
}

}  // namespace

std::string addEnableDirectives(std::string_view wgsl) {
  Usage u = scan(wgsl);
  std::string prefix;
  if (u.usesF16 && !u.enablesF16) prefix += "enable f16;\n";
  if (u.usesSubgroups && !u.enablesSubgroups) prefix += "enable subgroups;\n";
  return prefix + std::string(wgsl);
}

}  // namespace wgk::templates

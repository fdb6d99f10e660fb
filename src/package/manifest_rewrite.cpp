#include "package/manifest_rewrite.h"

#include <cctype>
#include <vector>

#include "expr/lexer.h"
#include "wgk/error.h"

namespace wgk::package::rewrite {

namespace {

bool isDot(const expr::Token& t) {
  return t.kind == expr::TokenKind::Op && t.text == ".";
}

// For template statements the expression lexer cannot read whole ("set X = a.b", "for k, v in m"):
// bare names renamed by pattern, outside string literals.
std::string renameBareByPattern(const std::string& text, const Renames& r) {
  std::string out;
  char quote = 0;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (quote) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == quote)
        quote = 0;
      ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      out += c;
      ++i;
      continue;
    }
    const bool startsName = (std::isalpha(static_cast<unsigned char>(c)) || c == '_') &&
                            (i == 0 || (!std::isalnum(static_cast<unsigned char>(text[i - 1])) &&
                                        text[i - 1] != '_' && text[i - 1] != '.'));
    if (!startsName) {
      out += c;
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
    const std::string name = text.substr(i, j - i);
    auto it = r.bare.find(name);
    out += it == r.bare.end() ? name : it->second;
    i = j;
  }
  return out;
}

}  // namespace

std::string renameInExpression(const std::string& source, const Renames& r) {
  if (r.empty()) return source;
  const std::vector<expr::Token> toks = expr::tokenize(source);
  struct Edit {
    size_t at, len;
    std::string text;
  };
  std::vector<Edit> edits;
  for (size_t i = 0; i < toks.size(); ++i) {
    const expr::Token& t = toks[i];
    if (t.kind != expr::TokenKind::Name) continue;
    const bool afterDot = i > 0 && isDot(toks[i - 1]);
    if (!afterDot) {
      if (auto it = r.bare.find(t.text); it != r.bare.end())
        edits.push_back({static_cast<size_t>(t.column), t.text.size(), it->second});
      continue;
    }
    // `ns.member` where ns is itself a bare name.
    if (i < 2 || toks[i - 2].kind != expr::TokenKind::Name || (i >= 3 && isDot(toks[i - 3]))) continue;
    auto ns = r.member.find(toks[i - 2].text);
    if (ns == r.member.end()) continue;
    if (auto it = ns->second.find(t.text); it != ns->second.end())
      edits.push_back({static_cast<size_t>(t.column), t.text.size(), it->second});
  }
  std::string out = source;
  for (auto e = edits.rbegin(); e != edits.rend(); ++e) {
    if (out.compare(e->at, e->len, source, e->at, e->len) != 0)
      throw Error(ErrorCode::Internal, "token columns do not match the source of `" + source + "`");
    out.replace(e->at, e->len, e->text);
  }
  return out;
}

std::string renameInTemplate(const std::string& text, const Renames& r) {
  if (r.empty()) return text;
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t open = text.find('{', pos);
    if (open == std::string::npos || open + 1 >= text.size()) break;
    const char kind = text[open + 1];
    if (kind != '{' && kind != '%') {
      out.append(text, pos, open + 1 - pos);
      pos = open + 1;
      continue;
    }
    const std::string close = kind == '{' ? "}}" : "%}";
    size_t end = text.find(close, open + 2);
    if (end == std::string::npos) break;
    size_t innerStart = open + 2, innerEnd = end;
    if (innerStart < innerEnd && (text[innerStart] == '-' || text[innerStart] == '+')) ++innerStart;
    if (innerEnd > innerStart && (text[innerEnd - 1] == '-' || text[innerEnd - 1] == '+')) --innerEnd;
    out.append(text, pos, innerStart - pos);
    const std::string inner = text.substr(innerStart, innerEnd - innerStart);
    try {
      out += renameInExpression(inner, r);
    } catch (const Error&) {
      out += renameBareByPattern(inner, r);  // a statement the expression lexer does not read whole
    }
    out.append(text, innerEnd, end + 2 - innerEnd);
    pos = end + 2;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

Json jsonOf(const expr::Value& v) {
  return Json::parse(v.toJson().dump());
}

void unsupportedIn(const std::string& dialect, const std::string& what, const std::string& path) {
  throw Error(ErrorCode::Unsupported,
              what + (path.empty() ? "" : " (at " + path + ")") + " has no equivalent in " + dialect);
}

}  // namespace wgk::package::rewrite

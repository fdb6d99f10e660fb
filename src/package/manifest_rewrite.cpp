#include "package/manifest_rewrite.h"

#include <vector>

#include "expr/lexer.h"
#include "wgk/error.h"

namespace wgk::package::rewrite {

namespace {

bool isDot(const expr::Token& t) {
  return t.kind == expr::TokenKind::Op && t.text == ".";
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
      out += inner;  // not lexable as an expression (e.g. raw text): kept as written
    }
    out.append(text, innerEnd, end + 2 - innerEnd);
    pos = end + 2;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

}  // namespace wgk::package::rewrite

// Why a variant is not eligible: a false clause's first false conjunct, followed through derived
// names to the innermost condition, with the values it read.
#include <cctype>

#include "expr/expression.h"
#include "plan/plan_explain.h"
#include "wgk/error.h"

namespace wgk::plan::detail {

std::string namesAndValues(const expr::Expression& e, const expr::Scope& scope, const RequestScope& rs) {
  std::string out;
  for (const auto& name : e.referencedNames()) {
    const expr::Value* v = expr::lookupPath(scope, name);
    std::string item;
    if (v && !v->isFunction())
      item = name + "=" + shortRepr(*v);
    else if (!v && rs.deriveErrors.count(name))
      item = name + " unavailable (" + rs.deriveErrors.at(name) + ")";
    if (!item.empty()) out += (out.empty() ? "" : ", ") + item;
  }
  return out;
}

namespace {

// The top-level conjuncts of an expression's text: "a and (b or c) and d" -> {a, (b or c), d}.
// Only a pure `and` chain is split (an `or`, `if` or `else` at depth 0 binds looser than `and`,
// so splitting there would change the meaning); otherwise the whole text is the one conjunct.
std::vector<std::string> topLevelConjuncts(const std::string& src) {
  std::vector<std::string> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    const char ch = src[i];
    if (quote) {
      if (ch == '\\')
        ++i;
      else if (ch == quote)
        quote = 0;
      continue;
    }
    if (ch == '"' || ch == '\'')
      quote = ch;
    else if (ch == '(' || ch == '[' || ch == '{')
      ++depth;
    else if (ch == ')' || ch == ']' || ch == '}')
      --depth;
    if (depth != 0 || !(std::isalpha(static_cast<unsigned char>(ch)) || ch == '_')) continue;
    if (i > 0 &&
        (std::isalnum(static_cast<unsigned char>(src[i - 1])) || src[i - 1] == '_' || src[i - 1] == '.'))
      continue;
    size_t j = i;
    while (j < src.size() && (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
    const std::string word = src.substr(i, j - i);
    if (word == "or" || word == "if" || word == "else") return {src};
    if (word == "and") {
      parts.push_back(src.substr(start, i - start));
      start = j;
    }
    i = j - 1;
  }
  parts.push_back(src.substr(start));
  for (auto& part : parts) {
    const size_t b = part.find_first_not_of(" \t\n"), e = part.find_last_not_of(" \t\n");
    part = b == std::string::npos ? std::string() : part.substr(b, e - b + 1);
  }
  return parts;
}

// Why a false boolean expression is false: its first false top-level conjunct with the values it
// read. A conjunct that is just a derived name is followed into its definition (a few levels),
// so the message reaches the clause of the contract that failed, e.g. "via lastAxisOk -> baseOk
// -> normalizationShapeOk: `broadcastable(shapes.scale, shapes.X)` is false (shapes.scale=[3], ...)".
// Empty when nothing more specific than the expression itself can be said.
std::string whyFalse(const std::string& source, const expr::Scope& scope, const RequestScope& rs,
                     const DeriveIndex& derives, std::string via, int depth) {
  for (const std::string& part : topLevelConjuncts(source)) {
    try {
      const expr::Expression e = expr::Expression::parse(part);
      const expr::Value v = e.evaluate(scope);
      if (!v.isBool() || v.asBool()) continue;
      auto d = derives.find(part);
      if (d != derives.end() && depth < 6)
        return whyFalse(d->second->source(), scope, rs, derives, via + (via.empty() ? "" : " -> ") + part,
                        depth + 1);
      if (via.empty() && part == source) return {};
      const std::string nv = namesAndValues(e, scope, rs);
      return (via.empty() ? "" : "via " + via + ": ") + "`" + part + "` is false" +
             (nv.empty() ? "" : " (" + nv + ")");
    } catch (const Error&) {
      // A part that does not evaluate on its own: say nothing rather than something wrong.
    }
  }
  return via.empty() ? std::string() : "via " + via;
}

}  // namespace

// Evaluates a clause to exactly true/false; a non-bool or an evaluation error gives `reason`.
// With `derives`, a false clause's reason also names the innermost failing conjunct (whyFalse).
std::optional<bool> evaluateClause(const package::ExprOrValue& c, const expr::Scope& scope, const RequestScope& rs,
                                   const std::string& label, std::string& reason, const DeriveIndex* derives) {
  const std::string text = c.isExpression() ? "`" + c.text() + "`" : c.text();
  expr::Value v;
  try {
    v = c.evaluate(scope);
  } catch (const Error& e) {
    reason = label + " " + text + " failed: " + e.message();
    if (c.expression())
      for (const auto& name : c.expression()->referencedNames())
        if (!expr::lookupPath(scope, name) && rs.deriveErrors.count(name))
          reason += " (" + rs.deriveErrors.at(name) + ")";
    return std::nullopt;
  }
  if (!v.isBool()) {
    reason = label + " " + text + " gave " + std::string(v.kindName()) + " " + shortRepr(v) +
             ", not true or false";
    return std::nullopt;
  }
  if (!v.asBool()) {
    reason = label + " " + text + " is false";
    if (c.expression()) {
      std::string nv = namesAndValues(*c.expression(), scope, rs);
      if (!nv.empty()) reason += " (" + nv + ")";
      if (derives) {
        const std::string why = whyFalse(c.text(), scope, rs, *derives, "", 0);
        if (!why.empty()) reason += "; " + why;
      }
    }
  }
  return v.asBool();
}


}  // namespace wgk::plan::detail

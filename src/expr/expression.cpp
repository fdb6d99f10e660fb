#include "expr/expression.h"

#include <algorithm>

#include "expr/budget.h"
#include "expr/node.h"
#include "expr/parser.h"
#include "wgk/error.h"

namespace wgk::expr {

Expression Expression::parse(std::string_view source) {
  Expression e;
  e.source_ = std::string(source);
  e.root_ = parseExpression(e.source_);
  return e;
}

Value Expression::evaluate(const Scope& scope) const {
  if (!root_) throw Error(ErrorCode::Internal, "evaluating an expression that was never parsed");
  WorkBudget budget(kMaxBuiltBytes, "expr::kMaxBuiltBytes per evaluation");  // inert inside a render or plan
  try {
    return evaluateNode(*root_, scope, source_);
  } catch (const Error& e) {
    // Messages from below name what failed; add which expression, once.
    std::string where = "`" + source_ + "`";
    if (e.code() != ErrorCode::Expression || e.message().find(where) != std::string::npos) throw;
    throw e.recoded(e.code(), e.message() + " in " + where);
  }
}

namespace {

// Dotted path of a Name/Attr chain, or empty.
std::string dotted(const Node& n) {
  if (n.kind == NodeKind::Name) return n.text;
  if (n.kind == NodeKind::Attr) {
    std::string base = dotted(*n.kids[0]);
    if (!base.empty()) return base + "." + n.text;
  }
  return {};
}

void collect(const Node& n, std::vector<std::string>& out) {
  auto add = [&](std::string path) {
    if (std::find(out.begin(), out.end(), path) == out.end()) out.push_back(std::move(path));
  };
  if (n.kind == NodeKind::Name || n.kind == NodeKind::Attr) {
    std::string path = dotted(n);
    if (!path.empty()) {
      add(std::move(path));
      return;
    }
  }
  if (n.kind == NodeKind::Call) {
    const Node& callee = *n.kids[0];
    // f(x): leave the function name out; obj.method(x): the object is what is read.
    if (callee.kind == NodeKind::Attr)
      collect(*callee.kids[0], out);
    else if (callee.kind != NodeKind::Name)
      collect(callee, out);
    for (size_t i = 1; i < n.kids.size(); ++i) collect(*n.kids[i], out);
    return;
  }
  for (const auto& k : n.kids)
    if (k) collect(*k, out);
}

void collectCalls(const Node& n, std::vector<std::string>& out) {
  if (n.kind == NodeKind::Call && n.kids[0]->kind == NodeKind::Name &&
      std::find(out.begin(), out.end(), n.kids[0]->text) == out.end())
    out.push_back(n.kids[0]->text);
  for (const auto& k : n.kids)
    if (k) collectCalls(*k, out);
}

}  // namespace

std::vector<std::string> Expression::calledFunctions() const {
  std::vector<std::string> out;
  if (root_) collectCalls(*root_, out);
  return out;
}

std::vector<std::string> Expression::referencedNames() const {
  std::vector<std::string> out;
  if (root_) collect(*root_, out);
  return out;
}

const Value* lookupPath(const Scope& scope, std::string_view dottedPath) {
  size_t dot = dottedPath.find('.');
  const Value* v = scope.lookup(dottedPath.substr(0, dot));
  while (v && dot != std::string_view::npos) {
    size_t next = dottedPath.find('.', dot + 1);
    v = v->find(
        dottedPath.substr(dot + 1, next == std::string_view::npos ? std::string_view::npos : next - dot - 1));
    dot = next;
  }
  return v;
}

}  // namespace wgk::expr

// The expression language (Jinja expression syntax, SPEC.md §4). Parse once, evaluate many times:
//
//   auto e = wgk::expr::Expression::parse("dim(shapes.X, -1) % 4 == 0");
//   wgk::expr::Scope scope(&wgk::expr::builtins());
//   scope.set("shapes", wgk::expr::Map{{"X", wgk::expr::List{2, 8}}});
//   bool ok = e.evaluate(scope).asBool();
//
// Parse errors are Error(Parse) naming the expression and the 0-based column; evaluation errors
// are Error(Expression) naming the expression, and for an unknown name, the names in scope.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "expr/scope.h"
#include "expr/value.h"

namespace wgk::expr {

struct Node;  // the parsed tree, private to the expr layer

class Expression {
 public:
  static Expression parse(std::string_view source);

  Value evaluate(const Scope& scope) const;
  const std::string& source() const { return source_; }

  // Names the expression reads, as dotted paths where access is by attribute with constant names:
  // "attrs.axis", "shapes.X", "normalizedRows", "device.limits.maxComputeWorkgroupsPerDimension".
  // Function names called (dim, min, ...) are left out. Order of first appearance, no duplicates.
  // Used by `wgk plan` to show the values behind a false `when` clause.
  std::vector<std::string> referencedNames() const;
  // Names called as functions, `f(...)` (not methods `x.f(...)`), first appearance first. A
  // manifest's expressions can call only builtins(), so a reader checks these at load: an unknown
  // function fails there, not only when (or if) the expression is evaluated.
  std::vector<std::string> calledFunctions() const;

  std::shared_ptr<const Node> root() const { return root_; }  // for the template engine

 private:
  std::string source_;
  std::shared_ptr<const Node> root_;
};

// Evaluates a dotted path ("device.limits.maxBufferSize") in scope; nullptr when any step is missing.
const Value* lookupPath(const Scope& scope, std::string_view dottedPath);

}  // namespace wgk::expr

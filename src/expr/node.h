// The parsed expression tree, private to the expr layer (and the template engine, which walks
// Expression::root() only to hand it back to evaluateNode).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "expr/value.h"

namespace wgk::expr {

enum class NodeKind {
  Literal,  // value
  Name,     // text = the name
  ListLit,  // kids = elements
  Attr,     // kids[0] = object, text = member name
  Index,    // kids[0] = object, kids[1] = index
  Slice,    // kids[0] = object, kids[1..3] = start, stop, step (nullptr when omitted)
  Call,     // kids[0] = callee, kids[1..] = arguments
  Unary,    // text = "-", "+" or "not"; kids[0] = operand
  Binary,   // text = operator ("+", "//", "==", "in", "not in", ...); kids[0], kids[1]
  And,      // kids[0] and kids[1], short-circuit, returns an operand
  Or,       // kids[0] or kids[1]
  Cond,     // kids[0] if kids[1] else kids[2] (kids[2] nullptr when there is no else)
  Filter,   // kids[0] | text(kids[1..])
  Test,     // kids[0] is [not] text(kids[1..]); negated says `is not`
};

struct Node {
  NodeKind kind;
  int column = 0;  // 0-based column in the expression source, for messages
  std::string text;
  Value value;
  bool negated = false;
  int height = 1;  // 1 + the tallest kid: bounds the evaluator's recursion
  std::vector<std::shared_ptr<const Node>> kids;
};

using NodePtr = std::shared_ptr<const Node>;

// Evaluates a node of the expression whose text is `source` (named in error messages).
Value evaluateNode(const Node& node, const Scope& scope, std::string_view source);

}  // namespace wgk::expr

// The parsed template tree (private to the templates layer).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "expr/expression.h"
#include "templates/template.h"

namespace wgk::templates {

using NodeList = std::vector<std::shared_ptr<const TemplateNode>>;

struct TemplateNode {
  enum class Kind { Text, Output, If, For, Set, Include };
  Kind kind;
  int line = 0;
  int column = 0;
  std::string text;                  // Text: the literal
  expr::Expression expr;             // Output, Set (value), For (iterable), Include (file name)
  std::vector<std::string> targets;  // For: loop variables; Set: the name
  // If: one (condition, body) per if/elif; elseBody holds the else branch (also For's else).
  std::vector<std::pair<expr::Expression, NodeList>> branches;
  NodeList body;  // For body
  NodeList elseBody;
  bool usesLoop = true;  // For: whether the body may read `loop` (else the per-iteration map is skipped)
};

// Hard cap on statically nested blocks, checked while parsing (render limits are checked again
// while rendering, with RenderLimits::maxNestingDepth).
inline constexpr int kMaxParsedNesting = 256;

NodeList parseTemplateNodes(std::string_view source, const std::string& name);

}  // namespace wgk::templates

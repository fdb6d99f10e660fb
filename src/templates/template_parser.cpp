// Builds the template tree from segments with an explicit stack of open blocks (no recursion,
// so deep nesting is an error message rather than a stack overflow).
#include <fmt/format.h>

#include "expr/lexer.h"
#include "templates/template_lexer.h"
#include "templates/template_node.h"
#include "wgk/error.h"

namespace wgk::templates {
namespace {

using Kind = TemplateNode::Kind;

struct OpenBlock {
  std::shared_ptr<TemplateNode> node;
  NodeList* current;  // where children go now (a branch body, for body or else body)
  bool sawElse = false;
  std::string keyword;  // "if" or "for", for messages
  int line, column;
};

// Conservative: any expression text containing "loop", or any include (which sees the scope).
bool mentionsLoop(const NodeList& nodes) {
  for (const auto& n : nodes) {
    if (n->kind == Kind::Include) return true;
    if (n->expr.root() && n->expr.source().find("loop") != std::string::npos) return true;
    for (const auto& [cond, body] : n->branches)
      if (cond.source().find("loop") != std::string::npos || mentionsLoop(body)) return true;
    if (mentionsLoop(n->body) || mentionsLoop(n->elseBody)) return true;
  }
  return false;
}

class TemplateParser {
 public:
  TemplateParser(std::string_view source, const std::string& name) : source_(source), name_(name) {}

  NodeList run() {
    NodeList root;
    for (const Segment& seg : splitTemplate(source_, name_)) {
      NodeList& into = stack_.empty() ? root : *stack_.back().current;
      switch (seg.kind) {
        case SegmentKind::Text: {
          auto n = std::make_shared<TemplateNode>();
          n->kind = Kind::Text;
          n->line = seg.line;
          n->text = seg.text;
          into.push_back(n);
          break;
        }
        case SegmentKind::Output: {
          auto n = std::make_shared<TemplateNode>();
          n->kind = Kind::Output;
          n->line = seg.line;
          n->column = seg.column;
          n->expr = parseExpr(seg, seg.text, 0);
          into.push_back(n);
          break;
        }
        case SegmentKind::Statement:
          statement(seg, into);
          break;
      }
    }
    if (!stack_.empty()) {
      const OpenBlock& b = stack_.back();
      fail(b.line, b.column,
           fmt::format("'{}' block is never closed (missing 'end{}')", b.keyword, b.keyword));
    }
    return root;
  }

 private:
  std::string_view source_;
  const std::string& name_;
  std::vector<OpenBlock> stack_;

  [[noreturn]] void fail(int line, int column, std::string_view what) const {
    throwTemplateParseError(name_, line, column, what);
  }

  // Parses `text` (a part of the tag starting at byte `offset` of seg.text) as an expression;
  // a failure gets the template position as context.
  expr::Expression parseExpr(const Segment& seg, std::string_view text, int offset) {
    size_t lead = text.find_first_not_of(" \t\r\n");
    if (lead != std::string_view::npos) {
      text = text.substr(lead, text.find_last_not_of(" \t\r\n") - lead + 1);
      offset += static_cast<int>(lead);
    }
    try {
      return expr::Expression::parse(text);
    } catch (Error& e) {
      e.with(fmt::format("in template {} line {} column {}", name_, seg.line, seg.column + offset));
      e.at({name_, seg.line, seg.column + offset});
      throw;
    }
  }

  void push(const Segment& seg, std::shared_ptr<TemplateNode> n, NodeList* current, std::string keyword) {
    if (static_cast<int>(stack_.size()) >= kMaxParsedNesting)
      fail(seg.line, seg.column, fmt::format("blocks nest deeper than {} levels", kMaxParsedNesting));
    stack_.push_back({std::move(n), current, false, std::move(keyword), seg.line, seg.column});
  }

  OpenBlock& top(const Segment& seg, std::string_view keyword, std::string_view expected) {
    if (stack_.empty() || (stack_.back().keyword != expected && !expected.empty()))
      fail(seg.line, seg.column,
           stack_.empty() ? fmt::format("'{}' without an open block", keyword)
                          : fmt::format("'{}' inside an open '{}' block (expected 'end{}')", keyword,
                                        stack_.back().keyword, stack_.back().keyword));
    return stack_.back();
  }

  void statement(const Segment& seg, NodeList& into) {
    std::vector<expr::Token> toks;
    try {
      toks = expr::tokenize(seg.text);
    } catch (Error& e) {
      e.with(fmt::format("in template {} line {} column {}", name_, seg.line, seg.column));
      e.at({name_, seg.line, seg.column});
      throw;
    }
    if (toks.front().kind != expr::TokenKind::Name)
      fail(seg.line, seg.column, "expected a statement keyword");
    const std::string keyword = toks.front().text;
    auto rest = [&](size_t tokenIndex) { return std::string_view(seg.text).substr(toks[tokenIndex].column); };
    auto requireNothingAfter = [&]() {
      if (toks.size() > 2)
        fail(seg.line, seg.column + toks[1].column, fmt::format("unexpected text after '{}'", keyword));
    };
    auto make = [&](Kind k) {
      auto n = std::make_shared<TemplateNode>();
      n->kind = k;
      n->line = seg.line;
      n->column = seg.column;
      return n;
    };

    if (keyword == "if") {
      auto n = make(Kind::If);
      n->branches.push_back({parseExpr(seg, rest(1), toks[1].column), {}});
      into.push_back(n);
      push(seg, n, &n->branches.back().second, "if");
    } else if (keyword == "elif") {
      OpenBlock& b = top(seg, keyword, "if");
      if (b.sawElse) fail(seg.line, seg.column, "'elif' after 'else'");
      b.node->branches.push_back({parseExpr(seg, rest(1), toks[1].column), {}});
      b.current = &b.node->branches.back().second;
    } else if (keyword == "else") {
      requireNothingAfter();
      OpenBlock& b = top(seg, keyword, "");
      if (b.sawElse) fail(seg.line, seg.column, fmt::format("second 'else' in one '{}' block", b.keyword));
      b.sawElse = true;
      b.current = &b.node->elseBody;
    } else if (keyword == "endif" || keyword == "endfor") {
      requireNothingAfter();
      OpenBlock& b = top(seg, keyword, keyword.substr(3));
      if (keyword == "endfor") b.node->usesLoop = mentionsLoop(b.node->body);
      stack_.pop_back();
    } else if (keyword == "for") {
      auto n = make(Kind::For);
      size_t i = 1;
      for (;;) {
        if (toks[i].kind != expr::TokenKind::Name || toks[i].text == "in")
          fail(seg.line, seg.column + toks[i].column, "expected a loop variable name");
        n->targets.push_back(toks[i++].text);
        if (toks[i].kind == expr::TokenKind::Op && toks[i].text == ",") {
          ++i;
          continue;
        }
        break;
      }
      if (!(toks[i].kind == expr::TokenKind::Name && toks[i].text == "in"))
        fail(seg.line, seg.column + toks[i].column, "expected 'in' after the loop variables");
      n->expr = parseExpr(seg, rest(i + 1), toks[i + 1].column);
      into.push_back(n);
      push(seg, n, &n->body, "for");
    } else if (keyword == "set") {
      if (toks.size() < 4 || toks[1].kind != expr::TokenKind::Name || toks[2].text != "=" ||
          toks[2].kind != expr::TokenKind::Op)
        fail(seg.line, seg.column, "expected `set name = expression`");
      auto n = make(Kind::Set);
      n->targets.push_back(toks[1].text);
      n->expr = parseExpr(seg, rest(3), toks[3].column);
      into.push_back(n);
    } else if (keyword == "include") {
      if (toks.size() < 3) fail(seg.line, seg.column, "expected `include \"file\"`");
      auto n = make(Kind::Include);
      n->expr = parseExpr(seg, rest(1), toks[1].column);
      into.push_back(n);
    } else {
      fail(seg.line, seg.column,
           fmt::format("unknown statement '{}' (supported: if, elif, else, endif, for, "
                       "endfor, set, include)",
                       keyword));
    }
  }
};

}  // namespace

NodeList parseTemplateNodes(std::string_view source, const std::string& name) {
  return TemplateParser(source, name).run();
}

}  // namespace wgk::templates

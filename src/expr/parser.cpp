// Grammar, loosest first (Jinja's, with `~` at the level of + and - as in @huggingface/jinja):
//   cond    := or ['if' or ['else' cond]]
//   or      := and ('or' and)*
//   and     := not ('and' not)*
//   not     := 'not' not | compare
//   compare := add (('=='|'!='|'<'|'<='|'>'|'>='|'in'|'not' 'in') add)*
//   add     := mul (('+'|'-'|'~') mul)*
//   mul     := pow (('*'|'/'|'//'|'%') pow)*
//   pow     := unary ('**' unary)*                  (left-associative, like Jinja)
//   unary   := ('-'|'+') unary | postfix, then filters `| f(args)` and tests `is [not] t(args)`
//   postfix := primary ('.' name | '[' index-or-slice ']' | '(' args ')')*
#include "expr/parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "expr/lexer.h"
#include "wgk/error.h"

namespace wgk::expr {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view source) : src_(source), toks_(tokenize(source)) {}

  NodePtr parseAll() {
    if (peek().kind == TokenKind::End) fail(peek(), "empty expression");
    NodePtr n = parseCond();
    if (peek().kind != TokenKind::End) fail(peek(), fmt::format("unexpected {}", describe(peek())));
    return n;
  }

 private:
  std::string_view src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;

  // Counts recursion through the grammar's self-references: every nested parenthesis, bracket or
  // argument goes through parseCond, and unary chains through parseUnary/parseNot.
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxParseDepth)
        p.fail(p.peek(), fmt::format("nesting deeper than {} levels", kMaxParseDepth));
    }
    ~DepthGuard() { --p.depth_; }
  };

  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  const Token& next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool isOp(std::string_view op, size_t ahead = 0) const {
    return peek(ahead).kind == TokenKind::Op && peek(ahead).text == op;
  }
  bool isWord(std::string_view w, size_t ahead = 0) const {
    return peek(ahead).kind == TokenKind::Name && peek(ahead).text == w;
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case TokenKind::End:
        return "end of expression";
      case TokenKind::String:
        return "string literal";
      default:
        return fmt::format("'{}'", t.text);
    }
  }
  [[noreturn]] void fail(const Token& t, std::string_view what) const {
    throwParseError(src_, t.column, what);
  }
  void expectOp(std::string_view op) {
    if (!isOp(op)) fail(peek(), fmt::format("expected '{}', found {}", op, describe(peek())));
    next();
  }

  NodePtr make(NodeKind kind, int column, std::vector<NodePtr> kids = {}, std::string text = {}) {
    auto n = std::make_shared<Node>();
    n->kind = kind;
    n->column = column;
    n->text = std::move(text);
    for (const auto& k : kids)
      if (k) n->height = std::max(n->height, k->height + 1);
    n->kids = std::move(kids);
    if (n->height > kMaxTreeHeight)
      throwParseError(src_, column, fmt::format("expression nests deeper than {} levels", kMaxTreeHeight));
    return n;
  }

  NodePtr parseCond() {
    DepthGuard g(*this);
    NodePtr value = parseOr();
    if (!isWord("if")) return value;
    int col = next().column;
    NodePtr cond = parseOr();
    NodePtr otherwise;
    if (isWord("else")) {
      next();
      otherwise = parseCond();
    }
    return make(NodeKind::Cond, col, {value, cond, otherwise});
  }

  NodePtr parseOr() {
    NodePtr lhs = parseAnd();
    while (isWord("or")) {
      int col = next().column;
      lhs = make(NodeKind::Or, col, {lhs, parseAnd()});
    }
    return lhs;
  }

  NodePtr parseAnd() {
    NodePtr lhs = parseNot();
    while (isWord("and")) {
      int col = next().column;
      lhs = make(NodeKind::And, col, {lhs, parseNot()});
    }
    return lhs;
  }

  NodePtr parseNot() {
    if (isWord("not") && !isWord("in", 1)) {
      DepthGuard g(*this);
      int col = next().column;
      return make(NodeKind::Unary, col, {parseNot()}, "not");
    }
    return parseCompare();
  }

  NodePtr parseCompare() {
    NodePtr lhs = parseAdd();
    for (;;) {
      std::string op;
      const Token& t = peek();
      if (t.kind == TokenKind::Op && (t.text == "==" || t.text == "!=" || t.text == "<" || t.text == "<=" ||
                                      t.text == ">" || t.text == ">=")) {
        op = t.text;
        next();
      } else if (isWord("in")) {
        op = "in";
        next();
      } else if (isWord("not") && isWord("in", 1)) {
        op = "not in";
        next();
        next();
      } else {
        return lhs;
      }
      lhs = make(NodeKind::Binary, t.column, {lhs, parseAdd()}, op);
    }
  }

  NodePtr parseAdd() {
    NodePtr lhs = parseMul();
    while (isOp("+") || isOp("-") || isOp("~")) {
      const Token& t = next();
      lhs = make(NodeKind::Binary, t.column, {lhs, parseMul()}, t.text);
    }
    return lhs;
  }

  NodePtr parseMul() {
    NodePtr lhs = parsePow();
    while (isOp("*") || isOp("/") || isOp("//") || isOp("%")) {
      const Token& t = next();
      lhs = make(NodeKind::Binary, t.column, {lhs, parsePow()}, t.text);
    }
    return lhs;
  }

  NodePtr parsePow() {
    NodePtr lhs = parseUnary(true);
    while (isOp("**")) {
      const Token& t = next();
      lhs = make(NodeKind::Binary, t.column, {lhs, parseUnary(true)}, "**");
    }
    return lhs;
  }

  NodePtr parseUnary(bool withFilters) {
    NodePtr node;
    if (isOp("-") || isOp("+")) {
      DepthGuard g(*this);
      const Token& t = next();
      node = make(NodeKind::Unary, t.column, {parseUnary(false)}, t.text);
    } else {
      node = parsePostfix(parsePrimary());
    }
    return withFilters ? parseFiltersAndTests(node) : node;
  }

  NodePtr parseFiltersAndTests(NodePtr node) {
    for (;;) {
      if (isOp("|")) {
        next();
        const Token& name = next();
        if (name.kind != TokenKind::Name)
          fail(name, fmt::format("expected a filter name, found {}", describe(name)));
        std::vector<NodePtr> kids{node};
        if (isOp("(")) parseArgs(kids);
        node = make(NodeKind::Filter, name.column, std::move(kids), name.text);
      } else if (isWord("is")) {
        next();
        bool negated = false;
        if (isWord("not")) {
          next();
          negated = true;
        }
        const Token& name = next();
        if (name.kind != TokenKind::Name)
          fail(name, fmt::format("expected a test name, found {}", describe(name)));
        std::vector<NodePtr> kids{node};
        if (isOp("(")) parseArgs(kids);
        auto n = make(NodeKind::Test, name.column, std::move(kids), name.text);
        std::const_pointer_cast<Node>(n)->negated = negated;
        node = n;
      } else {
        return node;
      }
    }
  }

  // '(' [cond (',' cond)* [',']] ')' appended to kids.
  void parseArgs(std::vector<NodePtr>& kids) {
    expectOp("(");
    while (!isOp(")")) {
      if (peek().kind == TokenKind::Name && isOp("=", 1)) fail(peek(), "keyword arguments are not supported");
      kids.push_back(parseCond());
      if (!isOp(",")) break;
      next();
    }
    expectOp(")");
  }

  NodePtr parsePostfix(NodePtr node) {
    for (;;) {
      if (isOp(".")) {
        next();
        const Token& name = next();
        if (name.kind != TokenKind::Name && name.kind != TokenKind::Int)
          fail(name, fmt::format("expected an attribute name after '.', found {}", describe(name)));
        node = make(NodeKind::Attr, name.column, {node}, name.text);
      } else if (isOp("[")) {
        int col = next().column;
        node = parseSubscript(node, col);
      } else if (isOp("(")) {
        int col = peek().column;
        std::vector<NodePtr> kids{node};
        parseArgs(kids);
        node = make(NodeKind::Call, col, std::move(kids));
      } else {
        return node;
      }
    }
  }

  NodePtr parseSubscript(NodePtr object, int col) {
    NodePtr parts[3];
    int colons = 0;
    if (!isOp(":")) parts[0] = parseCond();
    while (isOp(":") && colons < 2) {
      next();
      ++colons;
      if (!isOp(":") && !isOp("]")) parts[colons] = parseCond();
    }
    expectOp("]");
    if (colons == 0) {
      return make(NodeKind::Index, col, {object, parts[0]});
    }
    return make(NodeKind::Slice, col, {object, parts[0], parts[1], parts[2]});
  }

  NodePtr literal(const Token& t, Value v) {
    auto n = make(NodeKind::Literal, t.column);
    std::const_pointer_cast<Node>(n)->value = std::move(v);
    return n;
  }

  NodePtr parsePrimary() {
    const Token& t = next();
    switch (t.kind) {
      case TokenKind::Int: {
        int64_t v = 0;
        auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
        if (r.ec != std::errc() || r.ptr != t.text.data() + t.text.size())
          fail(t, fmt::format("integer literal {} does not fit in 64 bits", t.text));
        return literal(t, Value(v));
      }
      case TokenKind::Float: {
        double v = 0;
        auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
        if (r.ec != std::errc() || !std::isfinite(v))
          fail(t, fmt::format("float literal {} is out of range", t.text));
        return literal(t, Value(v));
      }
      case TokenKind::String:
        return literal(t, Value(t.text));
      case TokenKind::Name: {
        if (t.text == "true" || t.text == "True") return literal(t, Value(true));
        if (t.text == "false" || t.text == "False") return literal(t, Value(false));
        if (t.text == "none" || t.text == "None") return literal(t, Value());
        static constexpr std::string_view kReserved[] = {"and", "or", "not", "in", "is", "if", "else"};
        if (std::find(std::begin(kReserved), std::end(kReserved), t.text) != std::end(kReserved))
          fail(t, fmt::format("unexpected keyword '{}'", t.text));
        return make(NodeKind::Name, t.column, {}, t.text);
      }
      case TokenKind::Op:
        if (t.text == "(") {
          NodePtr inner = parseCond();
          expectOp(")");
          return inner;
        }
        if (t.text == "[") {
          std::vector<NodePtr> items;
          while (!isOp("]")) {
            items.push_back(parseCond());
            if (!isOp(",")) break;
            next();
          }
          expectOp("]");
          return make(NodeKind::ListLit, t.column, std::move(items));
        }
        fail(t, fmt::format("unexpected {}", describe(t)));
      case TokenKind::End:
        fail(t, "unexpected end of expression");
    }
    fail(t, "unexpected token");
  }
};

}  // namespace

NodePtr parseExpression(std::string_view source) {
  return Parser(source).parseAll();
}

}  // namespace wgk::expr

// Values written in a manifest: an expression, a literal, or a structured value whose strings are
// expressions. Every expression is parsed once, at load, so a bad expression fails with its JSON
// path and planning only evaluates.
//
//   auto v = wgk::package::ExprOrValue::parse(json["derive"]["rows"], "/derive/rows");
//   wgk::expr::Value rows = v.evaluate(scope);
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "expr/expression.h"
#include "expr/value.h"
#include "package/json_reader.h"

namespace wgk::package {

class ExprOrValue {
 public:
  ExprOrValue() = default;
  // A JSON string is an expression; anything else a literal (lists and objects stay literal: the
  // seeds' dialect writes a string constant as an expression literal, "\"tanh\"").
  static ExprOrValue parse(const Json& j, const std::string& path);  // Error(Manifest) naming path
  // Like parse, but strings inside lists and objects are expressions too (spec 2.1 derive values,
  // output shape lists, pass profiles): {"a": "dim(shapes.x, 0)", "b": [1, "n"]}.
  static ExprOrValue parseDeep(const Json& j, const std::string& path);
  static ExprOrValue literal(const Json& j, const std::string& path);  // never an expression
  // An expression the reader writes itself (a spec 2.1 dispatch shorthand, a `$name` reference).
  static ExprOrValue expression(const std::string& source, const std::string& path);
  // A map of named parts, each evaluated in the same scope (the seeds' pass `source.inputs`).
  static ExprOrValue structuredMap(std::vector<std::pair<std::string, ExprOrValue>> members,
                                   const std::string& path);

  expr::Value evaluate(const expr::Scope& scope) const;
  bool isExpression() const { return expr_.has_value(); }
  bool isStructured() const { return structured_ != nullptr; }
  const expr::Value* literalValue() const { return expr_ || structured_ ? nullptr : &literal_; }
  const expr::Expression* expression() const { return expr_ ? &*expr_ : nullptr; }
  // The names the value reads (every expression inside it), first appearance first.
  std::vector<std::string> referencedNames() const;
  std::string text() const;  // the expression source, or the value as JSON
  // The value as the manifest would write it in `dialectDeep` form: expressions as strings,
  // literals as JSON (used by `wgk convert` and `wgk info`).
  Json toJson() const;
  const std::string& path() const { return path_; }

 private:
  struct Structured {
    bool isList = false;
    std::vector<std::pair<std::string, ExprOrValue>> members;  // names empty for lists
  };
  std::optional<expr::Expression> expr_;
  expr::Value literal_;
  std::shared_ptr<const Structured> structured_;
  std::string path_;
};

struct NamedValue {
  std::string name;
  ExprOrValue value;
};

// A JSON value as an expression-language literal (objects become maps, arrays lists).
expr::Value literalValueFromJson(const Json& j);

}  // namespace wgk::package

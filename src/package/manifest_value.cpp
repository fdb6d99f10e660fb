// ExprOrValue: parsing at load, evaluation at plan time, and the JSON a converter writes back.
#include "package/manifest_value.h"

#include <algorithm>

#include "expr/scope.h"
#include "wgk/error.h"

namespace wgk::package {

expr::Value literalValueFromJson(const Json& j) {
  try {
    return expr::Value::fromJson(j);
  } catch (const Error& e) {
    throw e.recoded(ErrorCode::Manifest, e.message());  // a value in a package file
  }
}

namespace {

expr::Value literalAt(const Json& j, const std::string& path) {
  try {
    return literalValueFromJson(j);
  } catch (const Error& e) {
    schemaError(path, e.message());
  }
}

}  // namespace

ExprOrValue ExprOrValue::expression(const std::string& source, const std::string& path) {
  ExprOrValue out;
  out.path_ = path;
  try {
    out.expr_ = expr::Expression::parse(source);
  } catch (const Error& e) {
    schemaError(path, "expression does not parse: " + std::string(e.what()));
  }
  // Checked here, at load, for every expression: a derive no variant uses is never evaluated.
  for (const std::string& f : out.expr_->calledFunctions()) {
    const expr::Value* v = expr::builtins().lookup(f);
    if (v && v->isFunction()) continue;
    std::string known;
    for (const std::string& n : expr::builtins().names()) known += (known.empty() ? "" : ", ") + n;
    schemaError(path, "`" + source.substr(0, 80) + "` calls unknown function '" + f.substr(0, 80) +
                          "' (functions: " + known + ")");
  }
  return out;
}

ExprOrValue ExprOrValue::parse(const Json& j, const std::string& path) {
  if (j.is_string()) return expression(j.get<std::string>(), path);
  return literal(j, path);
}

ExprOrValue ExprOrValue::parseDeep(const Json& j, const std::string& path) {
  if (j.is_string()) return expression(j.get<std::string>(), path);
  if (!j.is_array() && !j.is_object()) return literal(j, path);
  // Lists and objects without a string anywhere stay one literal (cheaper to evaluate).
  bool anyString = false;
  std::vector<const Json*> stack{&j};
  while (!stack.empty() && !anyString) {
    const Json* n = stack.back();
    stack.pop_back();
    if (n->is_string()) anyString = true;
    if (n->is_array() || n->is_object())
      for (const auto& c : *n) stack.push_back(&c);
  }
  if (!anyString) return literal(j, path);
  auto s = std::make_shared<Structured>();
  s->isList = j.is_array();
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) s->members.emplace_back("", parseDeep(j[i], jsonPath(path, i)));
  } else {
    for (auto it = j.begin(); it != j.end(); ++it)
      s->members.emplace_back(it.key(), parseDeep(it.value(), jsonPath(path, it.key())));
  }
  ExprOrValue out;
  out.path_ = path;
  out.structured_ = std::move(s);
  return out;
}

ExprOrValue ExprOrValue::literal(const Json& j, const std::string& path) {
  ExprOrValue out;
  out.path_ = path;
  out.literal_ = literalAt(j, path);
  return out;
}

ExprOrValue ExprOrValue::structuredMap(std::vector<std::pair<std::string, ExprOrValue>> members,
                                       const std::string& path) {
  auto s = std::make_shared<Structured>();
  s->members = std::move(members);
  ExprOrValue out;
  out.path_ = path;
  out.structured_ = std::move(s);
  return out;
}

expr::Value ExprOrValue::evaluate(const expr::Scope& scope) const {
  if (expr_) return expr_->evaluate(scope);
  if (!structured_) return literal_;
  if (structured_->isList) {
    expr::List l;
    l.reserve(structured_->members.size());
    for (const auto& [name, v] : structured_->members) l.push_back(v.evaluate(scope));
    return expr::Value(std::move(l));
  }
  expr::Map m;
  for (const auto& [name, v] : structured_->members) m[name] = v.evaluate(scope);
  return expr::Value(std::move(m));
}

std::vector<std::string> ExprOrValue::referencedNames() const {
  if (expr_) return expr_->referencedNames();
  std::vector<std::string> out;
  if (!structured_) return out;
  for (const auto& [name, v] : structured_->members)
    for (auto& n : v.referencedNames())
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
  return out;
}

Json ExprOrValue::toJson() const {
  if (expr_) return Json(expr_->source());
  if (!structured_) return Json::parse(literal_.toJson().dump());
  Json out = structured_->isList ? Json::array() : Json::object();
  for (const auto& [name, v] : structured_->members) {
    if (structured_->isList)
      out.push_back(v.toJson());
    else
      out[name] = v.toJson();
  }
  return out;
}

std::string ExprOrValue::text() const {
  if (expr_) return expr_->source();
  if (!structured_) return literal_.repr();
  return toJson().dump();
}

}  // namespace wgk::package

#include "package/manifest_checks.h"

#include <cctype>
#include <regex>
#include <set>

#include "wgk/error.h"

namespace wgk::package::detail {

bool isIdentifier(std::string_view s) {
  if (s.empty() || s.size() > 256) return false;
  if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool isWgslElementType(std::string_view s) {
  static const std::regex type(
      R"(^(f16|f32|i32|u32|vec[234]\s*<\s*(f16|f32|i32|u32)\s*>|atomic\s*<\s*(i32|u32)\s*>|mat[234]x[234]\s*<\s*(f16|f32)\s*>)$)");
  return s.size() < 64 && std::regex_match(s.begin(), s.end(), type);
}

void requireIdentifier(std::string_view s, const std::string& path, const std::string& what) {
  if (!isIdentifier(s))
    schemaError(path, what + " '" + std::string(s.substr(0, 80)) +
                          "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 256 characters)");
}

void requireElementType(std::string_view s, const std::string& path) {
  if (s.starts_with("$")) {
    requireIdentifier(s.substr(1), path, "elementType reference");
    return;
  }
  if (!isWgslElementType(s))
    schemaError(path, "elementType '" + std::string(s.substr(0, 80)) +
                          "' is not a WGSL element type (f16, f32, i32, u32, vecN<T>, atomic<T>, matCxR<T>) "
                          "nor a $name reference");
}

void requireOpId(const std::string& domain, const std::string& name) {
  static const std::regex dotted(R"(^[a-z][a-z0-9]*(\.[A-Za-z][A-Za-z0-9_]*)*$)");
  if (domain.size() > 256 || !std::regex_match(domain, dotted))
    schemaError("/domain", "'" + domain.substr(0, 80) + "' is not a dotted domain");
  if (name.empty()) schemaError("/name", "missing required field 'name' (a non-empty string)");
  requireIdentifier(name, "/name", "op name");
}

void requireStableId(std::string_view s, const std::string& path, const std::string& what) {
  static const std::regex id(R"(^[A-Za-z0-9][A-Za-z0-9_.\-\[\]]*$)");
  if (s.size() > 256 || !std::regex_match(s.begin(), s.end(), id))
    schemaError(path, what + " '" + std::string(s.substr(0, 80)) +
                          "' is not a stable id ([A-Za-z0-9][A-Za-z0-9_.-]*)");
}

namespace {

bool isDtypeOrTypeVar(const Manifest& m, const std::string& t) {
  return m.typeConstraints.count(t) || m.freeTypeVars.count(t) || dtypeFromName(t).has_value();
}

void checkBindings(const Manifest& m, const VariantSpec& v, const PassSpec& pass) {
  std::set<std::string> names, structs;
  std::set<std::string> intermediates;
  for (const auto& i : v.intermediates) intermediates.insert(i.id);
  for (const BindingSpec& b : pass.bindings) {
    requireIdentifier(b.name, b.path, "binding name");
    if (!names.insert(b.name).second)
      schemaError(b.path, "pass '" + pass.id + "' binds the WGSL name '" + b.name + "' twice");
    if (b.type == BufferType::Uniform) {
      if (!b.uniform || b.uniform->fields.empty())
        schemaError(b.path, "a uniform binding needs a struct with at least one field");
      requireIdentifier(b.uniform->name, b.path, "struct name");
      std::set<std::string> fields;
      for (const auto& f : b.uniform->fields) {
        requireIdentifier(f.name, b.path, "uniform field name");
        if (!fields.insert(f.name).second) schemaError(b.path, "struct repeats field '" + f.name + "'");
        if (f.type != "u32" && f.type != "i32" && f.type != "f32")
          schemaError(b.path,
                      "uniform field '" + f.name + "' has type '" + f.type + "' (expected u32, i32 or f32)");
      }
      continue;
    }
    requireElementType(b.elementType, b.path);
    if (b.kind == ResourceKind::Tensor && !m.findPort(b.resource))
      schemaError(b.path, "binding '" + b.name + "' names tensor '" + b.resource + "', which is no port of " +
                              m.id());
    if (b.kind == ResourceKind::Intermediate && !intermediates.count(b.resource))
      schemaError(b.path, "binding '" + b.name + "' names '" + b.resource +
                              "', which is neither a tensor nor an intermediate of variant '" + v.id + "'");
  }
}

void checkPasses(const Manifest& m, const VariantSpec& v, const std::vector<PassNode>& nodes,
                 std::set<std::string>& ids) {
  for (const PassNode& n : nodes) {
    if (n.isGroup) {
      if (!ids.insert(n.groupId).second)
        schemaError(v.path, "duplicate pass or group id '" + n.groupId + "'");
      if (n.children.empty()) schemaError(v.path, "repeat group '" + n.groupId + "' has no passes");
      std::set<std::string> inner;
      checkPasses(m, v, n.children, inner);
      continue;
    }
    if (!ids.insert(n.pass.id).second)
      schemaError(n.pass.path + "/id", "duplicate pass id '" + n.pass.id + "' in variant '" + v.id + "'");
    checkBindings(m, v, n.pass);
  }
}

}  // namespace

void checkModel(const Manifest& m) {
  for (const auto& [tv, list] : m.typeConstraints) {
    if (list.empty())
      schemaError(jsonPath("/typeConstraints", tv), "a type constraint needs at least one dtype");
    for (size_t i = 0; i < list.size(); ++i)
      if (!dtypeFromName(list[i]))
        schemaError(jsonPath(jsonPath("/typeConstraints", tv), i), "unknown dtype '" + list[i] + "'");
  }
  std::set<std::string> names;
  for (const PortSpec& p : m.ports) {
    requireIdentifier(p.name, p.path, "tensor name");
    if (!names.insert(p.name).second) schemaError(p.path, "tensor name '" + p.name + "' is declared twice");
    if (!p.dtype.empty() && !isDtypeOrTypeVar(m, p.dtype))
      schemaError(p.path + "/dtype", "'" + p.dtype + "' is neither a typeConstraints variable nor a dtype");
    if (p.isOutput() && !p.shape && p.direction == PortDirection::Output && m.dialect == Dialect::Seeds)
      schemaError(p.path, "output '" + p.name + "' has no shape");
  }
  for (const ScalarArgSpec& a : m.args) {
    requireIdentifier(a.name, jsonPath("/args", a.name), "arg name");
    if (!names.insert(a.name).second)
      schemaError(jsonPath("/args", a.name), "arg '" + a.name + "' collides with a tensor of the same name");
  }
  for (const auto& [name, c] : m.attributeConstraints) {
    const std::string p = jsonPath("/attributeConstraints", name);
    if (!m.findAttribute(name)) schemaError(p, "constraint for unknown attribute '" + name + "'");
    if (c.min && c.max && *c.min > *c.max)
      schemaError(p, "min " + expr::Value(*c.min).repr() + " is above max " + expr::Value(*c.max).repr());
    const expr::Value* def = m.attributeDefault(name);
    if (def && !c.values.empty()) {
      bool found = false;
      for (const auto& v : c.values) found = found || v == *def;
      if (!found)
        schemaError(p, "the default " + def->repr() + " of attribute '" + name + "' is not in values");
    }
    if (def && def->isNumber() &&
        ((c.min && def->asNumber() < *c.min) || (c.max && def->asNumber() > *c.max)))
      schemaError(p, "the default " + def->repr() + " of attribute '" + name + "' is outside [min, max]");
  }
  for (const auto& t : m.tunables) requireIdentifier(t.name, jsonPath("/tunables", t.name), "tunable name");
  std::set<std::string> ids;
  for (const VariantSpec& v : m.variants) {
    if (!ids.insert(v.id).second) schemaError(v.path + "/id", "duplicate variant id '" + v.id + "'");
    std::set<std::string> intermediates;
    for (const auto& i : v.intermediates) {
      requireIdentifier(i.id, i.path + "/id", "intermediate id");
      if (!intermediates.insert(i.id).second)
        schemaError(i.path + "/id", "duplicate intermediate id '" + i.id + "'");
      if (m.findPort(i.id)) schemaError(i.path + "/id", "intermediate '" + i.id + "' is also a tensor name");
      if (!isDtypeOrTypeVar(m, i.dtype)) schemaError(i.path + "/dtype", "unknown dtype '" + i.dtype + "'");
    }
    std::set<std::string> passIds;
    checkPasses(m, v, v.passes, passIds);
    for (const auto& s : v.supersededBy) {
      const VariantSpec* other = m.findVariant(s);
      if (!other) schemaError(v.path + "/supersededBy", "names unknown variant '" + s + "'");
      if (other == &v) schemaError(v.path + "/supersededBy", "variant '" + v.id + "' lists itself");
      const bool outranks = other->priority > v.priority || (other->priority == v.priority && other < &v);
      if (!outranks)
        schemaError(v.path + "/supersededBy",
                    "variant '" + v.id + "' is superseded by '" + s +
                        "', which does not outrank it (supersededBy names higher-ranked "
                        "variants that already cover a shape)");
    }
  }
}

}  // namespace wgk::package::detail

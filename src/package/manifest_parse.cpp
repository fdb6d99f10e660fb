// manifest.json -> Manifest: schema checks with JSON paths, then cross-reference checks.
#include <algorithm>
#include <set>

#include "package/manifest.h"
#include "wgk/dtype.h"
#include "wgk/error.h"

namespace wgk::package {

namespace {

expr::Value literalFromJson(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
      return expr::Value();
    case Json::value_t::boolean:
      return expr::Value(j.get<bool>());
    case Json::value_t::number_integer:
      return expr::Value(j.get<int64_t>());
    case Json::value_t::number_unsigned:
      return expr::Value(static_cast<int64_t>(j.get<uint64_t>()));
    case Json::value_t::number_float:
      return expr::Value(j.get<double>());
    case Json::value_t::string:
      return expr::Value(j.get<std::string>());
    case Json::value_t::array: {
      expr::List l;
      for (const auto& e : j) l.push_back(literalFromJson(e));
      return expr::Value(std::move(l));
    }
    case Json::value_t::object: {
      expr::Map m;
      for (auto it = j.begin(); it != j.end(); ++it) m[it.key()] = literalFromJson(it.value());
      return expr::Value(std::move(m));
    }
    default:
      return expr::Value();
  }
}

std::vector<NamedValue> readNamedValues(const Json& j, const std::string& path) {
  readObject(j, path);
  std::vector<NamedValue> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "$comment") continue;
    out.push_back({it.key(), ExprOrValue::parse(it.value(), jsonPath(path, it.key()))});
  }
  return out;
}

// Literal-only maps (attributes, tunables): strings stay strings here.
std::vector<NamedValue> readLiterals(const Json& j, const std::string& path) {
  readObject(j, path);
  std::vector<NamedValue> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "$comment") continue;
    const std::string p = jsonPath(path, it.key());
    if (it.value().is_null()) schemaError(p, "expected a value, got null");
    out.push_back({it.key(), ExprOrValue::literal(it.value(), p)});
  }
  return out;
}

// `when` / `demoteWhen`: one expression (or bool) or a list of them.
std::vector<ExprOrValue> readConditions(const Json& j, const std::string& path) {
  std::vector<ExprOrValue> out;
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string p = jsonPath(path, i);
      if (!j[i].is_string() && !j[i].is_boolean())
        schemaError(p, "expected an expression string, got " + jsonKindName(j[i]));
      out.push_back(ExprOrValue::parse(j[i], p));
    }
  } else if (j.is_string() || j.is_boolean()) {
    out.push_back(ExprOrValue::parse(j, path));
  } else {
    schemaError(path, "expected an expression string or a list of them, got " + jsonKindName(j));
  }
  return out;
}

ExprOrValue readNumericExpr(const Json& j, const std::string& path) {
  if (!j.is_string() && !j.is_number())
    schemaError(path, "expected a number or an expression, got " + jsonKindName(j));
  return ExprOrValue::parse(j, path);
}

InputSpec readInput(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  InputSpec in;
  in.role = readString(r.required("role"), r.path("role"));
  in.dtype = readString(r.required("dtype"), r.path("dtype"));
  if (auto* v = r.optional("rank")) in.rank = readInt(*v, r.path("rank"));
  if (auto* v = r.optional("optional")) in.optional = readBool(*v, r.path("optional"));
  if (auto* v = r.optional("description")) in.description = readString(*v, r.path("description"));
  r.finish();
  return in;
}

OutputSpec readOutput(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  OutputSpec out;
  out.role = readString(r.required("role"), r.path("role"));
  out.dtype = readString(r.required("dtype"), r.path("dtype"));
  if (auto* v = r.optional("rank")) out.rank = readNumericExpr(*v, r.path("rank"));
  const Json& shape = r.required("shape");
  if (!shape.is_string() && !shape.is_array())
    schemaError(r.path("shape"), "expected an expression or a list");
  out.shape = ExprOrValue::parse(shape, r.path("shape"));
  if (auto* v = r.optional("description")) out.description = readString(*v, r.path("description"));
  r.finish();
  return out;
}

AttributeConstraint readConstraint(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  AttributeConstraint c;
  if (auto* v = r.optional("values")) {
    readArray(*v, r.path("values"));
    for (const auto& e : *v) c.values.push_back(literalFromJson(e));
  }
  if (auto* v = r.optional("min")) c.min = readNumber(*v, r.path("min"));
  if (auto* v = r.optional("max")) c.max = readNumber(*v, r.path("max"));
  if (auto* v = r.optional("description")) readString(*v, r.path("description"));
  r.finish();
  return c;
}

ArgSpec readArg(const std::string& name, const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  ArgSpec a;
  a.name = name;
  a.kind = readString(r.required("kind"), r.path("kind"));
  if (a.kind != "tensor")
    schemaError(r.path("kind"), "unsupported arg kind '" + a.kind + "' (expected \"tensor\")");
  a.semantic = readString(r.required("semantic"), r.path("semantic"));
  const std::string role = readString(r.required("role"), r.path("role"));
  if (role == "input")
    a.role = ArgRole::Input;
  else if (role == "output")
    a.role = ArgRole::Output;
  else
    schemaError(r.path("role"), "expected \"input\" or \"output\", got \"" + role + "\"");
  if (auto* v = r.optional("dtype")) {
    a.dtype = readString(*v, r.path("dtype"));
    if (!dtypeFromName(*a.dtype)) schemaError(r.path("dtype"), "unknown dtype '" + *a.dtype + "'");
  }
  std::optional<bool> required;
  if (auto* v = r.optional("required")) required = readBool(*v, r.path("required"));
  if (auto* v = r.optional("description")) readString(*v, r.path("description"));
  r.finish();
  a.required = required.value_or(true);
  return a;
}

UniformStruct readStruct(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  UniformStruct s;
  s.name = readString(r.required("name"), r.path("name"));
  const Json& fields = readArray(r.required("fields"), r.path("fields"));
  if (fields.empty()) schemaError(r.path("fields"), "a uniform struct needs at least one field");
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string p = jsonPath(r.path("fields"), i);
    ObjectReader f(fields[i], p);
    UniformField field;
    field.name = readString(f.required("name"), f.path("name"));
    field.type = readString(f.required("type"), f.path("type"));
    if (field.type != "u32" && field.type != "i32" && field.type != "f32")
      schemaError(f.path("type"), "uniform field type must be u32, i32 or f32, got \"" + field.type + "\"");
    field.value = readNumericExpr(f.required("value"), f.path("value"));
    f.finish();
    s.fields.push_back(std::move(field));
  }
  r.finish();
  return s;
}

BindingSpec readBinding(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  BindingSpec b;
  b.name = readString(r.required("name"), r.path("name"));
  if (auto* v = r.optional("arg")) b.arg = readString(*v, r.path("arg"));
  b.semantic = readString(r.required("semantic"), r.path("semantic"));
  {
    ObjectReader buf(r.required("buffer"), r.path("buffer"));
    const std::string type = readString(buf.required("type"), buf.path("type"));
    if (type == "read-only-storage")
      b.type = BufferType::ReadOnlyStorage;
    else if (type == "storage")
      b.type = BufferType::Storage;
    else if (type == "uniform")
      b.type = BufferType::Uniform;
    else
      schemaError(buf.path("type"), "expected read-only-storage, storage or uniform, got \"" + type + "\"");
    buf.finish();
  }
  if (auto* v = r.optional("elementType")) b.elementType = readString(*v, r.path("elementType"));
  if (auto* v = r.optional("length")) {
    if (v->is_string() && v->get<std::string>().starts_with("$"))
      b.lengthConstant = v->get<std::string>().substr(1);
    else
      b.length = readNumericExpr(*v, r.path("length"));
  }
  if (auto* v = r.optional("struct")) b.uniform = readStruct(*v, r.path("struct"));
  if (auto* v = r.optional("description")) readString(*v, r.path("description"));
  r.finish();
  if (b.type == BufferType::Uniform) {
    if (!b.uniform) schemaError(r.path("struct"), "a uniform binding needs a struct");
    if (b.arg) schemaError(r.path("arg"), "a uniform binding cannot bind a tensor arg");
  } else {
    if (b.elementType.empty()) schemaError(r.path("elementType"), "a storage binding needs an elementType");
    if (b.uniform) schemaError(r.path("struct"), "only uniform bindings have a struct");
  }
  return b;
}

Dispatch readDispatch(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  Dispatch d;
  if (auto* v = r.optional("threads")) d.threads = readNumericExpr(*v, r.path("threads"));
  if (auto* v = r.optional("workgroupSize")) d.workgroupSize = readNumericExpr(*v, r.path("workgroupSize"));
  if (auto* v = r.optional("workgroups")) d.workgroups = readNumericExpr(*v, r.path("workgroups"));
  if (auto* v = r.optional("z")) d.z = readNumericExpr(*v, r.path("z"));
  r.finish();
  const bool threadsForm = d.threads || d.workgroupSize;
  if (threadsForm && (d.workgroups || d.z))
    schemaError(path, "dispatch is either {threads, workgroupSize} or {workgroups, z}, not both");
  if (threadsForm && !(d.threads && d.workgroupSize))
    schemaError(path, "dispatch {threads, workgroupSize} needs both fields");
  if (!threadsForm && !d.workgroups)
    schemaError(path, "dispatch needs {threads, workgroupSize} or {workgroups}");
  return d;
}

PassSpec readPass(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  PassSpec p;
  p.id = readString(r.required("id"), r.path("id"));
  if (auto* v = r.optional("name")) p.name = readString(*v, r.path("name"));
  const Json* shader = r.optional("shader");
  const Json* source = r.optional("source");
  if (shader && source) schemaError(path, "a pass has either shader or source, not both");
  if (shader) {
    p.shader = readString(*shader, r.path("shader"));
  } else if (source) {
    ObjectReader s(*source, r.path("source"));
    p.hasSource = true;
    p.shader = readString(s.required("shader"), s.path("shader"));
    if (auto* v = s.optional("inputs")) p.sourceInputs = readNamedValues(*v, s.path("inputs"));
    s.finish();
  } else {
    schemaError(r.path("shader"), "missing required field 'shader' (or 'source')");
  }
  if (auto* v = r.optional("subgroupCollectivesWidth"))
    p.subgroupCollectivesWidth = readString(*v, r.path("subgroupCollectivesWidth"));
  p.bindings = readString(r.required("bindings"), r.path("bindings"));
  p.dispatch = readDispatch(r.required("dispatch"), r.path("dispatch"));
  if (auto* v = r.optional("derive")) p.derive = readNamedValues(*v, r.path("derive"));
  if (auto* v = r.optional("description")) readString(*v, r.path("description"));
  r.finish();
  if (p.name.empty()) p.name = p.id;
  return p;
}

VariantSpec readVariant(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  VariantSpec v;
  v.id = readString(r.required("id"), r.path("id"));
  if (auto* x = r.optional("name")) v.name = readString(*x, r.path("name"));
  if (auto* x = r.optional("description")) v.description = readString(*x, r.path("description"));
  if (auto* x = r.optional("priority")) v.priority = readNumber(*x, r.path("priority"));
  if (auto* x = r.optional("requires")) {
    ObjectReader req(*x, r.path("requires"));
    if (auto* f = req.optional("features")) v.requiredFeatures = readStringList(*f, req.path("features"));
    req.finish();
  }
  if (auto* x = r.optional("when")) v.when = readConditions(*x, r.path("when"));
  if (auto* x = r.optional("demoteWhen")) v.demoteWhen = readConditions(*x, r.path("demoteWhen"));
  if (auto* x = r.optional("derive")) v.derive = readNamedValues(*x, r.path("derive"));
  if (auto* x = r.optional("constants")) v.constants = readNamedValues(*x, r.path("constants"));
  if (auto* x = r.optional("intermediates")) {
    readArray(*x, r.path("intermediates"));
    for (size_t i = 0; i < x->size(); ++i) {
      const std::string p = jsonPath(r.path("intermediates"), i);
      ObjectReader ir((*x)[i], p);
      IntermediateSpec is;
      is.id = readString(ir.required("id"), ir.path("id"));
      is.dtype = readString(ir.required("dtype"), ir.path("dtype"));
      const Json& shape = ir.required("shape");
      if (!shape.is_string() && !shape.is_array())
        schemaError(ir.path("shape"), "expected an expression or a list");
      is.shape = ExprOrValue::parse(shape, ir.path("shape"));
      if (auto* d = ir.optional("description")) readString(*d, ir.path("description"));
      ir.finish();
      v.intermediates.push_back(std::move(is));
    }
  }
  const Json& passes = readArray(r.required("passes"), r.path("passes"));
  if (passes.empty()) schemaError(r.path("passes"), "a variant needs at least one pass");
  for (size_t i = 0; i < passes.size(); ++i)
    v.passes.push_back(readPass(passes[i], jsonPath(r.path("passes"), i)));
  r.finish();
  return v;
}

bool isDtypeOrTypeVar(const Manifest& m, const std::string& t) {
  return m.typeConstraints.count(t) || dtypeFromName(t).has_value();
}

// Cross references: everything a plan will look up by name must exist.
void checkReferences(const Manifest& m) {
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (!isDtypeOrTypeVar(m, m.inputs[i].dtype))
      schemaError("/inputs/" + std::to_string(i) + "/dtype",
                  "'" + m.inputs[i].dtype + "' is neither a typeConstraints variable nor a dtype");
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (!isDtypeOrTypeVar(m, m.outputs[i].dtype))
      schemaError("/outputs/" + std::to_string(i) + "/dtype",
                  "'" + m.outputs[i].dtype + "' is neither a typeConstraints variable nor a dtype");
  for (const auto& [tv, list] : m.typeConstraints)
    for (size_t i = 0; i < list.size(); ++i)
      if (!dtypeFromName(list[i]))
        schemaError(jsonPath("/typeConstraints/" + tv, i), "unknown dtype '" + list[i] + "'");
  std::set<std::string> semantics;
  for (const auto& a : m.args) {
    const std::string p = jsonPath("/args", a.name);
    if (a.role == ArgRole::Input && !m.findInput(a.semantic))
      schemaError(p + "/semantic", "input arg '" + a.name + "' names semantic '" + a.semantic +
                                       "', which no inputs[].role has");
    if (a.role == ArgRole::Output && !m.findOutput(a.semantic))
      schemaError(p + "/semantic", "output arg '" + a.name + "' names semantic '" + a.semantic +
                                       "', which no outputs[].role has");
    if (!semantics.insert(a.semantic).second)
      schemaError(p + "/semantic", "two args share semantic '" + a.semantic + "'");
  }
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (!semantics.count(m.inputs[i].role))
      schemaError("/inputs/" + std::to_string(i),
                  "input '" + m.inputs[i].role + "' has no arg (args[*].semantic)");
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (!semantics.count(m.outputs[i].role))
      schemaError("/outputs/" + std::to_string(i),
                  "output '" + m.outputs[i].role + "' has no arg (args[*].semantic)");
  for (const auto& [name, c] : m.attributeConstraints)
    if (!m.attributeDefault(name))
      schemaError(jsonPath("/attributeConstraints", name), "constraint for unknown attribute '" + name + "'");
  for (const auto& [set, bindings] : m.bindingSets) {
    std::set<std::string> names;
    for (size_t i = 0; i < bindings.size(); ++i) {
      const std::string p = jsonPath(jsonPath("/bindingSets", set), i);
      if (!names.insert(bindings[i].name).second)
        schemaError(p + "/name", "duplicate binding name '" + bindings[i].name + "'");
      if (bindings[i].arg && !m.findArg(*bindings[i].arg))
        schemaError(p + "/arg",
                    "binding '" + bindings[i].name + "' names unknown arg '" + *bindings[i].arg + "'");
    }
  }
  std::set<std::string> ids;
  for (size_t vi = 0; vi < m.variants.size(); ++vi) {
    const VariantSpec& v = m.variants[vi];
    const std::string vp = "/variants/" + std::to_string(vi);
    if (!ids.insert(v.id).second) schemaError(vp + "/id", "duplicate variant id '" + v.id + "'");
    std::set<std::string> constants;
    for (const auto& c : m.constants) constants.insert(c.name);
    for (const auto& c : v.constants) constants.insert(c.name);
    std::set<std::string> intermediates;
    for (size_t ii = 0; ii < v.intermediates.size(); ++ii) {
      if (!intermediates.insert(v.intermediates[ii].id).second)
        schemaError(vp + "/intermediates/" + std::to_string(ii) + "/id", "duplicate intermediate id");
      if (!isDtypeOrTypeVar(m, v.intermediates[ii].dtype))
        schemaError(vp + "/intermediates/" + std::to_string(ii) + "/dtype",
                    "unknown dtype '" + v.intermediates[ii].dtype + "'");
    }
    std::set<std::string> passIds;
    for (size_t pi = 0; pi < v.passes.size(); ++pi) {
      const PassSpec& pass = v.passes[pi];
      const std::string pp = vp + "/passes/" + std::to_string(pi);
      if (!passIds.insert(pass.id).second) schemaError(pp + "/id", "duplicate pass id '" + pass.id + "'");
      auto set = m.bindingSets.find(pass.bindings);
      if (set == m.bindingSets.end())
        schemaError(pp + "/bindings", "unknown binding set '" + pass.bindings + "'");
      for (const BindingSpec& b : set->second) {
        auto needConstant = [&](const std::string& name, const char* what) {
          if (!constants.count(name))
            schemaError(pp + "/bindings", "binding set '" + pass.bindings + "' binding '" + b.name +
                                              "' uses " + what + " $" + name + ", but variant '" + v.id +
                                              "' and the manifest define no constant '" + name + "'");
        };
        if (b.elementType.starts_with("$")) needConstant(b.elementType.substr(1), "elementType");
        if (b.lengthConstant) needConstant(*b.lengthConstant, "length");
        if (b.type != BufferType::Uniform && !b.arg && !intermediates.count(b.semantic))
          schemaError(pp + "/bindings", "binding set '" + pass.bindings + "' binding '" + b.name +
                                            "' binds no arg and its semantic '" + b.semantic +
                                            "' is not an intermediate of variant '" + v.id + "'");
      }
    }
  }
}

}  // namespace

ExprOrValue ExprOrValue::parse(const Json& j, const std::string& path) {
  ExprOrValue out;
  out.path_ = path;
  if (j.is_string()) {
    try {
      out.expr_ = expr::Expression::parse(j.get<std::string>());
    } catch (const Error& e) {
      schemaError(path, "expression does not parse: " + std::string(e.what()));
    }
  } else {
    out.literal_ = literalFromJson(j);
  }
  return out;
}

ExprOrValue ExprOrValue::literal(const Json& j, const std::string& path) {
  ExprOrValue out;
  out.path_ = path;
  out.literal_ = literalFromJson(j);
  return out;
}

expr::Value ExprOrValue::evaluate(const expr::Scope& scope) const {
  return expr_ ? expr_->evaluate(scope) : literal_;
}

std::string ExprOrValue::text() const {
  return expr_ ? expr_->source() : literal_.repr();
}

std::string_view bufferTypeName(BufferType t) {
  switch (t) {
    case BufferType::ReadOnlyStorage:
      return "read-only-storage";
    case BufferType::Storage:
      return "storage";
    case BufferType::Uniform:
      return "uniform";
  }
  return "?";
}

const ArgSpec* Manifest::findArg(std::string_view n) const {
  for (const auto& a : args)
    if (a.name == n) return &a;
  return nullptr;
}
const InputSpec* Manifest::findInput(std::string_view role) const {
  for (const auto& i : inputs)
    if (i.role == role) return &i;
  return nullptr;
}
const OutputSpec* Manifest::findOutput(std::string_view role) const {
  for (const auto& o : outputs)
    if (o.role == role) return &o;
  return nullptr;
}
const VariantSpec* Manifest::findVariant(std::string_view vid) const {
  for (const auto& v : variants)
    if (v.id == vid) return &v;
  return nullptr;
}
const expr::Value* Manifest::attributeDefault(std::string_view n) const {
  for (const auto& a : attributes)
    if (a.name == n) return a.value.literalValue();
  return nullptr;
}

std::vector<std::string> Manifest::shaderFiles() const {
  std::set<std::string> files;
  for (const auto& v : variants)
    for (const auto& p : v.passes) files.insert(p.shader);
  return {files.begin(), files.end()};
}

Manifest parseManifest(const Json& j) {
  Manifest m;
  ObjectReader r(j, "");
  if (auto* v = r.optional("domain")) m.domain = readString(*v, "/domain");
  if (auto* v = r.optional("name")) m.name = readString(*v, "/name");
  return withContext("in manifest " + m.id(), [&] {
    if (m.domain.empty()) schemaError("/domain", "missing required field 'domain'");
    if (m.name.empty()) schemaError("/name", "missing required field 'name'");
    if (auto* v = r.optional("sinceVersion")) m.sinceVersion = readInt(*v, "/sinceVersion");
    if (auto* v = r.optional("description")) m.description = readString(*v, "/description");
    const Json& inputs = readArray(r.required("inputs"), "/inputs");
    for (size_t i = 0; i < inputs.size(); ++i)
      m.inputs.push_back(readInput(inputs[i], jsonPath("/inputs", i)));
    const Json& outputs = readArray(r.required("outputs"), "/outputs");
    if (outputs.empty()) schemaError("/outputs", "a kernel needs at least one output");
    for (size_t i = 0; i < outputs.size(); ++i)
      m.outputs.push_back(readOutput(outputs[i], jsonPath("/outputs", i)));
    if (auto* v = r.optional("attributes")) m.attributes = readLiterals(*v, "/attributes");
    if (auto* v = r.optional("attributeDescriptions")) {
      readObject(*v, "/attributeDescriptions");
      for (auto it = v->begin(); it != v->end(); ++it)
        m.attributeDescriptions[it.key()] =
            readString(it.value(), jsonPath("/attributeDescriptions", it.key()));
    }
    if (auto* v = r.optional("attributeConstraints")) {
      readObject(*v, "/attributeConstraints");
      for (auto it = v->begin(); it != v->end(); ++it)
        m.attributeConstraints[it.key()] =
            readConstraint(it.value(), jsonPath("/attributeConstraints", it.key()));
    }
    if (auto* v = r.optional("typeConstraints")) {
      readObject(*v, "/typeConstraints");
      for (auto it = v->begin(); it != v->end(); ++it)
        m.typeConstraints[it.key()] = readStringList(it.value(), jsonPath("/typeConstraints", it.key()));
    }
    const Json& args = readObject(r.required("args"), "/args");
    for (auto it = args.begin(); it != args.end(); ++it)
      m.args.push_back(readArg(it.key(), it.value(), jsonPath("/args", it.key())));
    if (auto* v = r.optional("tunables")) m.tunables = readLiterals(*v, "/tunables");
    if (auto* v = r.optional("derive")) m.derive = readNamedValues(*v, "/derive");
    if (auto* v = r.optional("constants")) m.constants = readNamedValues(*v, "/constants");
    const Json& sets = readObject(r.required("bindingSets"), "/bindingSets");
    for (auto it = sets.begin(); it != sets.end(); ++it) {
      const std::string p = jsonPath("/bindingSets", it.key());
      readArray(it.value(), p);
      auto& list = m.bindingSets[it.key()];
      for (size_t i = 0; i < it.value().size(); ++i)
        list.push_back(readBinding(it.value()[i], jsonPath(p, i)));
    }
    const Json& variants = readArray(r.required("variants"), "/variants");
    if (variants.empty()) schemaError("/variants", "a manifest needs at least one variant");
    for (size_t i = 0; i < variants.size(); ++i)
      m.variants.push_back(readVariant(variants[i], jsonPath("/variants", i)));
    for (const char* k : {"$schema", "manifestVersion"}) r.optional(k);
    r.finish();
    // Optional inputs: `inputs[].optional` and `args[*].required: false` say the same thing.
    for (auto& a : m.args)
      if (a.role == ArgRole::Input)
        if (const InputSpec* in = m.findInput(a.semantic); in && in->optional) a.required = false;
    checkReferences(m);
    return std::move(m);
  });
}

expr::Value literalValueFromJson(const Json& j) {
  return literalFromJson(j);
}

Manifest loadManifest(const std::string& file) {
  return withContext("reading " + file, [&] { return parseManifest(readJsonFile(file)); });
}

}  // namespace wgk::package

// The seeds' manifest dialect (SPEC.md §3) -> the manifest model: tensor args joined with their
// inputs[]/outputs[] entries become ports, each pass gets its binding set's entries, a pass
// `source` becomes a pass derive named `source`, manifest constants merge into each variant's.
#include <algorithm>
#include <set>

#include "package/budgets.h"
#include "package/manifest.h"
#include "package/manifest_checks.h"
#include "wgk/error.h"

namespace wgk::package {

using detail::requireElementType;
using detail::requireIdentifier;
using detail::requireStableId;

namespace {

std::vector<NamedValue> readNamedValues(const Json& j, const std::string& path) {
  readObject(j, path);
  std::vector<NamedValue> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "$comment") continue;
    const std::string p = jsonPath(path, it.key());
    requireIdentifier(it.key(), p, "name");
    out.push_back({it.key(), ExprOrValue::parse(it.value(), p)});
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

// inputs[] / outputs[] entries by role, before they are joined with their args.
struct RoleEntry {
  std::string role, dtype, description, path;
  std::optional<ExprOrValue> rank, shape;
  bool optional = false;
};

RoleEntry readRole(const Json& j, const std::string& path, bool output) {
  ObjectReader r(j, path);
  RoleEntry e;
  e.path = path;
  e.role = readString(r.required("role"), r.path("role"));
  e.dtype = readString(r.required("dtype"), r.path("dtype"));
  if (auto* v = r.optional("rank")) {
    if (output)
      e.rank = readNumericExpr(*v, r.path("rank"));
    else
      e.rank = ExprOrValue::literal(Json(readInt(*v, r.path("rank"))), r.path("rank"));
  }
  if (output) {
    const Json& shape = r.required("shape");
    if (!shape.is_string() && !shape.is_array()) schemaError(r.path("shape"), "expected an expression or a list");
    e.shape = ExprOrValue::parse(shape, r.path("shape"));
  } else if (auto* v = r.optional("optional")) {
    e.optional = readBool(*v, r.path("optional"));
  }
  if (auto* v = r.optional("description")) e.description = readString(*v, r.path("description"));
  r.finish();
  return e;
}

std::vector<RoleEntry> readRoles(const ObjectReader&, const Json& arr, const std::string& path, bool output) {
  readArray(arr, path);
  std::vector<RoleEntry> out;
  for (size_t i = 0; i < arr.size(); ++i) out.push_back(readRole(arr[i], jsonPath(path, i), output));
  return out;
}

// One tensor arg joined with its role entry.
PortSpec readPort(const std::string& name, const Json& j, const std::string& path,
                  const std::vector<RoleEntry>& inputs, const std::vector<RoleEntry>& outputs) {
  ObjectReader r(j, path);
  PortSpec p;
  p.name = name;
  p.path = path;
  // Tensor names become WGSL text and output file names: identifiers only.
  requireIdentifier(name, path, "tensor name");
  const std::string kind = readString(r.required("kind"), r.path("kind"));
  if (kind != "tensor") schemaError(r.path("kind"), "unsupported arg kind '" + kind + "' (expected \"tensor\")");
  p.onnx = readString(r.required("semantic"), r.path("semantic"));
  const std::string role = readString(r.required("role"), r.path("role"));
  if (role == "input")
    p.direction = PortDirection::Input;
  else if (role == "output")
    p.direction = PortDirection::Output;
  else
    schemaError(r.path("role"), "expected \"input\" or \"output\", got \"" + role + "\"");
  if (auto* v = r.optional("dtype")) {
    const std::string d = readString(*v, r.path("dtype"));
    p.fixedDtype = dtypeFromName(d);
    if (!p.fixedDtype) schemaError(r.path("dtype"), "unknown dtype '" + d + "'");
  }
  std::optional<bool> required;
  if (auto* v = r.optional("required")) required = readBool(*v, r.path("required"));
  if (auto* v = r.optional("description")) p.description = readString(*v, r.path("description"));
  r.finish();
  const auto& list = p.isOutput() ? outputs : inputs;
  auto e = std::find_if(list.begin(), list.end(), [&](const RoleEntry& x) { return x.role == p.onnx; });
  if (e == list.end())
    schemaError(r.path("semantic"), std::string(p.isOutput() ? "output" : "input") + " arg '" + name +
                                        "' names semantic '" + p.onnx + "', which no " +
                                        (p.isOutput() ? "outputs" : "inputs") + "[].role has");
  p.dtype = e->dtype;
  p.rank = e->rank;
  p.shape = e->shape;
  p.optional = e->optional || (p.isInput() && !required.value_or(true));
  if (p.description.empty()) p.description = e->description;
  p.scopeNames = {p.name};
  if (p.onnx != p.name) p.scopeNames.push_back(p.onnx);
  return p;
}

UniformStruct readStruct(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  UniformStruct s;
  s.name = readString(r.required("name"), r.path("name"));
  const Json& fields = readArray(r.required("fields"), r.path("fields"));
  if (fields.empty()) schemaError(r.path("fields"), "a uniform struct needs at least one field");
  for (size_t i = 0; i < fields.size(); ++i) {
    ObjectReader f(fields[i], jsonPath(r.path("fields"), i));
    UniformField field;
    field.name = readString(f.required("name"), f.path("name"));
    requireIdentifier(field.name, f.path("name"), "uniform field name");
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

BufferType readBufferType(const Json& j, const std::string& path) {
  ObjectReader buf(j, path);
  const std::string type = readString(buf.required("type"), buf.path("type"));
  buf.finish();
  if (type == "read-only-storage") return BufferType::ReadOnlyStorage;
  if (type == "storage") return BufferType::Storage;
  if (type == "uniform") return BufferType::Uniform;
  schemaError(buf.path("type"), "expected read-only-storage, storage or uniform, got \"" + type + "\"");
}

// A `$name` length names a constant: the expression `constants.name`.
ExprOrValue readLength(const Json& j, const std::string& path) {
  if (j.is_string() && j.get<std::string>().starts_with("$")) {
    const std::string name = j.get<std::string>().substr(1);
    requireIdentifier(name, path, "length reference");
    return ExprOrValue::expression("constants." + name, path);
  }
  return readNumericExpr(j, path);
}

BindingSpec readBinding(const Json& j, const std::string& path, const std::vector<PortSpec>& ports) {
  ObjectReader r(j, path);
  BindingSpec b;
  b.path = path;
  b.name = readString(r.required("name"), r.path("name"));
  requireIdentifier(b.name, r.path("name"), "binding name");
  std::optional<std::string> arg;
  if (auto* v = r.optional("arg")) arg = readString(*v, r.path("arg"));
  const std::string semantic = readString(r.required("semantic"), r.path("semantic"));
  b.type = readBufferType(r.required("buffer"), r.path("buffer"));
  if (auto* v = r.optional("elementType")) b.elementType = readString(*v, r.path("elementType"));
  if (auto* v = r.optional("length")) b.length = readLength(*v, r.path("length"));
  if (auto* v = r.optional("struct")) b.uniform = readStruct(*v, r.path("struct"));
  if (auto* v = r.optional("description")) readString(*v, r.path("description"));
  r.finish();
  if (b.type == BufferType::Uniform) {
    if (!b.uniform) schemaError(r.path("struct"), "a uniform binding needs a struct");
    if (arg) schemaError(r.path("arg"), "a uniform binding cannot bind a tensor arg");
    b.kind = ResourceKind::Uniform;
    return b;
  }
  if (b.elementType.empty()) schemaError(r.path("elementType"), "a storage binding needs an elementType");
  requireElementType(b.elementType, r.path("elementType"));
  if (b.uniform) schemaError(r.path("struct"), "only uniform bindings have a struct");
  if (arg) {
    if (std::none_of(ports.begin(), ports.end(), [&](const PortSpec& p) { return p.name == *arg; }))
      schemaError(r.path("arg"), "binding '" + b.name + "' names unknown arg '" + *arg + "'");
    b.kind = ResourceKind::Tensor;
    b.resource = *arg;
  } else {
    b.kind = ResourceKind::Intermediate;  // checked against the variant's intermediates later
    b.resource = semantic;
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
  if (!threadsForm && !d.workgroups) schemaError(path, "dispatch needs {threads, workgroupSize} or {workgroups}");
  d.form = threadsForm ? Dispatch::Form::Threads : Dispatch::Form::Workgroups;
  return d;
}

using BindingSets = std::map<std::string, std::vector<BindingSpec>>;

PassSpec readPass(const Json& j, const std::string& path, const BindingSets& sets) {
  ObjectReader r(j, path);
  PassSpec p;
  p.path = path;
  p.id = readString(r.required("id"), r.path("id"));
  requireStableId(p.id, r.path("id"), "pass id");
  if (auto* v = r.optional("name")) p.name = readString(*v, r.path("name"));
  if (auto* v = r.optional("derive")) p.derive = readNamedValues(*v, r.path("derive"));
  const Json* shader = r.optional("shader");
  const Json* source = r.optional("source");
  if (shader && source) schemaError(path, "a pass has either shader or source, not both");
  if (shader) {
    p.shader = readString(*shader, r.path("shader"));
  } else if (source) {
    ObjectReader s(*source, r.path("source"));
    p.shader = readString(s.required("shader"), s.path("shader"));
    std::vector<std::pair<std::string, ExprOrValue>> inputs;
    if (auto* v = s.optional("inputs"))
      for (auto& nv : readNamedValues(*v, s.path("inputs"))) inputs.emplace_back(nv.name, std::move(nv.value));
    s.finish();
    // The template reads each input as source.<name>, evaluated after the pass derive.
    p.derive.push_back({"source", ExprOrValue::structuredMap(std::move(inputs), s.path("inputs"))});
  } else {
    schemaError(r.path("shader"), "missing required field 'shader' (or 'source')");
  }
  if (auto* v = r.optional("subgroupCollectivesWidth"))
    p.subgroupCollectivesWidth = readString(*v, r.path("subgroupCollectivesWidth"));
  const std::string set = readString(r.required("bindings"), r.path("bindings"));
  auto it = sets.find(set);
  if (it == sets.end()) schemaError(r.path("bindings"), "unknown binding set '" + set + "'");
  p.bindings = it->second;
  p.dispatch = readDispatch(r.required("dispatch"), r.path("dispatch"));
  if (auto* v = r.optional("description")) readString(*v, r.path("description"));
  r.finish();
  if (p.name.empty()) p.name = p.id;
  return p;
}

IntermediateSpec readIntermediate(const Json& j, const std::string& path) {
  ObjectReader ir(j, path);
  IntermediateSpec is;
  is.path = path;
  is.id = readString(ir.required("id"), ir.path("id"));
  is.dtype = readString(ir.required("dtype"), ir.path("dtype"));
  const Json& shape = ir.required("shape");
  if (!shape.is_string() && !shape.is_array()) schemaError(ir.path("shape"), "expected an expression or a list");
  is.shape = ExprOrValue::parse(shape, ir.path("shape"));
  if (auto* d = ir.optional("description")) readString(*d, ir.path("description"));
  ir.finish();
  return is;
}

VariantSpec readVariant(const Json& j, const std::string& path, const BindingSets& sets,
                        const std::vector<NamedValue>& manifestConstants) {
  ObjectReader r(j, path);
  VariantSpec v;
  v.path = path;
  v.id = readString(r.required("id"), r.path("id"));
  requireStableId(v.id, r.path("id"), "variant id");
  if (auto* x = r.optional("name")) v.name = readString(*x, r.path("name"));
  if (auto* x = r.optional("description")) v.description = readString(*x, r.path("description"));
  if (auto* x = r.optional("priority")) v.priority = readNumber(*x, r.path("priority"));
  if (auto* x = r.optional("requires")) {
    ObjectReader req(*x, r.path("requires"));
    if (auto* f = req.optional("features")) v.requirements.features = readStringList(*f, req.path("features"));
    req.finish();
  }
  if (auto* x = r.optional("when")) v.when = readConditions(*x, r.path("when"));
  if (auto* x = r.optional("demoteWhen")) v.demoteWhen = readConditions(*x, r.path("demoteWhen"));
  if (auto* x = r.optional("derive")) v.derive = readNamedValues(*x, r.path("derive"));
  std::vector<NamedValue> own;
  if (auto* x = r.optional("constants")) own = readNamedValues(*x, r.path("constants"));
  // Manifest constants first (those the variant does not override), then the variant's.
  for (const auto& c : manifestConstants)
    if (std::none_of(own.begin(), own.end(), [&](const NamedValue& o) { return o.name == c.name; }))
      v.constants.push_back(c);
  for (auto& c : own) v.constants.push_back(std::move(c));
  if (auto* x = r.optional("intermediates")) {
    readArray(*x, r.path("intermediates"));
    for (size_t i = 0; i < x->size(); ++i)
      v.intermediates.push_back(readIntermediate((*x)[i], jsonPath(r.path("intermediates"), i)));
  }
  const Json& passes = readArray(r.required("passes"), r.path("passes"));
  if (passes.empty()) schemaError(r.path("passes"), "a variant needs at least one pass");
  for (size_t i = 0; i < passes.size(); ++i) {
    PassNode n;
    n.pass = readPass(passes[i], jsonPath(r.path("passes"), i), sets);
    v.passes.push_back(std::move(n));
  }
  r.finish();
  // `$name` element types and lengths name constants of the variant (or the manifest).
  for (const PassNode& n : v.passes)
    for (const BindingSpec& b : n.pass.bindings) {
      auto need = [&](const std::string& name, const char* what) {
        if (std::none_of(v.constants.begin(), v.constants.end(), [&](const NamedValue& c) { return c.name == name; }))
          schemaError(n.pass.path + "/bindings", "binding '" + b.name + "' uses " + what + " $" + name +
                                                     ", but variant '" + v.id +
                                                     "' and the manifest define no constant '" + name + "'");
      };
      if (b.elementType.starts_with("$")) need(b.elementType.substr(1), "elementType");
      if (b.length && b.length->expression() && b.length->text().starts_with("constants."))
        need(b.length->text().substr(10), "length");
    }
  return v;
}

void readAttributes(Manifest& m, ObjectReader& r) {
  if (auto* v = r.optional("attributes")) {
    readObject(*v, "/attributes");
    for (auto it = v->begin(); it != v->end(); ++it) {
      if (it.key() == "$comment") continue;
      const std::string p = jsonPath("/attributes", it.key());
      if (it.value().is_null()) schemaError(p, "expected a value, got null");
      AttributeSpec a;
      a.name = it.key();
      a.defaultValue = *ExprOrValue::literal(it.value(), p).literalValue();
      m.attributes.push_back(std::move(a));
    }
  }
  if (auto* v = r.optional("attributeDescriptions")) {
    readObject(*v, "/attributeDescriptions");
    for (auto it = v->begin(); it != v->end(); ++it) {
      const std::string d = readString(it.value(), jsonPath("/attributeDescriptions", it.key()));
      for (auto& a : m.attributes)
        if (a.name == it.key()) a.description = d;
    }
  }
  if (auto* v = r.optional("attributeConstraints")) {
    readObject(*v, "/attributeConstraints");
    for (auto it = v->begin(); it != v->end(); ++it) {
      ObjectReader c(it.value(), jsonPath("/attributeConstraints", it.key()));
      AttributeConstraint ac;
      if (auto* x = c.optional("values")) {
        readArray(*x, c.path("values"));
        for (size_t i = 0; i < x->size(); ++i)
          ac.values.push_back(*ExprOrValue::literal((*x)[i], jsonPath(c.path("values"), i)).literalValue());
      }
      if (auto* x = c.optional("min")) ac.min = readNumber(*x, c.path("min"));
      if (auto* x = c.optional("max")) ac.max = readNumber(*x, c.path("max"));
      if (auto* x = c.optional("description")) readString(*x, c.path("description"));
      c.finish();
      m.attributeConstraints[it.key()] = std::move(ac);
    }
  }
}

}  // namespace

Manifest readSeedsManifest(const Json& j) {
  Manifest m;
  m.dialect = Dialect::Seeds;
  m.source = j;
  ObjectReader r(j, "");
  if (auto* v = r.optional("domain")) m.domain = readString(*v, "/domain");
  if (auto* v = r.optional("name")) m.name = readString(*v, "/name");
  return withContext("in manifest " + m.id(), [&] {
    if (m.domain.empty()) schemaError("/domain", "missing required field 'domain'");
    if (m.name.empty()) schemaError("/name", "missing required field 'name'");
    detail::requireOpId(m.domain, m.name);
    if (auto* v = r.optional("sinceVersion")) m.sinceVersion = readInt(*v, "/sinceVersion");
    if (auto* v = r.optional("description")) m.description = readString(*v, "/description");
    const auto inputs = readRoles(r, r.required("inputs"), "/inputs", false);
    const auto outputs = readRoles(r, r.required("outputs"), "/outputs", true);
    if (outputs.empty()) schemaError("/outputs", "a kernel needs at least one output");
    readAttributes(m, r);
    if (auto* v = r.optional("typeConstraints")) {
      readObject(*v, "/typeConstraints");
      for (auto it = v->begin(); it != v->end(); ++it)
        m.typeConstraints[it.key()] = readStringList(it.value(), jsonPath("/typeConstraints", it.key()));
    }
    const Json& args = readObject(r.required("args"), "/args");
    std::vector<PortSpec> outs;
    for (auto it = args.begin(); it != args.end(); ++it) {
      PortSpec p = readPort(it.key(), it.value(), jsonPath("/args", it.key()), inputs, outputs);
      (p.isInput() ? m.ports : outs).push_back(std::move(p));
    }
    for (auto& p : outs) m.ports.push_back(std::move(p));
    std::set<std::string> semantics;
    for (const auto& p : m.ports)
      if (!semantics.insert(p.onnx).second)
        schemaError(p.path + "/semantic", "two args share semantic '" + p.onnx + "'");
    for (const auto* list : {&inputs, &outputs})
      for (const auto& e : *list)
        if (!semantics.count(e.role))
          schemaError(e.path, "'" + e.role + "' has no arg (args[*].semantic)");
    if (auto* v = r.optional("tunables")) {
      readObject(*v, "/tunables");
      for (auto it = v->begin(); it != v->end(); ++it) {
        if (it.key() == "$comment") continue;
        const std::string p = jsonPath("/tunables", it.key());
        if (it.value().is_null()) schemaError(p, "expected a value, got null");
        m.tunables.push_back({it.key(), *ExprOrValue::literal(it.value(), p).literalValue(), ""});
      }
    }
    if (auto* v = r.optional("derive")) m.derive = readNamedValues(*v, "/derive");
    std::vector<NamedValue> constants;
    if (auto* v = r.optional("constants")) constants = readNamedValues(*v, "/constants");
    BindingSets sets;
    const Json& setsJson = readObject(r.required("bindingSets"), "/bindingSets");
    for (auto it = setsJson.begin(); it != setsJson.end(); ++it) {
      const std::string p = jsonPath("/bindingSets", it.key());
      readArray(it.value(), p);
      auto& list = sets[it.key()];
      for (size_t i = 0; i < it.value().size(); ++i)
        list.push_back(readBinding(it.value()[i], jsonPath(p, i), m.ports));
    }
    const Json& variants = readArray(r.required("variants"), "/variants");
    if (variants.empty()) schemaError("/variants", "a manifest needs at least one variant");
    if (variants.size() > kMaxVariants)
      schemaError("/variants", "the package holds " + std::to_string(variants.size()) +
                                   " variants, more than " + std::to_string(kMaxVariants) +
                                   " (package::kMaxVariants)");
    for (size_t i = 0; i < variants.size(); ++i)
      m.variants.push_back(readVariant(variants[i], jsonPath("/variants", i), sets, constants));
    for (const char* k : {"$schema", "manifestVersion"}) r.optional(k);
    r.finish();
    detail::checkModel(m);
    return std::move(m);
  });
}

}  // namespace wgk::package

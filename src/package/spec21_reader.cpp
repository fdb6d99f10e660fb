// Manifest spec 2.1 -> the manifest model: the top level (ports, args, attributes, tunables,
// derive, when, requires, binding handles). Variants are read in spec21_variants.cpp.
#include <algorithm>
#include <cmath>
#include <regex>

#include "package/manifest_checks.h"
#include "package/spec21_internal.h"
#include "wgk/error.h"

namespace wgk::package {

using detail::requireIdentifier;

namespace spec21 {
namespace {

// Keys of the seeds' dialect (and of earlier drafts) met at the top level, and what replaces them.
const std::map<std::string, std::string>& topLevelHints() {
  static const std::map<std::string, std::string> hints = {
      {"attributeDescriptions", "spec 2.1 writes an attribute's prose as attributes.<name>.description"},
      {"tunableDescriptions", "spec 2.1 writes a tunable's prose as tunables.<name>.description"},
      {"attributeNames", "spec 2.1 declares a default-less attribute as an attributes entry without default"},
      {"constants", "spec 2.1 has one value channel, `derive`; every derive is visible to templates"},
      {"variantFamilies", "spec 2.1 writes a family as a `variants` member {cases, variants}"},
      {"bindingSets", "spec 2.1 declares named binding entries under `bindings`; each pass lists its entries"},
      {"bindingEntries", "spec 2.1 declares binding entries under `bindings`"},
      {"manifestVersion", "spec 2.1 takes its version from metadata.json's webgpu.manifestSpec"},
  };
  return hints;
}

// Object.prototype member names: the Hub loader refuses them as keys anywhere in a manifest.
bool isPrototypeName(std::string_view k) {
  static const std::set<std::string, std::less<>> names = {
      "__proto__",        "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
      "constructor",      "hasOwnProperty",   "isPrototypeOf",    "propertyIsEnumerable", "toLocaleString",
      "toString",         "valueOf"};
  return names.count(k) > 0;
}

// A copy without `$comment` members (each must be a string), refusing prototype-member keys.
Json stripComments(const Json& j, const std::string& path) {
  if (j.is_array()) {
    Json out = Json::array();
    for (size_t i = 0; i < j.size(); ++i) out.push_back(stripComments(j[i], jsonPath(path, i)));
    return out;
  }
  if (!j.is_object()) return j;
  Json out = Json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string p = jsonPath(path, it.key());
    if (it.key() == "$comment") {
      if (!it.value().is_string()) schemaError(p, "a $comment must be a string");
      continue;
    }
    if (isPrototypeName(it.key()))
      schemaError(p, "key '" + it.key() + "' shadows a JavaScript Object.prototype member; rename it");
    out[it.key()] = stripComments(it.value(), p);
  }
  return out;
}

std::optional<DType> logicalDtype(const std::string& name) {
  return dtypeFromName(name);
}

// The dtypes a port's dtype field admits: one concrete dtype, or a type variable's list.
std::vector<std::string> admitted(const Manifest& m, const std::string& dtype) {
  if (dtype.empty()) return {};
  if (logicalDtype(dtype)) return {dtype};
  auto it = m.typeConstraints.find(dtype);
  return it == m.typeConstraints.end() ? std::vector<std::string>{} : it->second;
}

PortSpec readPort(Manifest& m, const std::string& name, const Json& j, const std::string& path,
                  bool output) {
  ObjectReader r(j, path);
  PortSpec p;
  p.name = name;
  p.path = path;
  p.direction = output ? PortDirection::Output : PortDirection::Input;
  p.scopeNames = {name};
  p.rankChecked = false;  // the Hub loader never reads a port's rank
  requireIdentifier(name, path, "tensor name");
  if (auto* v = r.optional("onnx")) {
    p.onnx = readString(*v, r.path("onnx"));
    if (p.onnx.empty()) schemaError(r.path("onnx"), "onnx must be a non-empty string");
  }
  if (auto* v = r.optional("description")) p.description = readString(*v, r.path("description"));
  if (auto* v = r.optional("dtype")) {
    p.dtype = readString(*v, r.path("dtype"));
    // A name that is neither a dtype nor constrained is a type variable that takes any dtype.
    if (!logicalDtype(p.dtype) && !m.typeConstraints.count(p.dtype)) {
      requireIdentifier(p.dtype, r.path("dtype"), "type variable");
      m.freeTypeVars.insert(p.dtype);
    }
  }
  if (auto* v = r.optional("optional")) p.optional = readBool(*v, r.path("optional"));
  if (auto* v = r.optional("rank")) {
    if (!v->is_string() && !v->is_number_integer() && !v->is_number_unsigned())
      schemaError(r.path("rank"), "expected an integer or an expression, got " + jsonKindName(*v));
    p.rank = ExprOrValue::parse(*v, r.path("rank"));
  }
  if (auto* v = r.optional("shape")) {
    if (!v->is_string() && !v->is_array()) schemaError(r.path("shape"), "expected an expression or a list of them");
    p.shape = ExprOrValue::parseDeep(*v, r.path("shape"));
  }
  const std::vector<std::string> logical = admitted(m, p.dtype);
  const bool int64Only = logical.size() == 1 && logical[0] == "int64";
  if (auto* v = r.optional("storage")) {
    const std::string s = readString(*v, r.path("storage"));
    p.storage = dtypeFromName(s);
    if (!p.storage) schemaError(r.path("storage"), "'" + s + "' is not a WebGPU storage dtype");
    if (logical.empty())
      schemaError(r.path("storage"), "a storage dtype needs a port dtype that is a known dtype or type variable");
    if (int64Only) {
      if (s != "int32" && s != "uint32" && s != "int64")
        schemaError(r.path("storage"), "an int64 port is stored as int64 or projected to int32 or uint32");
    } else if (logical.size() != 1 || logical[0] != s) {
      schemaError(r.path("storage"), "storage " + s + " must equal the logical dtype; only int64 -> int32/uint32 "
                                         "projections exist");
    }
  }
  const bool projected = int64Only && p.storage && *p.storage != DType::Int64;
  if (auto* v = r.optional("narrowing")) {
    const std::string n = readString(*v, r.path("narrowing"));
    if (n != "checked" && n != "saturating") schemaError(r.path("narrowing"), "narrowing is checked or saturating");
    if (output || !projected)
      schemaError(r.path("narrowing"), "narrowing is valid only on an int64 input projected to int32/uint32");
    p.narrowing = n == "checked" ? Narrowing::Checked : Narrowing::Saturating;
  } else if (!output && projected) {
    schemaError(path, "a projected int64 input must declare narrowing: checked or saturating");
  }
  if (auto* v = r.optional("layout")) {
    const std::string l = readString(*v, r.path("layout"));
    if (output) schemaError(r.path("layout"), "an output cannot declare a storage layout");
    if (l != "packed") schemaError(r.path("layout"), "unsupported storage layout '" + l + "' (only \"packed\")");
    if (logical.empty() || std::any_of(logical.begin(), logical.end(), [](const auto& d) { return d != "uint8"; }))
      schemaError(r.path("layout"), "the packed layout needs a port dtype that resolves to uint8 only");
    p.packed = true;
  }
  finishObject(r);
  return p;
}

void readPorts(Manifest& m, const Json& inputs, const Json& outputs) {
  readObject(inputs, "/inputs");
  readObject(outputs, "/outputs");
  for (auto it = inputs.begin(); it != inputs.end(); ++it)
    m.ports.push_back(readPort(m, it.key(), it.value(), jsonPath("/inputs", it.key()), false));
  for (auto it = outputs.begin(); it != outputs.end(); ++it) {
    PortSpec out = readPort(m, it.key(), it.value(), jsonPath("/outputs", it.key()), true);
    auto in = std::find_if(m.ports.begin(), m.ports.end(), [&](const PortSpec& p) { return p.name == out.name; });
    if (in == m.ports.end()) {
      m.ports.push_back(std::move(out));
      continue;
    }
    if (in->dtype != out.dtype || in->storage != out.storage)
      schemaError(out.path, "in/out tensor '" + out.name + "' must declare the same dtype and storage under inputs and outputs");
    in->direction = PortDirection::InOut;
    if (out.shape) in->shape = out.shape;
    if (out.rank) in->rank = out.rank;
  }
  // Outputs after inputs: an InOut port stays where its input stands.
  std::stable_partition(m.ports.begin(), m.ports.end(), [](const PortSpec& p) { return p.isInput(); });
}

void readArgs(Manifest& m, const Json& j) {
  readObject(j, "/args");
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string p = jsonPath("/args", it.key());
    requireIdentifier(it.key(), p, "arg name");
    ObjectReader r(it.value(), p);
    ScalarArgSpec a;
    a.name = it.key();
    a.kind = readString(r.required("kind"), r.path("kind"));
    if (a.kind == "tensor")
      schemaError(r.path("kind"), "kind 'tensor': spec 2.1 declares tensors as inputs/outputs ports, not args");
    if (a.kind != "u32" && a.kind != "i32" && a.kind != "f32" && a.kind != "bool" && a.kind != "string")
      schemaError(r.path("kind"), "unsupported arg kind '" + a.kind + "' (u32, i32, f32, bool or string)");
    if (auto* v = r.optional("required")) a.required = readBool(*v, r.path("required"));
    if (auto* v = r.optional("onnx")) a.onnx = readString(*v, r.path("onnx"));
    if (auto* v = r.optional("description")) a.description = readString(*v, r.path("description"));
    if (auto* v = r.optional("oneOf")) {
      if (a.kind != "string") schemaError(r.path("oneOf"), "oneOf is valid only on a string arg");
      a.oneOf = readStringList(*v, r.path("oneOf"));
      if (a.oneOf.empty()) schemaError(r.path("oneOf"), "oneOf must be a non-empty list");
    }
    for (const char* k : {"semantic", "role", "dtype"})
      if (r.json().contains(k))
        schemaError(r.path(k), std::string("unknown field '") + k +
                                   "': spec 2.1 args are scalars; tensors are inputs/outputs ports");
    finishObject(r);
    m.args.push_back(std::move(a));
  }
}

bool isFiniteScalar(const Json& j) {
  return j.is_null() || j.is_string() || j.is_boolean() || (j.is_number() && std::isfinite(j.get<double>()));
}

void readAttributes(Manifest& m, const Json* attrs, const Json* constraints) {
  if (attrs) {
    readObject(*attrs, "/attributes");
    for (auto it = attrs->begin(); it != attrs->end(); ++it) {
      const std::string p = jsonPath("/attributes", it.key());
      if (it.key().empty()) schemaError(p, "attribute names must be non-empty");
      if (!it.value().is_object())
        schemaError(p, "an attribute is an object {default?, description?}; write {\"default\": " +
                           it.value().dump().substr(0, 60) + "} (a bare value is the seeds' spelling)");
      ObjectReader r(it.value(), p);
      AttributeSpec a;
      a.name = it.key();
      if (auto* v = r.optional("default")) a.defaultValue = *ExprOrValue::literal(*v, r.path("default")).literalValue();
      if (auto* v = r.optional("description")) a.description = readString(*v, r.path("description"));
      finishObject(r);
      m.attributes.push_back(std::move(a));
    }
  }
  if (!constraints) return;
  readObject(*constraints, "/attributeConstraints");
  for (auto it = constraints->begin(); it != constraints->end(); ++it) {
    const std::string p = jsonPath("/attributeConstraints", it.key());
    const AttributeSpec* a = m.findAttribute(it.key());
    if (!a) schemaError(p, "does not name a declared attribute");
    ObjectReader r(it.value(), p);
    AttributeConstraint c;
    if (auto* v = r.optional("required")) c.required = readBool(*v, r.path("required"));
    if (c.required && a->defaultValue) schemaError(r.path("required"), "required is redundant: the attribute has a default");
    if (auto* v = r.optional("values")) {
      readArray(*v, r.path("values"));
      if (v->empty()) schemaError(r.path("values"), "values must be a non-empty array");
      for (size_t i = 0; i < v->size(); ++i) {
        const std::string vp = jsonPath(r.path("values"), i);
        if (!isFiniteScalar((*v)[i])) schemaError(vp, "values must be finite JSON scalars");
        expr::Value x = *ExprOrValue::literal((*v)[i], vp).literalValue();
        if (std::find(c.values.begin(), c.values.end(), x) != c.values.end())
          schemaError(vp, "values contains " + x.repr() + " twice");
        c.values.push_back(std::move(x));
      }
    }
    if (!c.required && c.values.empty()) schemaError(p, "a constraint declares required: true and/or values");
    finishObject(r);
    m.attributeConstraints[it.key()] = std::move(c);
  }
}

std::map<std::string, BindingEntry> readHandles(const Manifest& m, const Json& j) {
  readObject(j, "/bindings");
  std::map<std::string, BindingEntry> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string p = jsonPath("/bindings", it.key());
    requireIdentifier(it.key(), p, "binding handle");
    if (it.value().is_array())
      schemaError(p, "a binding handle is one entry object; a list of entries is the seeds' bindingSets");
    BindingEntry e = readBindingEntry(it.value(), it.key(), p);
    if (e.scratch && !e.elementType && !e.uniform)
      schemaError(p, "names scratch '" + *e.scratch + "' outside a variant, so its elementType cannot default: "
                     "write elementType");
    // Outside a variant the buffer type defaults only for a uniform, a scratch or a port.
    if (!e.buffer && !e.uniform && !e.scratch && !m.findPort(e.arg.value_or(e.name)))
      schemaError(p, "binds '" + e.arg.value_or(e.name) + "', which is neither an input, an output nor an intermediate "
                     "named by scratch, so its buffer type cannot default: write buffer");
    out.emplace(it.key(), std::move(e));
  }
  return out;
}

}  // namespace
}  // namespace spec21

Manifest readSpec21Manifest(const Json& raw) {
  using namespace spec21;
  const Json j = stripComments(raw, "");
  Manifest m;
  m.dialect = Dialect::Spec21;
  m.source = raw;
  ObjectReader r(j, "");
  m.domain = "ai.onnx";
  if (auto* v = r.optional("domain")) m.domain = readString(*v, "/domain");
  if (auto* v = r.optional("name")) m.name = readString(*v, "/name");
  return withContext("in manifest " + m.id(), [&] {
    detail::requireOpId(m.domain, m.name);
    for (const char* k : {"$schema", "onnx"}) r.optional(k);
    if (auto* v = r.optional("conformance")) {
      const std::string c = readString(*v, "/conformance");
      if (c != "internal-lowering" && c != "legacy-default-domain")
        schemaError("/conformance", "invalid conformance '" + c + "' (internal-lowering or legacy-default-domain)");
    }
    if (auto* v = r.optional("description")) m.description = readString(*v, "/description");
    if (auto* v = r.optional("sinceVersion")) m.sinceVersion = readInt(*v, "/sinceVersion");
    if (auto* v = r.optional("typeConstraints")) {
      readObject(*v, "/typeConstraints");
      for (auto it = v->begin(); it != v->end(); ++it) {
        const std::string p = jsonPath("/typeConstraints", it.key());
        requireIdentifier(it.key(), p, "type variable");
        m.typeConstraints[it.key()] = readStringList(it.value(), p);
        if (m.typeConstraints[it.key()].empty()) schemaError(p, "a type constraint must be a non-empty array");
      }
    }
    const Json& inputs = r.required("inputs");
    const Json& outputs = r.required("outputs");
    if (inputs.is_array() || outputs.is_array())
      schemaError(inputs.is_array() ? "/inputs" : "/outputs",
                  "spec 2.1 declares ports as a map name -> {onnx, dtype, ...}, not an array of roles");
    readPorts(m, inputs, outputs);
    if (auto* v = r.optional("args")) readArgs(m, *v);
    readAttributes(m, r.optional("attributes"), r.optional("attributeConstraints"));
    if (auto* v = r.optional("tunables"))
      m.tunables = readTunables(*v, "/tunables");
    TopLevel top;
    top.manifest = &m;
    top.reserved = reservedScopeNames();
    for (const auto& [tv, list] : m.typeConstraints) top.reserved.insert(tv);
    if (auto* v = r.optional("derive")) m.derive = readDerive(*v, "/derive", top.reserved);
    if (auto* v = r.optional("when")) top.when = readWhenList(*v, "/when", "when");
    if (auto* v = r.optional("requires")) top.requirements = readRequires(*v, "/requires");
    if (auto* v = r.optional("bindings")) top.handles = readHandles(m, *v);
    const Json& variants = r.required("variants");
    if (!variants.is_array() || variants.empty()) schemaError("/variants", "variants must be a non-empty list");
    finishObject(r, topLevelHints());
    const std::vector<ExpandedVariant> expanded = expandFamilies(variants);
    for (size_t i = 0; i < expanded.size(); ++i) m.variants.push_back(readVariant(expanded[i], i, top));
    detail::checkModel(m);
    return std::move(m);
  });
}

}  // namespace wgk::package

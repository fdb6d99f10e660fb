// Spec 2.1 pieces shared by the top level and the variants: reserved names, requires, when
// lists, derive maps, tunables, binding entries.
#include <cmath>
#include <cstdio>

#include "package/manifest_checks.h"
#include "package/spec21_internal.h"
#include "wgk/error.h"

namespace wgk::package::spec21 {

using detail::requireElementType;
using detail::requireIdentifier;

const std::set<std::string>& reservedScopeNames() {
  static const std::set<std::string> names = {
      "repeat", "tunables", "dtypes", "logicalDtypes", "tensorDtypes", "ranks", "shapes", "present", "args",
      "attrs", "device", "env", "constants", "derive", "source", "DISPATCH_FOLD_WIDTH", "f16Ok", "ceil",
      "floor", "min", "max", "pow", "ceilDiv", "pow2ceil", "log2ceil", "numel", "dim", "rows", "outer",
      "inner", "prefix", "suffix", "fill", "moveAxis", "permuteShape", "reversedAxes", "broadcastShape",
      "matmulShape", "broadcastable", "sameShape", "hasAxis", "axisValue", "isUniqueIntList", "has",
      "dtypeBytes", "onnxDtypeCode", "pick", "true", "false", "none", "True", "False", "None", "range",
      "loop", "namespace", "dict"};
  return names;
}

const std::set<std::string>& knownFeatures() {
  static const std::set<std::string> f = {"shader-f16",
                                          "subgroups",
                                          "subgroup-size-control",
                                          "chromium-experimental-subgroup-matrix",
                                          "timestamp-query",
                                          "texture-formats-tier1",
                                          "texture-formats-tier2"};
  return f;
}

const std::set<std::string>& knownLimits() {
  static const std::set<std::string> l = {"maxTextureDimension1D",
                                          "maxTextureDimension2D",
                                          "maxTextureDimension3D",
                                          "maxTextureArrayLayers",
                                          "maxBindGroups",
                                          "maxBindGroupsPlusVertexBuffers",
                                          "maxBindingsPerBindGroup",
                                          "maxDynamicUniformBuffersPerPipelineLayout",
                                          "maxDynamicStorageBuffersPerPipelineLayout",
                                          "maxSampledTexturesPerShaderStage",
                                          "maxSamplersPerShaderStage",
                                          "maxStorageBuffersPerShaderStage",
                                          "maxStorageTexturesPerShaderStage",
                                          "maxUniformBuffersPerShaderStage",
                                          "maxUniformBufferBindingSize",
                                          "maxStorageBufferBindingSize",
                                          "minUniformBufferOffsetAlignment",
                                          "minStorageBufferOffsetAlignment",
                                          "maxVertexBuffers",
                                          "maxBufferSize",
                                          "maxVertexAttributes",
                                          "maxVertexBufferArrayStride",
                                          "maxInterStageShaderVariables",
                                          "maxColorAttachments",
                                          "maxColorAttachmentBytesPerSample",
                                          "maxComputeWorkgroupStorageSize",
                                          "maxComputeInvocationsPerWorkgroup",
                                          "maxComputeWorkgroupSizeX",
                                          "maxComputeWorkgroupSizeY",
                                          "maxComputeWorkgroupSizeZ",
                                          "maxComputeWorkgroupsPerDimension",
                                          "maxImmediateSize",
                                          "maxStorageBuffersInVertexStage",
                                          "maxStorageBuffersInFragmentStage",
                                          "maxStorageTexturesInVertexStage",
                                          "maxStorageTexturesInFragmentStage"};
  return l;
}

void finishObject(const ObjectReader& r, const std::map<std::string, std::string>& hints) {
  for (auto it = r.json().begin(); it != r.json().end(); ++it) {
    auto h = hints.find(it.key());
    if (h != hints.end()) schemaError(r.path(it.key()), "unknown field '" + it.key() + "': " + h->second);
  }
  r.finish();
}

std::vector<NamedValue> readDerive(const Json& j, const std::string& path, const std::set<std::string>& reserved) {
  readObject(j, path);
  std::vector<NamedValue> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string p = jsonPath(path, it.key());
    if (it.key() == "$use") schemaError(p, "an unexpanded \"$use\" shared-derive splice; expand shared libraries first");
    requireIdentifier(it.key(), p, "derive name");
    if (reserved.count(it.key()))
      schemaError(p, "derive '" + it.key() + "' would shadow a scope name expressions and templates already bind");
    out.push_back({it.key(), ExprOrValue::parseDeep(it.value(), p)});
  }
  return out;
}

std::vector<ExprOrValue> readWhenList(const Json& j, const std::string& path, const char* key) {
  if (j.is_string())
    schemaError(path, std::string(key) + " is a list of expressions in spec 2.1; wrap the single string in a list");
  if (!j.is_array()) schemaError(path, std::string(key) + " must be a list of expression strings");
  if (j.empty()) schemaError(path, std::string(key) + " must not be an empty list (leave the key out instead)");
  std::vector<ExprOrValue> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string p = jsonPath(path, i);
    if (!j[i].is_string() || j[i].get<std::string>().empty())
      schemaError(p, std::string(key) + " entries must be non-empty expression strings, got " + j[i].dump().substr(0, 60));
    out.push_back(ExprOrValue::parse(j[i], p));
  }
  return out;
}

std::vector<TunableSpec> readTunables(const Json& j, const std::string& path) {
  readObject(j, path);
  std::vector<TunableSpec> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string p = jsonPath(path, it.key());
    requireIdentifier(it.key(), p, "tunable name");
    if (!it.value().is_object())
      schemaError(p, "a tunable is an object {default, description?}; write {\"default\": " +
                         it.value().dump().substr(0, 60) + "}");
    ObjectReader r(it.value(), p);
    const Json& d = r.required("default");
    if (!d.is_number() && !d.is_string() && !d.is_boolean())
      schemaError(r.path("default"), "default must be a number, string or boolean");
    if (d.is_number() && !std::isfinite(d.get<double>())) schemaError(r.path("default"), "default must be finite");
    TunableSpec t{it.key(), *ExprOrValue::literal(d, r.path("default")).literalValue(), ""};
    if (auto* v = r.optional("description")) t.description = readString(*v, r.path("description"));
    finishObject(r);
    out.push_back(std::move(t));
  }
  return out;
}

Requirements readRequires(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  Requirements q;
  if (auto* v = r.optional("features")) {
    q.features = readStringList(*v, r.path("features"));
    for (size_t i = 0; i < q.features.size(); ++i)
      if (!knownFeatures().count(q.features[i]))
        schemaError(jsonPath(r.path("features"), i), "unknown feature '" + q.features[i] + "'");
  }
  if (auto* v = r.optional("limits")) {
    readObject(*v, r.path("limits"));
    for (auto it = v->begin(); it != v->end(); ++it) {
      const std::string p = jsonPath(r.path("limits"), it.key());
      if (!knownLimits().count(it.key())) schemaError(p, "'" + it.key() + "' is not a canonical WebGPU limit name");
      if (!it.value().is_number() || !std::isfinite(it.value().get<double>()))
        schemaError(p, "a limit minimum must be a finite number");
      q.limits[it.key()] = it.value().get<double>();
    }
  }
  if (auto* v = r.optional("subgroupMinSize")) {
    q.subgroupMinSize = readInt(*v, r.path("subgroupMinSize"));
    if (*q.subgroupMinSize < 1) schemaError(r.path("subgroupMinSize"), "must be a positive integer");
  }
  if (auto* v = r.optional("subgroupMatrixConfigs")) {
    readArray(*v, r.path("subgroupMatrixConfigs"));
    if (v->empty()) schemaError(r.path("subgroupMatrixConfigs"), "must be a non-empty array of config patterns");
    for (size_t i = 0; i < v->size(); ++i) {
      ObjectReader c((*v)[i], jsonPath(r.path("subgroupMatrixConfigs"), i));
      SubgroupMatrixConfig cfg;
      for (const char* k : {"componentType", "resultComponentType"})
        if (auto* x = c.optional(k)) {
          const std::string t = readString(*x, c.path(k));
          static const std::set<std::string> types = {"f32", "f16", "u32", "i32", "u8", "i8"};
          if (!types.count(t)) schemaError(c.path(k), "must be one of f32, f16, u32, i32, u8, i8");
          (std::string(k) == "componentType" ? cfg.componentType : cfg.resultComponentType) = t;
        }
      for (const char* k : {"M", "N", "K"})
        if (auto* x = c.optional(k)) {
          const int64_t n = readInt(*x, c.path(k));
          if (n < 1) schemaError(c.path(k), "must be a positive integer");
          (k[0] == 'M' ? cfg.M : k[0] == 'N' ? cfg.N : cfg.K) = n;
        }
      c.finish();
      if (!cfg.componentType && !cfg.resultComponentType && !cfg.M && !cfg.N && !cfg.K)
        schemaError(c.path(), "a pattern must constrain at least one field");
      q.subgroupMatrixConfigs.push_back(cfg);
    }
  }
  finishObject(r);
  return q;
}

Requirements mergeRequires(const Requirements& top, const Requirements& variant, const std::string& path) {
  Requirements out = top;
  for (const auto& f : variant.features)
    if (std::find(out.features.begin(), out.features.end(), f) == out.features.end()) out.features.push_back(f);
  for (const auto& [k, v] : variant.limits) out.limits[k] = out.limits.count(k) ? std::max(out.limits[k], v) : v;
  if (variant.subgroupMinSize)
    out.subgroupMinSize = std::max(variant.subgroupMinSize.value_or(0), top.subgroupMinSize.value_or(0));
  if (!top.subgroupMatrixConfigs.empty() && !variant.subgroupMatrixConfigs.empty())
    schemaError(path, "the variant and the manifest both declare requires.subgroupMatrixConfigs; declare them once");
  if (!variant.subgroupMatrixConfigs.empty()) out.subgroupMatrixConfigs = variant.subgroupMatrixConfigs;
  return out;
}

BindingEntry readBindingEntry(const Json& j, const std::optional<std::string>& handle, const std::string& path) {
  ObjectReader r(j, path);
  BindingEntry e;
  e.path = path;
  std::optional<std::string> name;
  auto nonEmpty = [&](const char* k) -> std::optional<std::string> {
    const Json* v = r.optional(k);
    if (!v) return std::nullopt;
    std::string s = readString(*v, r.path(k));
    if (s.empty()) schemaError(r.path(k), std::string(k) + " must be a non-empty string");
    return s;
  };
  name = nonEmpty("name");
  e.arg = nonEmpty("arg");
  e.scratch = nonEmpty("scratch");
  e.elementType = nonEmpty("elementType");
  std::optional<std::string> structName = nonEmpty("structName");
  e.name = name ? *name : handle ? *handle : e.arg ? *e.arg : e.scratch ? *e.scratch : "";
  if (e.name.empty()) schemaError(path, "an inline binding entry needs a name (name, arg or scratch)");
  requireIdentifier(e.name, r.path("name"), "binding name");
  if (e.arg) requireIdentifier(*e.arg, r.path("arg"), "binding arg");
  if (e.scratch) requireIdentifier(*e.scratch, r.path("scratch"), "binding scratch");
  if (auto* v = r.optional("buffer")) {
    if (v->is_object())
      schemaError(r.path("buffer"), "spec 2.1 writes buffer as a string (\"storage\"), not {type: ...}");
    const std::string t = readString(*v, r.path("buffer"));
    if (t == "read-only-storage")
      e.buffer = BufferType::ReadOnlyStorage;
    else if (t == "storage")
      e.buffer = BufferType::Storage;
    else if (t == "uniform")
      e.buffer = BufferType::Uniform;
    else
      schemaError(r.path("buffer"), "buffer must be read-only-storage, storage or uniform");
  }
  if (auto* v = r.optional("length")) {
    const bool positive = v->is_number_integer() || v->is_number_unsigned();
    const bool ref = v->is_string() && v->get<std::string>().size() > 1 && v->get<std::string>()[0] == '$';
    if ((!positive || v->get<int64_t>() <= 0) && !ref)
      schemaError(r.path("length"), "length must be a positive integer or a $-prefixed derive reference");
    if (ref) {
      const std::string n = v->get<std::string>().substr(1);
      requireIdentifier(n, r.path("length"), "length reference");
      e.length = ExprOrValue::expression(n, r.path("length"));
    } else {
      e.length = ExprOrValue::literal(*v, r.path("length"));
    }
  }
  const bool isUniform = r.json().contains("struct") || e.buffer == BufferType::Uniform;
  if (const Json* s = r.optional("struct")) {
    if (e.buffer && *e.buffer != BufferType::Uniform)
      schemaError(r.path("struct"), "a storage binding takes elementType, not struct fields");
    if (!s->is_array() || s->empty()) schemaError(r.path("struct"), "a uniform binding needs a non-empty struct field list");
    UniformStruct us;
    us.name = structName.value_or("Params");
    requireIdentifier(us.name, r.path("structName"), "struct name");
    for (size_t i = 0; i < s->size(); ++i) {
      ObjectReader f((*s)[i], jsonPath(r.path("struct"), i));
      UniformField field;
      field.name = readString(f.required("name"), f.path("name"));
      requireIdentifier(field.name, f.path("name"), "uniform field name");
      for (const auto& prev : us.fields)
        if (prev.name == field.name) schemaError(f.path("name"), "struct repeats field '" + field.name + "'");
      field.type = readString(f.required("type"), f.path("type"));
      if (field.type != "u32" && field.type != "i32" && field.type != "f32")
        schemaError(f.path("type"), "uniform field type must be u32, i32 or f32, got \"" + field.type + "\"");
      if (auto* v = f.optional("value")) {
        if (!v->is_string() && !v->is_number()) schemaError(f.path("value"), "expected a number or an expression");
        field.value = ExprOrValue::parse(*v, f.path("value"));
      }
      if (auto* v = f.optional("internal")) field.internal = readBool(*v, f.path("internal"));
      field.required = !field.internal;
      if (auto* v = f.optional("required")) field.required = readBool(*v, f.path("required"));
      if (auto* v = f.optional("default")) field.defaultValue = readNumber(*v, f.path("default"));
      finishObject(f);
      us.fields.push_back(std::move(field));
    }
    e.uniform = std::move(us);
  } else if (structName) {
    schemaError(r.path("structName"), "structName belongs to a uniform binding with struct fields");
  }
  if (isUniform && (e.elementType || e.length))
    schemaError(path, "a uniform binding takes struct fields, not elementType/length");
  if (isUniform && !e.uniform) schemaError(r.path("struct"), "a uniform binding requires a non-empty struct field list");
  if (e.elementType) requireElementType(*e.elementType, r.path("elementType"));
  if (r.json().contains("semantic"))
    schemaError(r.path("semantic"), "unknown field 'semantic': spec 2.1 bindings resolve by arg/name and name "
                                    "intermediates with scratch");
  finishObject(r);
  return e;
}

std::string jsNumberText(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == std::floor(d) && std::fabs(d) < 1e21) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", d);
    return std::string(buf) == "-0" ? "0" : buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) {
      std::string s = buf;
      // JavaScript writes exponents as e+21 / e-7 (no leading zeros).
      auto e = s.find('e');
      if (e != std::string::npos) {
        std::string mant = s.substr(0, e), exp = s.substr(e + 1);
        const char sign = exp[0] == '-' ? '-' : '+';
        if (exp[0] == '+' || exp[0] == '-') exp = exp.substr(1);
        exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
        s = mant + "e" + sign + exp;
      }
      return s;
    }
  }
  return std::to_string(d);
}

}  // namespace wgk::package::spec21

// The request half of planning: contract checks, output shapes and dtypes, and the scope frame
// every variant evaluates in (SPEC.md §3 "Scope of an expression", hub-spec-2.1 "Expression scope").
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/shape_text.h"
#include "expr/expression.h"
#include "plan/plan_internal.h"
#include "wgk/error.h"

namespace wgk::plan::detail {

using package::Manifest;
using package::PortSpec;

expr::Value shapeValue(const Shape& s) {
  expr::List l;
  l.reserve(s.size());
  for (int64_t d : s) l.emplace_back(d);
  return expr::Value(std::move(l));
}

int64_t valueToInt(const expr::Value& v, const std::string& what) {
  if (v.isBool() || !v.isNumber())
    throw Error(ErrorCode::Expression, what + " must be an integer, got " + std::string(v.kindName()) + " " + v.repr());
  if (v.isFloat()) {
    const double d = v.asNumber();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e18)
      throw Error(ErrorCode::Expression, what + " must be an integer, got " + v.repr());
  }
  return v.asInt();
}

Shape valueToShape(const expr::Value& v, const std::string& what) {
  if (!v.isList()) throw Error(ErrorCode::Expression, what + " must be a list of dimensions, got " + v.repr());
  Shape s;
  for (const auto& d : v.asList()) {
    const int64_t n = valueToInt(d, what + " dimension");
    if (n < 0) throw Error(ErrorCode::Expression, what + " has a negative dimension: " + v.repr());
    s.push_back(n);
  }
  return s;
}

std::string shortRepr(const expr::Value& v) {
  std::string r = v.repr();
  if (r.size() > 80) r = r.substr(0, 77) + "...";
  return r;
}

DType resolveDType(const std::string& name, const RequestScope& rs, const std::string& what) {
  if (auto it = rs.typeVars.find(name); it != rs.typeVars.end()) return it->second;
  if (auto t = dtypeFromName(name)) return *t;
  throw Error(ErrorCode::Contract, what + " has type " + name + ", which no present input binds");
}

void evaluateDerive(const std::vector<package::NamedValue>& derive, expr::Scope& scope, expr::Map& derived,
                    const std::string& where) {
  for (const auto& d : derive) {
    withContext("in " + where + " derive `" + d.name + "` = `" + d.value.text() + "`", [&] {
      expr::Value v = expr::wholeNumbersAsInts(d.value.evaluate(scope));
      derived[d.name] = v;
      scope.set(d.name, std::move(v));
    });
  }
  if (!derive.empty()) scope.set("derive", expr::Value(derived));
}

namespace {

[[noreturn]] void contract(const std::string& msg) {
  throw Error(ErrorCode::Contract, msg);
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "(none)" : out;
}

// The Hub loader's defaults for limits a profile leaves out (the WebGPU spec's minimums).
const std::map<std::string, uint64_t>& defaultLimits() {
  static const std::map<std::string, uint64_t> d = {
      {"maxTextureDimension1D", 8192},
      {"maxTextureDimension2D", 8192},
      {"maxTextureDimension3D", 2048},
      {"maxTextureArrayLayers", 256},
      {"maxBindGroups", 4},
      {"maxBindGroupsPlusVertexBuffers", 24},
      {"maxBindingsPerBindGroup", 1000},
      {"maxDynamicUniformBuffersPerPipelineLayout", 8},
      {"maxDynamicStorageBuffersPerPipelineLayout", 4},
      {"maxSampledTexturesPerShaderStage", 16},
      {"maxSamplersPerShaderStage", 16},
      {"maxStorageBuffersPerShaderStage", 10},
      {"maxStorageTexturesPerShaderStage", 4},
      {"maxUniformBuffersPerShaderStage", 12},
      {"maxUniformBufferBindingSize", 65536},
      {"maxStorageBufferBindingSize", 134217728},
      {"minUniformBufferOffsetAlignment", 256},
      {"minStorageBufferOffsetAlignment", 256},
      {"maxVertexBuffers", 8},
      {"maxBufferSize", 268435456},
      {"maxVertexAttributes", 16},
      {"maxVertexBufferArrayStride", 2048},
      {"maxInterStageShaderVariables", 16},
      {"maxColorAttachments", 8},
      {"maxColorAttachmentBytesPerSample", 32},
      {"maxComputeInvocationsPerWorkgroup", 256},
      {"maxComputeWorkgroupSizeX", 256},
      {"maxComputeWorkgroupSizeY", 256},
      {"maxComputeWorkgroupSizeZ", 64},
      {"maxComputeWorkgroupStorageSize", 16384},
      {"maxComputeWorkgroupsPerDimension", 65535},
      {"maxImmediateSize", 0}};
  return d;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Numbers of attributeConstraints values compare as float32 (the Hub loader's Math.fround).
bool sameConstraintValue(const expr::Value& a, const expr::Value& b) {
  if (a.isNumber() && b.isNumber() && !a.isBool() && !b.isBool()) {
    const float x = static_cast<float>(a.asNumber()), y = static_cast<float>(b.asNumber());
    return std::isfinite(x) && std::isfinite(y) && x == y;
  }
  return a == b;
}

void checkAttribute(const Manifest& m, const std::string& name, const expr::Value& value) {
  const package::AttributeSpec* spec = m.findAttribute(name);
  if (!spec) {
    std::vector<std::string> known;
    for (const auto& a : m.attributes) known.push_back(a.name);
    contract("unknown attribute '" + name + "' (attributes: " + joinNames(known) + ")");
  }
  if (const expr::Value* def = spec->defaultValue ? &*spec->defaultValue : nullptr) {
    if (def->isNumber() && !value.isNumber())
      contract("attribute '" + name + "' must be a number (default " + def->repr() + "), got " + value.repr());
    if (def->isString() && !value.isString())
      contract("attribute '" + name + "' must be a string (default " + def->repr() + "), got " + value.repr());
  }
  auto c = m.attributeConstraints.find(name);
  if (c == m.attributeConstraints.end()) return;
  if (!c->second.values.empty()) {
    bool ok = false;
    std::string allowed;
    for (const auto& v : c->second.values) {
      ok = ok || sameConstraintValue(v, value);
      allowed += (allowed.empty() ? "" : ", ") + v.repr();
    }
    if (!ok)
      contract("attribute " + name + " = " + value.repr() + " is outside attributeConstraints." + name + ".values [" +
               allowed + "]");
  }
  if ((c->second.min || c->second.max) && value.isNumber()) {
    const double x = value.asNumber();
    if (c->second.min && !(x >= *c->second.min))
      contract(fmt::format("attribute {} = {} is below attributeConstraints.{}.min {}", name, value.repr(), name,
                           *c->second.min));
    if (c->second.max && !(x <= *c->second.max))
      contract(fmt::format("attribute {} = {} is above attributeConstraints.{}.max {}", name, value.repr(), name,
                           *c->second.max));
  }
}

void checkScalarArg(const package::ScalarArgSpec& a, const expr::Value& v) {
  const std::string what = "arg '" + a.name + "' (" + a.kind + ")";
  if (a.kind == "string") {
    if (!v.isString()) contract(what + " must be a string, got " + v.repr());
    if (!a.oneOf.empty() && std::find(a.oneOf.begin(), a.oneOf.end(), v.asString()) == a.oneOf.end())
      contract(what + " must be one of " + joinNames(a.oneOf) + ", got " + v.repr());
    return;
  }
  if (a.kind == "bool") {
    if (!v.isBool()) contract(what + " must be true or false, got " + v.repr());
    return;
  }
  if (v.isBool() || !v.isNumber() || !std::isfinite(v.asNumber())) contract(what + " must be a finite number, got " + v.repr());
  const double d = v.asNumber();
  if (a.kind == "u32" && (d != std::floor(d) || d < 0 || d > 4294967295.0))
    contract(what + " must be an integer in [0, 4294967295], got " + v.repr());
  if (a.kind == "i32" && (d != std::floor(d) || d < -2147483648.0 || d > 2147483647.0))
    contract(what + " must be an integer in [-2147483648, 2147483647], got " + v.repr());
}

std::string_view tunableKind(const expr::Value& v) {
  return v.isNumber() ? std::string_view("number") : v.kindName();
}

// The logical dtype of an output port (the Hub loader's order): none declared -> float32; a dtype;
// a type variable bound by an input; `to` of an ai.onnx op whose constraint requires it; the only
// dtype a constraint allows; the first input whose dtype the constraint allows.
DType outputDType(const Manifest& m, const PortSpec& p, const RequestScope& rs, const expr::Map& attrs,
                  const std::map<std::string, DType>& inputDtypes) {
  if (p.dtype.empty()) return DType::Float32;
  if (auto d = dtypeFromName(p.dtype)) return *d;
  if (auto it = rs.logicalTypeVars.find(p.dtype); it != rs.logicalTypeVars.end()) return it->second;
  if (!m.typeConstraints.count(p.dtype))
    contract("output '" + p.name + "' has type " + p.dtype + ", which no present input binds");
  const auto& allowed = m.typeConstraints.at(p.dtype);
  auto toConstraint = m.attributeConstraints.find("to");
  if (m.domain == "ai.onnx" && toConstraint != m.attributeConstraints.end() && toConstraint->second.required) {
    auto to = attrs.find("to");
    std::optional<DType> d;
    if (to != attrs.end() && to->second.isNumber())
      for (DType t : {DType::Float32, DType::Float16, DType::Int32, DType::Uint32, DType::Int8, DType::Uint8,
                      DType::Int16, DType::Int64, DType::Bool})
        if (onnxDtypeCode(t) == to->second.asNumber()) d = t;
    if (!d) contract("attribute to=" + (to == attrs.end() ? std::string("(absent)") : to->second.repr()) +
                     " is not a supported ONNX TensorProto dtype code");
    if (std::find(allowed.begin(), allowed.end(), dtypeName(*d)) == allowed.end())
      contract("attribute to gives " + std::string(dtypeName(*d)) + ", which type " + p.dtype + " does not allow");
    return *d;
  }
  if (allowed.size() == 1) return parseDType(allowed[0]);
  for (const PortSpec* in : m.inputs())
    if (auto it = inputDtypes.find(in->name); it != inputDtypes.end())
      if (std::find(allowed.begin(), allowed.end(), dtypeName(it->second)) != allowed.end()) return it->second;
  contract("output '" + p.name + "' has type " + p.dtype + ", which no present input binds");
}

// Binds a port's dtype against the request: type variables, concrete dtypes, int64 projections.
void bindPortDType(const Manifest& m, const PortSpec& p, DType logical, RequestScope& rs,
                   std::map<std::string, std::string>& boundBy) {
  const std::string dt(dtypeName(logical));
  if (p.fixedDtype && *p.fixedDtype != logical)
    contract("input '" + p.name + "' must be " + std::string(dtypeName(*p.fixedDtype)) + " (args." + p.name +
             ".dtype), got " + dt);
  if (p.dtype.empty()) return;
  const DType storage = p.storage ? *p.storage : logical;
  auto tc = m.typeConstraints.find(p.dtype);
  if (tc != m.typeConstraints.end() || m.freeTypeVars.count(p.dtype)) {
    if (tc != m.typeConstraints.end() && std::find(tc->second.begin(), tc->second.end(), dt) == tc->second.end())
      contract("input '" + p.name + "' has dtype " + dt + ", but type " + p.dtype + " allows only " +
               joinNames(tc->second));
    auto [bound, fresh] = rs.logicalTypeVars.emplace(p.dtype, logical);
    if (!fresh && bound->second != logical)
      contract("type " + p.dtype + " is bound to " + std::string(dtypeName(bound->second)) + " by '" +
               boundBy[p.dtype] + "' but to " + dt + " by '" + p.name + "'");
    if (fresh) {
      boundBy[p.dtype] = p.name;
      rs.typeVars[p.dtype] = storage;
    }
  } else if (p.dtype != dt) {
    contract("input '" + p.name + "' must be " + p.dtype + " (its dtype), got " + dt);
  } else {
    // A concrete dtype is a name in dtypes too (dtypes.float32 = "f32"), as in the Hub loader,
    // which also makes every port of that dtype share one storage (two int64 ports with
    // different projections conflict there, and so here).
    auto [bound, fresh] = rs.typeVars.emplace(p.dtype, storage);
    if (!fresh && bound->second != storage)
      contract("input '" + p.name + "' is stored as " + std::string(dtypeName(storage)) + ", but the " + p.dtype +
               " ports bound so far are stored as " + std::string(dtypeName(bound->second)));
    rs.logicalTypeVars.emplace(p.dtype, logical);
  }
}

void checkInputs(const Manifest& m, const PlanRequest& req) {
  std::vector<std::string> inputNames;
  for (const PortSpec* p : m.inputs()) inputNames.push_back(p->name);
  for (const auto& [name, t] : req.inputs) {
    const PortSpec* p = m.findPort(name);
    if (!p) contract("unknown input '" + name + "' (inputs: " + joinNames(inputNames) + ")");
    if (!p->isInput())
      contract("'" + name + "' is an output; outputs are derived from the manifest, not passed (inputs: " +
               joinNames(inputNames) + ")");
    if (req.absent.count(name)) contract("input '" + name + "' is both given and marked absent");
  }
  for (const auto& name : req.absent) {
    const PortSpec* p = m.findPort(name);
    if (!p || !p->isInput())
      contract("--absent names unknown input '" + name + "' (inputs: " + joinNames(inputNames) + ")");
    if (!p->optional) contract("input '" + name + "' is required and cannot be absent");
  }
  for (const PortSpec* p : m.inputs())
    if (!p->optional && !req.inputs.count(p->name))
      contract("missing required input '" + p->name + "'" + (p->onnx.empty() ? "" : " (" + p->onnx + ")"));
  for (const auto& [name, v] : req.args) {
    const package::ScalarArgSpec* a = m.findArg(name);
    if (!a) {
      std::vector<std::string> known;
      for (const auto& x : m.args) known.push_back(x.name);
      contract("unknown arg '" + name + "' (args: " + joinNames(known) + ")");
    }
    checkScalarArg(*a, v);
  }
  for (const auto& a : m.args)
    if (a.required && !req.args.count(a.name)) contract("missing required arg '" + a.name + "' (" + a.kind + ")");
}

// The manifest derive entries the output shapes read (transitively), in declaration order.
std::vector<const package::NamedValue*> derivesForOutputs(const Manifest& m) {
  std::set<std::string> needed, todo;
  for (const PortSpec* p : m.outputs())
    if (p->shape)
      for (const auto& n : p->shape->referencedNames()) todo.insert(n.substr(0, n.find('.')));
  while (!todo.empty()) {
    const std::string n = *todo.begin();
    todo.erase(todo.begin());
    for (const auto& d : m.derive)
      if (d.name == n && needed.insert(n).second)
        for (const auto& r : d.value.referencedNames()) todo.insert(r.substr(0, r.find('.')));
  }
  std::vector<const package::NamedValue*> out;
  for (const auto& d : m.derive)
    if (needed.count(d.name)) out.push_back(&d);
  return out;
}

}  // namespace

uint64_t deviceLimit(const DeviceProfile& d, const std::string& name) {
  if (auto it = d.limits.find(name); it != d.limits.end()) return it->second;
  if (auto it = defaultLimits().find(name); it != defaultLimits().end()) return it->second;
  return d.limit(name);  // neither: throws NotFound naming it
}

std::vector<SubgroupMatrixConfig> hubSubgroupMatrixConfigs(const DeviceProfile& d) {
  static const std::set<std::string> types = {"f32", "f16", "u32", "i32", "u8", "i8"};
  std::vector<std::pair<std::string, SubgroupMatrixConfig>> keyed;
  for (const auto& c : d.subgroupMatrixConfigs)
    if (types.count(c.componentType) && types.count(c.resultComponentType))
      keyed.emplace_back(fmt::format("{}-{}-{}x{}x{}", c.componentType, c.resultComponentType, c.M, c.N, c.K), c);
  // The loader sorts with localeCompare; on these keys (lower-case types, digits, '-', 'x') that
  // is byte order.
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<SubgroupMatrixConfig> out;
  for (auto& [k, c] : keyed) out.push_back(std::move(c));
  return out;
}

expr::Value deviceValue(const DeviceProfile& d) {
  expr::Map limits;
  for (const auto& [k, v] : defaultLimits()) limits[k] = expr::Value(static_cast<int64_t>(v));
  for (const auto& [k, v] : d.limits)
    limits[k] = expr::Value(static_cast<int64_t>(std::min<uint64_t>(v, static_cast<uint64_t>(INT64_MAX))));
  if (limits["maxComputeWorkgroupsPerDimension"].asInt() > 65535)
    limits["maxComputeWorkgroupsPerDimension"] = expr::Value(int64_t{65535});
  expr::List features, wgsl, numerics;
  for (const auto& f : d.features) features.emplace_back(f);
  for (const auto& f : d.wgslLanguageFeatures) wgsl.emplace_back(f);
  for (const auto& f : d.numerics) numerics.emplace_back(f);
  expr::Map info{{"vendor", expr::Value("")},
                 {"architecture", expr::Value("")},
                 {"device", expr::Value("")},
                 {"description", expr::Value("")},
                 {"isFallbackAdapter", expr::Value(d.isFallbackAdapter)}};
  for (const auto& [k, v] : d.adapterInfoStrings)
    info[k] = expr::Value(k == "vendor" || k == "architecture" ? lower(v) : v);
  for (const auto& [k, v] : d.adapterInfoNumbers) info[k] = expr::Value(v);
  if (!d.subgroupMatrixConfigs.empty()) {
    expr::List configs;
    for (const auto& c : hubSubgroupMatrixConfigs(d))
      configs.emplace_back(expr::Map{{"componentType", expr::Value(c.componentType)},
                                     {"resultComponentType", expr::Value(c.resultComponentType)},
                                     {"M", expr::Value(static_cast<int64_t>(c.M))},
                                     {"N", expr::Value(static_cast<int64_t>(c.N))},
                                     {"K", expr::Value(static_cast<int64_t>(c.K))}});
    info["subgroupMatrixConfigs"] = expr::Value(std::move(configs));
  }
  // Lists: `device.features.has("x")` and `"x" in device.features` both work on them.
  return expr::Value(expr::Map{{"limits", expr::Value(std::move(limits))},
                               {"features", expr::Value(std::move(features))},
                               {"wgslLanguageFeatures", expr::Value(std::move(wgsl))},
                               {"numerics", expr::Value(std::move(numerics))},
                               {"adapterInfo", expr::Value(std::move(info))}});
}

expr::Map effectiveTunables(const Manifest& m, const PlanRequest& req) {
  expr::Map tunables;
  for (const auto& t : m.tunables) tunables[t.name] = expr::wholeNumbersAsInts(t.value);
  for (const auto& [name, v] : req.tunables) {
    auto it = tunables.find(name);
    if (it == tunables.end()) {
      std::vector<std::string> known;
      for (const auto& t : m.tunables) known.push_back(t.name);
      throw Error(ErrorCode::InvalidArgument, "tunable override '" + name + "' is not a tunable of " + m.id() +
                                                  " (tunables: " + joinNames(known) + ")");
    }
    if (tunableKind(it->second) != tunableKind(v))
      throw Error(ErrorCode::InvalidArgument, "tunable override '" + name + "' = " + v.repr() + " is a " +
                                                  std::string(tunableKind(v)) + ", but tunable '" + name + "' of " +
                                                  m.id() + " is a " + std::string(tunableKind(it->second)) + " (" +
                                                  it->second.repr() + ")");
    it->second = expr::wholeNumbersAsInts(v);
  }
  return tunables;
}

namespace {

// Binds each present input's dtype to its type variable and checks its rank and dimensions;
// returns the inputs' dtypes by port name.
std::map<std::string, DType> bindInputs(const Manifest& m, const PlanRequest& req, RequestScope& rs) {
  std::map<std::string, std::string> boundBy;  // type var -> port that bound it
  std::map<std::string, DType> inputDtypes;
  for (const PortSpec* p : m.inputs()) {
    auto it = req.inputs.find(p->name);
    if (it == req.inputs.end()) continue;
    const TensorDesc& t = it->second;
    bindPortDType(m, *p, t.dtype, rs, boundBy);
    inputDtypes[p->name] = t.dtype;
    if (p->rankChecked && p->rank && p->rank->literalValue() && p->rank->literalValue()->isInt() &&
        static_cast<int64_t>(t.shape.size()) != p->rank->literalValue()->asInt())
      contract("input '" + p->name + "' must have rank " + p->rank->literalValue()->repr() + " (its rank), got shape " +
               shapeText(t.shape));
    for (int64_t d : t.shape)
      if (d < 0) contract("input '" + p->name + "' has a negative dimension: " + shapeText(t.shape));
  }
  return inputDtypes;
}

// The manifest's attribute defaults overridden by the request's, each checked; required ones present.
expr::Map requestAttributes(const Manifest& m, const PlanRequest& req) {
  expr::Map attrs;
  for (const auto& a : m.attributes)
    if (a.defaultValue) attrs[a.name] = expr::wholeNumbersAsInts(*a.defaultValue);
  for (const auto& [name, v] : req.attrs) {
    checkAttribute(m, name, v);
    attrs[name] = expr::wholeNumbersAsInts(v);
  }
  for (const auto& [name, c] : m.attributeConstraints)
    if (c.required && !attrs.count(name)) contract("missing required attribute '" + name + "'");
  return attrs;
}

// What the scope says of the tensors: shapes, ranks, tensorDtypes and present, by scope name.
struct TensorMaps {
  expr::Map shapes, ranks, tensorDtypes, present;

  void add(const PortSpec& p, DType storage, const Shape& s) {
    for (const std::string& key : p.scopeNames) {
      shapes[key] = shapeValue(s);
      ranks[key] = expr::Value(static_cast<int64_t>(s.size()));
      tensorDtypes[key] = expr::Value(std::string(dtypeName(storage)));
      present[key] = expr::Value(true);
    }
  }
  void publish(expr::Scope& scope) const {
    scope.set("shapes", expr::Value(shapes));
    scope.set("ranks", expr::Value(ranks));
    scope.set("tensorDtypes", expr::Value(tensorDtypes));
    scope.set("present", expr::Value(present));
  }
};

// The inputs' tensors, the args and the type variables, as the scope names them.
void publishInputs(const Manifest& m, const PlanRequest& req, const DeviceProfile& device, expr::Map attrs,
                   expr::Map tunables, TensorMaps& tensors, RequestScope& rs) {
  for (const PortSpec* p : m.inputs()) {
    auto it = req.inputs.find(p->name);
    if (it != req.inputs.end()) {
      tensors.add(*p, p->storage ? *p->storage : it->second.dtype, it->second.shape);
    } else {
      for (const std::string& key : p->scopeNames) tensors.present[key] = expr::Value(false);
    }
  }
  expr::Map dtypes, logical, args;
  for (const auto& a : m.args) tensors.present[a.name] = expr::Value(req.args.count(a.name) > 0);
  for (const auto& [name, v] : req.args) args[name] = expr::wholeNumbersAsInts(v);
  for (const auto& [tv, dt] : rs.typeVars) dtypes[tv] = expr::Value(std::string(wgslStorageScalar(dt)));
  for (const auto& [tv, dt] : rs.logicalTypeVars) logical[tv] = expr::Value(std::string(dtypeName(dt)));
  tensors.publish(rs.scope);
  rs.scope.set("dtypes", expr::Value(dtypes));
  rs.scope.set("logicalDtypes", expr::Value(logical));
  rs.scope.set("attrs", expr::Value(std::move(attrs)));
  rs.scope.set("args", expr::Value(args));
  rs.scope.set("tunables", expr::Value(std::move(tunables)));
  rs.scope.set("device", deviceValue(device));
  rs.scope.set("DISPATCH_FOLD_WIDTH", expr::Value(int64_t{65535}));
  rs.scope.set("repeat", expr::Value(expr::Map{}));
  rs.scope.set("derive", expr::Value(expr::Map{}));
}

// One output's dtype and shape, from the inputs' scope (`pre`: with the derives outputs read).
PlannedOutput planOutput(const Manifest& m, const PortSpec& p, const PlanRequest& req, const RequestScope& rs,
                         const expr::Map& attrs, const std::map<std::string, DType>& inputDtypes,
                         const expr::Scope& pre) {
  PlannedOutput out;
  out.name = p.name;
  withContext("while deriving output '" + p.name + "'", [&] {
    out.dtype = outputDType(m, p, rs, attrs, inputDtypes);
    if (p.fixedDtype && *p.fixedDtype != out.dtype)
      contract("output '" + p.name + "' derives dtype " + std::string(dtypeName(out.dtype)) + " but args." +
               p.name + ".dtype is " + std::string(dtypeName(*p.fixedDtype)));
    try {
      if (p.shape) {
        out.shape = valueToShape(p.shape->evaluate(pre), "output shape `" + p.shape->text() + "`");
      } else if (p.isInput() && req.inputs.count(p.name)) {
        out.shape = req.inputs.at(p.name).shape;
      } else if (auto given = req.outputs.find(p.name); given != req.outputs.end()) {
        out.shape = given->second.shape;
      } else {
        contract("output '" + p.name + "' has no shape expression: pass it as an explicit destination");
      }
      if (p.rankChecked && p.rank && !p.isInput()) {
        const int64_t rank = valueToInt(p.rank->evaluate(pre), "output rank `" + p.rank->text() + "`");
        if (rank != static_cast<int64_t>(out.shape.size()))
          contract("output '" + p.name + "' rank `" + p.rank->text() + "` is " + std::to_string(rank) +
                   " but its shape `" + (p.shape ? p.shape->text() : "") + "` is " + shapeText(out.shape));
      }
    } catch (Error& e) {
      // The inputs do not give this output a shape: a contract violation, not a manifest bug.
      // Recoded, not rebuilt from what(): the context chain stays a chain.
      if (e.code() == ErrorCode::Expression) throw e.recoded(ErrorCode::Contract, e.message());
      throw;
    }
  });
  return out;
}

// Outputs: shapes from the inputs' scope (and the derives they read), then published so the
// manifest derive can read shapes.<output>.
void planOutputs(const Manifest& m, const PlanRequest& req, const expr::Map& attrs,
                 const std::map<std::string, DType>& inputDtypes, TensorMaps& tensors, RequestScope& rs) {
  expr::Scope pre(&rs.scope);
  for (const auto* d : derivesForOutputs(m)) {
    try {
      pre.set(d->name, expr::wholeNumbersAsInts(d->value.evaluate(pre)));
    } catch (const Error&) {
      // Left out: an output shape that needs it fails below, naming its own expression.
    }
  }
  for (const PortSpec* p : m.outputs()) {
    PlannedOutput out = planOutput(m, *p, req, rs, attrs, inputDtypes, pre);
    if (!p->isInput()) tensors.add(*p, p->storage ? *p->storage : out.dtype, out.shape);
    rs.outputs.push_back(std::move(out));
  }
  tensors.publish(rs.scope);
}

// Manifest derive, in order. Failures are kept per name (see RequestScope).
void evaluateDerives(const Manifest& m, RequestScope& rs) {
  for (const auto& d : m.derive) {
    try {
      expr::Value v = expr::wholeNumbersAsInts(d.value.evaluate(rs.scope));
      rs.derived[d.name] = v;
      rs.scope.set(d.name, std::move(v));
      rs.scope.set("derive", expr::Value(rs.derived));
    } catch (const Error& e) {
      rs.deriveErrors[d.name] = "derive `" + d.name + "` = `" + d.value.text() + "` failed: " + e.message();
    }
  }
}

}  // namespace

void buildRequestScope(const Manifest& m, const PlanRequest& req, const DeviceProfile& device, RequestScope& rs) {
  // Tunables first: a bad override is reported before anything is evaluated.
  expr::Map tunables = effectiveTunables(m, req);
  checkInputs(m, req);
  const std::map<std::string, DType> inputDtypes = bindInputs(m, req, rs);
  const expr::Map attrs = requestAttributes(m, req);
  TensorMaps tensors;
  publishInputs(m, req, device, attrs, std::move(tunables), tensors, rs);
  planOutputs(m, req, attrs, inputDtypes, tensors, rs);
  evaluateDerives(m, rs);
}

}  // namespace wgk::plan::detail

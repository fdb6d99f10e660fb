// The request half of planning: contract checks, output shapes and dtypes, and the scope frame
// every variant evaluates in (SPEC.md §3 "Scope of an expression").
#include <cmath>

#include <fmt/format.h>

#include "expr/expression.h"
#include "plan/plan_internal.h"
#include "wgk/error.h"

namespace wgk::plan::detail {

using package::ArgRole;
using package::ArgSpec;
using package::Manifest;

expr::Value shapeValue(const Shape& s) {
  expr::List l;
  l.reserve(s.size());
  for (int64_t d : s) l.emplace_back(d);
  return expr::Value(std::move(l));
}

int64_t valueToInt(const expr::Value& v, const std::string& what) {
  if (v.isBool() || !v.isNumber())
    throw Error(ErrorCode::Expression,
                what + " must be an integer, got " + std::string(v.kindName()) + " " + v.repr());
  if (v.isFloat()) {
    const double d = v.asNumber();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e18)
      throw Error(ErrorCode::Expression, what + " must be an integer, got " + v.repr());
  }
  return v.asInt();
}

Shape valueToShape(const expr::Value& v, const std::string& what) {
  if (!v.isList())
    throw Error(ErrorCode::Expression, what + " must be a list of dimensions, got " + v.repr());
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

std::string shapeText(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

DType resolveDType(const std::string& name, const RequestScope& rs, const std::string& what) {
  if (auto it = rs.typeVars.find(name); it != rs.typeVars.end()) return it->second;
  if (auto t = dtypeFromName(name)) return *t;
  throw Error(ErrorCode::Contract, what + " has type " + name + ", which no present input binds");
}

void evaluateDerive(const std::vector<package::NamedValue>& derive, expr::Scope& scope,
                    const std::string& where) {
  for (const auto& d : derive) {
    withContext("in " + where + " derive `" + d.name + "` = `" + d.value.text() + "`",
                [&] { scope.set(d.name, d.value.evaluate(scope)); });
  }
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

expr::Value deviceValue(const DeviceProfile& d) {
  expr::Map limits;
  for (const auto& [k, v] : d.limits)
    limits[k] = expr::Value(static_cast<int64_t>(std::min<uint64_t>(v, static_cast<uint64_t>(INT64_MAX))));
  expr::List features, wgsl, numerics;
  for (const auto& f : d.features) features.emplace_back(f);
  for (const auto& f : d.wgslLanguageFeatures) wgsl.emplace_back(f);
  for (const auto& f : d.numerics) numerics.emplace_back(f);
  expr::Map info;
  for (const auto& [k, v] : d.adapterInfoStrings) info[k] = expr::Value(v);
  for (const auto& [k, v] : d.adapterInfoNumbers) info[k] = expr::Value(v);
  // Lists: `device.features.has("x")` and `"x" in device.features` both work on them.
  return expr::Value(expr::Map{{"limits", expr::Value(std::move(limits))},
                               {"features", expr::Value(std::move(features))},
                               {"wgslLanguageFeatures", expr::Value(std::move(wgsl))},
                               {"numerics", expr::Value(std::move(numerics))},
                               {"adapterInfo", expr::Value(std::move(info))}});
}

void checkAttribute(const Manifest& m, const std::string& name, const expr::Value& value) {
  const expr::Value* def = m.attributeDefault(name);
  if (!def) {
    std::vector<std::string> known;
    for (const auto& a : m.attributes) known.push_back(a.name);
    contract("unknown attribute '" + name + "' (attributes: " + joinNames(known) + ")");
  }
  if (def->isNumber() && !value.isNumber())
    contract("attribute '" + name + "' must be a number (default " + def->repr() + "), got " + value.repr());
  if (def->isString() && !value.isString())
    contract("attribute '" + name + "' must be a string (default " + def->repr() + "), got " + value.repr());
  auto c = m.attributeConstraints.find(name);
  if (c == m.attributeConstraints.end()) return;
  if (!c->second.values.empty()) {
    bool ok = false;
    std::string allowed;
    for (const auto& v : c->second.values) {
      ok = ok || v == value;
      allowed += (allowed.empty() ? "" : ", ") + v.repr();
    }
    if (!ok)
      contract("attribute " + name + " = " + value.repr() + " is outside attributeConstraints." + name +
               ".values [" + allowed + "]");
  }
  if ((c->second.min || c->second.max) && value.isNumber()) {
    const double x = value.asNumber();
    if (c->second.min && x < *c->second.min)
      contract(fmt::format("attribute {} = {} is below attributeConstraints.{}.min {}", name, value.repr(),
                           name, *c->second.min));
    if (c->second.max && x > *c->second.max)
      contract(fmt::format("attribute {} = {} is above attributeConstraints.{}.max {}", name, value.repr(),
                           name, *c->second.max));
  }
}

// The kind of value a tunable holds, for comparing an override with the manifest's value.
std::string_view tunableKind(const expr::Value& v) {
  return v.isNumber() ? std::string_view("number") : v.kindName();
}

}  // namespace

expr::Map effectiveTunables(const Manifest& m, const PlanRequest& req) {
  expr::Map tunables;
  for (const auto& t : m.tunables) tunables[t.name] = *t.value.literalValue();
  for (const auto& [name, v] : req.tunables) {
    auto it = tunables.find(name);
    if (it == tunables.end()) {
      std::vector<std::string> known;
      for (const auto& t : m.tunables) known.push_back(t.name);
      throw Error(ErrorCode::InvalidArgument, "tunable override '" + name + "' is not a tunable of " +
                                                  m.id() + " (tunables: " + joinNames(known) + ")");
    }
    if (tunableKind(it->second) != tunableKind(v))
      throw Error(ErrorCode::InvalidArgument,
                  "tunable override '" + name + "' = " + v.repr() + " is a " + std::string(tunableKind(v)) +
                      ", but tunable '" + name + "' of " + m.id() + " is a " +
                      std::string(tunableKind(it->second)) + " (" + it->second.repr() + ")");
    it->second = v;
  }
  return tunables;
}

void buildRequestScope(const Manifest& m, const PlanRequest& req, const DeviceProfile& device,
                       RequestScope& rs) {
  // Tunables first: a bad override is reported before anything is evaluated.
  expr::Map tunables = effectiveTunables(m, req);

  std::vector<std::string> inputNames, outputNames;
  for (const auto& a : m.args) (a.role == ArgRole::Input ? inputNames : outputNames).push_back(a.name);

  // Which inputs are present, and are they known?
  for (const auto& [name, t] : req.inputs) {
    const ArgSpec* a = m.findArg(name);
    if (!a) contract("unknown input '" + name + "' (inputs: " + joinNames(inputNames) + ")");
    if (a->role == ArgRole::Output)
      contract("'" + name + "' is an output; outputs are derived from the manifest, not passed (inputs: " +
               joinNames(inputNames) + ")");
    if (req.absent.count(name)) contract("input '" + name + "' is both given and marked absent");
  }
  for (const auto& name : req.absent) {
    const ArgSpec* a = m.findArg(name);
    if (!a || a->role != ArgRole::Input)
      contract("--absent names unknown input '" + name + "' (inputs: " + joinNames(inputNames) + ")");
    if (a->required) contract("input '" + name + "' is required and cannot be absent");
  }
  for (const auto& a : m.args)
    if (a.role == ArgRole::Input && a.required && !req.inputs.count(a.name))
      contract("missing required input '" + a.name + "' (" + a.semantic + ")");

  // Dtypes, type variables and ranks.
  std::map<std::string, std::string> boundBy;  // type var -> arg that bound it
  for (const auto& a : m.args) {
    if (a.role != ArgRole::Input) continue;
    auto it = req.inputs.find(a.name);
    if (it == req.inputs.end()) continue;
    const TensorDesc& t = it->second;
    const package::InputSpec* in = m.findInput(a.semantic);
    const std::string dt(dtypeName(t.dtype));
    if (a.dtype && *a.dtype != dt)
      contract("input '" + a.name + "' must be " + *a.dtype + " (args." + a.name + ".dtype), got " + dt);
    if (auto tc = m.typeConstraints.find(in->dtype); tc != m.typeConstraints.end()) {
      if (std::find(tc->second.begin(), tc->second.end(), dt) == tc->second.end())
        contract("input '" + a.name + "' has dtype " + dt + ", but type " + in->dtype + " allows only " +
                 joinNames(tc->second));
      auto [bound, fresh] = rs.typeVars.emplace(in->dtype, t.dtype);
      if (!fresh && bound->second != t.dtype)
        contract("type " + in->dtype + " is bound to " + std::string(dtypeName(bound->second)) + " by '" +
                 boundBy[in->dtype] + "' but to " + dt + " by '" + a.name + "'");
      if (fresh) boundBy[in->dtype] = a.name;
    } else if (in->dtype != dt) {
      contract("input '" + a.name + "' must be " + in->dtype + " (inputs[].dtype), got " + dt);
    }
    if (in->rank && static_cast<int64_t>(t.shape.size()) != *in->rank)
      contract("input '" + a.name + "' must have rank " + std::to_string(*in->rank) +
               " (inputs[].rank), got shape " + shapeText(t.shape));
    for (int64_t d : t.shape)
      if (d < 0) contract("input '" + a.name + "' has a negative dimension: " + shapeText(t.shape));
  }

  // Attributes: defaults, then the request's values (checked).
  expr::Map attrs;
  for (const auto& a : m.attributes) attrs[a.name] = *a.value.literalValue();
  for (const auto& [name, v] : req.attrs) {
    checkAttribute(m, name, v);
    attrs[name] = v;
  }

  expr::Map shapes, ranks, tensorDtypes, present, dtypes;
  auto addTensor = [&](const ArgSpec& a, DType dt, const Shape& s) {
    for (const std::string* key : {&a.name, &a.semantic}) {
      shapes[*key] = shapeValue(s);
      ranks[*key] = expr::Value(static_cast<int64_t>(s.size()));
      tensorDtypes[*key] = expr::Value(std::string(dtypeName(dt)));
      present[*key] = expr::Value(true);
    }
  };
  for (const auto& a : m.args) {
    if (a.role != ArgRole::Input) continue;
    auto it = req.inputs.find(a.name);
    if (it != req.inputs.end()) {
      addTensor(a, it->second.dtype, it->second.shape);
    } else {
      present[a.name] = expr::Value(false);
      present[a.semantic] = expr::Value(false);
    }
  }
  for (const auto& [tv, dt] : rs.typeVars) dtypes[tv] = expr::Value(std::string(wgslScalar(dt)));

  auto publish = [&] {
    rs.scope.set("shapes", expr::Value(shapes));
    rs.scope.set("ranks", expr::Value(ranks));
    rs.scope.set("tensorDtypes", expr::Value(tensorDtypes));
    rs.scope.set("present", expr::Value(present));
  };
  publish();
  rs.scope.set("dtypes", expr::Value(dtypes));
  rs.scope.set("attrs", expr::Value(attrs));
  rs.scope.set("tunables", expr::Value(std::move(tunables)));
  rs.scope.set("device", deviceValue(device));

  // Outputs: shapes from the inputs' scope, then published so derive can read shapes.<output>.
  for (const auto& a : m.args) {
    if (a.role != ArgRole::Output) continue;
    const package::OutputSpec* o = m.findOutput(a.semantic);
    PlannedOutput out;
    out.name = a.name;
    withContext("deriving output '" + a.name + "'", [&] {
      out.dtype = resolveDType(o->dtype, rs, "output '" + a.name + "'");
      if (a.dtype && *a.dtype != dtypeName(out.dtype))
        contract("output '" + a.name + "' derives dtype " + std::string(dtypeName(out.dtype)) + " but args." +
                 a.name + ".dtype is " + *a.dtype);
      try {
        out.shape = valueToShape(o->shape.evaluate(rs.scope), "output shape `" + o->shape.text() + "`");
        if (o->rank) {
          const int64_t rank =
              valueToInt(o->rank->evaluate(rs.scope), "output rank `" + o->rank->text() + "`");
          if (rank != static_cast<int64_t>(out.shape.size()))
            contract("output '" + a.name + "' rank `" + o->rank->text() + "` is " + std::to_string(rank) +
                     " but its shape `" + o->shape.text() + "` is " + shapeText(out.shape));
        }
      } catch (Error& e) {
        // The inputs do not give this output a shape: a contract violation, not a manifest bug.
        if (e.code() == ErrorCode::Expression) throw Error(ErrorCode::Contract, e.what());
        throw;
      }
    });
    addTensor(a, out.dtype, out.shape);
    rs.outputs.push_back(std::move(out));
  }
  publish();

  // Manifest derive, in order. Failures are kept per name (see RequestScope).
  for (const auto& d : m.derive) {
    try {
      rs.scope.set(d.name, d.value.evaluate(rs.scope));
    } catch (const Error& e) {
      rs.deriveErrors[d.name] = "derive `" + d.name + "` = `" + d.value.text() + "` failed: " + e.message();
    }
  }
}

}  // namespace wgk::plan::detail

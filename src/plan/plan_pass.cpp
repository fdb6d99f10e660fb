// The chosen variant's passes: repeat groups expanded, and per pass the derive, bindings (with
// uniform values and bytes), WGSL declarations, dispatch and the rendered shader.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "expr/expression.h"
#include "package/budgets.h"
#include "package/manifest_checks.h"
#include "plan/plan_internal.h"
#include "templates/template.h"
#include "wgk/error.h"

namespace wgk::plan::detail {

using package::BufferType;
using package::Dispatch;
using package::PassSpec;

namespace {

constexpr int64_t kMaxRepeat = 65535;
using package::kMaxPassesPerCall;
using package::kMaxPipelinesPerCall;

// Passes a list of nodes yields at least: its plain passes (a nested group may repeat zero times).
size_t directPasses(const std::vector<package::PassNode>& nodes) {
  return static_cast<size_t>(
      std::count_if(nodes.begin(), nodes.end(), [](const auto& n) { return !n.isGroup; }));
}

// "$name": the string value of `name` in the pass scope, which must be a WGSL element type.
std::string elementType(const std::string& written, const expr::Scope& scope, const std::string& what) {
  if (!written.starts_with("$")) return written;
  const std::string name = written.substr(1);
  const expr::Value* v = scope.lookup(name);
  if (!v) throw Error(ErrorCode::Manifest, what + " elementType names $" + name + ", which is not defined");
  if (!v->isString())
    throw Error(ErrorCode::Manifest, what + " elementType $" + name + " is " + std::string(v->kindName()) + " " +
                                         shortRepr(*v) + ", not a string");
  if (!package::detail::isWgslElementType(v->asString()))
    throw Error(ErrorCode::Manifest, what + " elementType $" + name + " = '" + v->asString().substr(0, 60) +
                                         "' is not a WGSL element type");
  return v->asString();
}

PlannedBinding planUniform(const package::BindingSpec& b, const expr::Scope& scope, const PlanRequest& req,
                           bool zeroFilled) {
  PlannedBinding pb;
  pb.kind = package::ResourceKind::Uniform;
  pb.structName = b.uniform->name;
  std::vector<package::UniformField> fields;
  std::vector<expr::Value> values;
  for (const auto& f : b.uniform->fields) {
    expr::Value value;
    if (zeroFilled) {
      value = expr::Value(int64_t{0});
    } else if (f.value) {
      value = withContext("in uniform field " + f.name + " = `" + f.value->text() + "`",
                          [&] { return f.value->evaluate(scope); });
    } else if (auto a = req.args.find(f.name); a != req.args.end()) {
      value = a->second;
    } else if (f.defaultValue) {
      value = expr::Value(*f.defaultValue);
    } else if (f.required) {
      throw Error(ErrorCode::Contract, "uniform field " + b.uniform->name + "." + f.name +
                                           " has no value: no expression, no arg '" + f.name + "', no default");
    } else {
      value = expr::Value(int64_t{0});
    }
    pb.uniforms.emplace_back(f.name, value);
    pb.uniformTypes.push_back(f.type);
    package::UniformField copy = f;
    fields.push_back(std::move(copy));
    values.push_back(std::move(value));
  }
  pb.uniformBytes = packUniforms(fields, values, b.uniform->name);
  // An integer field shows the integer it was packed as (a float expression such as `n / 4` would
  // otherwise print as `count = 16777216.0`); packUniforms has checked that the value is integral.
  for (size_t i = 0; i < pb.uniforms.size(); ++i)
    if (pb.uniformTypes[i] != "f32")
      pb.uniforms[i].second = expr::Value(detail::valueToInt(pb.uniforms[i].second, pb.uniforms[i].first));
  return pb;
}

std::array<uint64_t, 3> gridCounts(const Dispatch& d, const expr::Scope& scope, uint64_t maxPerDimension) {
  std::array<uint64_t, 3> out{1, 1, 1};
  const std::optional<package::ExprOrValue>* axes[3] = {&d.x, &d.y, &d.z};
  for (int i = 0; i < 3; ++i) {
    if (!*axes[i]) continue;
    const auto& e = **axes[i];
    const int64_t n = valueToInt(e.evaluate(scope), fmt::format("dispatch {} `{}`", "xyz"[i], e.text()));
    if (n < 0) throw Error(ErrorCode::Contract, fmt::format("dispatch {} is negative: {}", "xyz"[i], n));
    if (static_cast<uint64_t>(n) > maxPerDimension)
      throw Error(ErrorCode::Unsupported,
                  fmt::format("dispatch {} = {} exceeds maxComputeWorkgroupsPerDimension ({}); clamp it "
                              "(min(..., {})) and stride over the rest, or fold into y/z",
                              "xyz"[i], n, maxPerDimension, maxPerDimension));
    out[i] = static_cast<uint64_t>(n);
  }
  return out;
}

void planDispatch(const Dispatch& d, const expr::Scope& scope, const DeviceProfile& device, PlannedPass& out) {
  const uint64_t maxDim = std::min<uint64_t>(deviceLimit(device, "maxComputeWorkgroupsPerDimension"), 65535);
  if (d.form == Dispatch::Form::Grid) {
    out.workgroups = gridCounts(d, scope, maxDim);
    if (out.workgroups[0] == 0 || out.workgroups[1] == 0 || out.workgroups[2] == 0) {
      out.skipped = true;
      return;
    }
    for (int i = 0; i < 3; ++i) out.dispatch[i] = static_cast<uint32_t>(out.workgroups[i]);
    return;
  }
  uint64_t x = 0, z = 1;
  if (d.form == Dispatch::Form::Threads) {
    const int64_t threads = valueToInt(d.threads->evaluate(scope), "dispatch threads `" + d.threads->text() + "`");
    const int64_t wgs =
        valueToInt(d.workgroupSize->evaluate(scope), "dispatch workgroupSize `" + d.workgroupSize->text() + "`");
    if (threads < 0) throw Error(ErrorCode::Contract, "dispatch threads is negative: " + std::to_string(threads));
    if (wgs < 1) throw Error(ErrorCode::Contract, "dispatch workgroupSize must be >= 1, got " + std::to_string(wgs));
    x = (static_cast<uint64_t>(threads) + wgs - 1) / wgs;
  } else {
    const int64_t wg = valueToInt(d.workgroups->evaluate(scope), "dispatch workgroups `" + d.workgroups->text() + "`");
    const int64_t zz = d.z ? valueToInt(d.z->evaluate(scope), "dispatch z `" + d.z->text() + "`") : 1;
    if (wg < 0 || zz < 0) throw Error(ErrorCode::Contract, fmt::format("negative workgroup count ({}, z {})", wg, zz));
    x = static_cast<uint64_t>(wg);
    z = static_cast<uint64_t>(zz);
  }
  out.workgroups = {x, 1, z};
  if (x == 0 || z == 0) {
    out.skipped = true;
    return;
  }
  out.dispatch = foldDispatch(x, z, deviceLimit(device, "maxComputeWorkgroupsPerDimension"), &out.folded,
                              /*balanced=*/d.form == Dispatch::Form::Threads);
}

bool allOutputsEmpty(const RequestScope& rs) {
  if (rs.outputs.empty()) return false;
  for (const auto& o : rs.outputs)
    if (numel(o.shape) != 0) return false;
  return true;
}

struct Expander {
  const package::Package& pkg;
  const expr::Scope& variantScope;
  const expr::Map& derived;
  const RequestScope& rs;
  const PlanRequest& req;
  const DeviceProfile& device;
  const PlanOptions& options;
  std::vector<PlannedPass> out;
  std::set<size_t> shaders;  // hashes of the distinct rendered shaders: one pipeline each

  static Error tooManyPasses() {
    // One bind group and one uniform buffer each: 65,535 of them crashed the Vulkan driver.
    return Error(ErrorCode::Contract,
                 fmt::format("the call would run more than {} passes (package::kMaxPassesPerCall; one bind "
                             "group each)",
                             kMaxPassesPerCall));
  }

  void add(PlannedPass pass) {
    if (!pass.wgsl.empty() && shaders.insert(std::hash<std::string>{}(pass.wgsl)).second &&
        shaders.size() > kMaxPipelinesPerCall)
      throw Error(ErrorCode::Contract,
                  fmt::format("the call would use more than {} distinct shaders (compute "
                              "pipelines; package::kMaxPipelinesPerCall)",
                              kMaxPipelinesPerCall));
    out.push_back(std::move(pass));
  }

  void expand(const std::vector<package::PassNode>& nodes, const expr::Map& repeat, const std::string& prefix) {
    for (const auto& n : nodes) {
      if (!n.isGroup) {
        if (out.size() >= kMaxPassesPerCall) throw tooManyPasses();
        add(withContext("in pass " + prefix + n.pass.id, [&] {
          return planPass(pkg, n.pass, prefix + n.pass.id, variantScope, derived, expr::Value(repeat), rs, req,
                          device, options);
        }));
        continue;
      }
      expr::Scope countScope(&variantScope);
      countScope.set("repeat", expr::Value(repeat));
      const int64_t count = withContext("in repeat group " + prefix + n.groupId, [&] {
        return valueToInt(n.count.evaluate(countScope), "repeat count `" + n.count.text() + "`");
      });
      if (count < 0 || count > kMaxRepeat)
        throw Error(ErrorCode::Contract, fmt::format("repeat group {} count is {}; it must be in [0, {}]",
                                                     prefix + n.groupId, count, kMaxRepeat));
      // Refused before the first repetition is planned when its plain passes alone are too many.
      if (uint64_t(count) * directPasses(n.children) > kMaxPassesPerCall - out.size())
        throw tooManyPasses().with(fmt::format("repeat group {} repeats {} passes {} times",
                                               prefix + n.groupId, directPasses(n.children), count));
      for (int64_t i = 0; i < count; ++i) {
        expr::Map inner = repeat;
        inner["index"] = expr::Value(i);
        inner["count"] = expr::Value(count);
        inner[n.index] = expr::Value(i);
        inner[n.index + "_count"] = expr::Value(count);
        expand(n.children, inner, fmt::format("{}{}[{}].", prefix, n.groupId, i));
      }
    }
  }
};

}  // namespace

PlannedPass planPass(const package::Package& pkg, const PassSpec& ps, const std::string& id,
                     const expr::Scope& variantScope, const expr::Map& derived, const expr::Value& repeat,
                     const RequestScope& rs, const PlanRequest& req, const DeviceProfile& device,
                     const PlanOptions& options) {
  PlannedPass out;
  out.id = id;
  out.name = ps.name;
  out.shader = ps.shader;
  out.submitAfter = ps.submitAfter;
  out.viewAlias = ps.viewAlias;
  out.subgroupCollectivesWidth = ps.subgroupCollectivesWidth;
  expr::Scope scope(&variantScope);
  scope.set("repeat", repeat);
  // Type variables are bare names in a pass (`$T`, `{{ T }}`), below any derive of that name.
  for (const auto& [tv, dt] : rs.typeVars)
    if (!variantScope.lookup(tv)) scope.set(tv, expr::Value(std::string(wgslStorageScalar(dt))));
  expr::Map passDerived = derived;
  evaluateDerive(ps.derive, scope, passDerived, "pass " + ps.id);
  const bool empty = allOutputsEmpty(rs);

  for (size_t i = 0; i < ps.bindings.size(); ++i) {
    const package::BindingSpec& b = ps.bindings[i];
    const std::string what = "binding '" + b.name + "'";
    PlannedBinding pb = withContext("in " + what, [&] {
      if (b.type == BufferType::Uniform) return planUniform(b, scope, req, empty);
      PlannedBinding t;
      t.kind = b.kind;
      if (b.kind == package::ResourceKind::Tensor) {
        const package::PortSpec* port = pkg.manifest().findPort(b.resource);
        if (port->direction == package::PortDirection::Input && !req.inputs.count(b.resource))
          throw Error(ErrorCode::Contract, "the pass binds input '" + b.resource + "', which is absent");
      }
      t.resource = b.resource;
      t.elementType = elementType(b.elementType, scope, what);
      if (b.length) {
        t.length = valueToInt(b.length->evaluate(scope), what + " length `" + b.length->text() + "`");
        if (*t.length <= 0)
          throw Error(ErrorCode::Contract,
                      what + " has array length " + std::to_string(*t.length) + "; it must be positive");
      }
      return t;
    });
    pb.binding = static_cast<uint32_t>(i);
    pb.name = b.name;
    pb.type = b.type;
    out.bindings.push_back(std::move(pb));
  }
  out.declarations = resourceDeclarations(out.bindings);
  for (const auto& p : ps.profile)
    out.profile.emplace_back(p.name, withContext("in profile " + p.name, [&] { return p.value.evaluate(scope); }));

  if (empty) {
    out.skipped = true;  // every output is empty: nothing to compute (the Hub loader's rule)
  } else {
    withContext("in dispatch", [&] { planDispatch(ps.dispatch, scope, device, out); });
  }
  if (options.renderShaders && !out.skipped) {
    const expr::Value* deviceV = scope.lookup("device");
    scope.set("env", expr::Value(expr::Map{
                         {"wgsl", expr::Value(expr::Map{{"resourceDeclarations", expr::Value(out.declarations)}})},
                         {"device", deviceV ? *deviceV : expr::Value()}}));
    withContext("while rendering " + ps.shader + " for pass " + id, [&] {
      std::string wgsl = pkg.renderShader(ps.shader, scope);
      // A template that declares no bindings itself gets the generated declarations on top.
      if (wgsl.find("@binding(") == std::string::npos) wgsl = out.declarations + "\n" + wgsl;
      out.wgsl = templates::addEnableDirectives(wgsl);
    });
  }
  return out;
}

std::vector<PlannedPass> planPasses(const package::Package& pkg, const package::VariantSpec& v,
                                    const expr::Scope& variantScope, const expr::Map& derived, const RequestScope& rs,
                                    const PlanRequest& req, const DeviceProfile& device, const PlanOptions& options) {
  Expander e{pkg, variantScope, derived, rs, req, device, options, {}};
  e.expand(v.passes, expr::Map{}, "");
  if (e.out.empty())
    throw Error(ErrorCode::Manifest, "variant " + v.id + " expands to zero passes; an eligible request must keep at "
                                                         "least one (empty outputs keep zero-dispatch passes)");
  return std::move(e.out);
}

}  // namespace wgk::plan::detail

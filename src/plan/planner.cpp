// Variant choice (requires, when, demoteWhen, priority) and the chosen variant's constants,
// intermediates and passes.
#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "expr/expression.h"
#include "plan/plan_internal.h"
#include "templates/template.h"
#include "wgk/error.h"

namespace wgk::plan {

using namespace detail;
using package::BufferType;
using package::ExprOrValue;
using package::Manifest;
using package::VariantSpec;

namespace {

struct Candidate {
  const VariantSpec* spec = nullptr;
  std::unique_ptr<expr::Scope> scope;  // request frame + variant derive + constants
  VariantVerdict verdict;
};

// "normalizedRows=512, tunables.SPLIT_MAX_ROWS=256": the names a clause read, with their values.
std::string namesAndValues(const expr::Expression& e, const expr::Scope& scope, const RequestScope& rs) {
  std::string out;
  for (const auto& name : e.referencedNames()) {
    const expr::Value* v = expr::lookupPath(scope, name);
    std::string item;
    if (v && !v->isFunction())
      item = name + "=" + shortRepr(*v);
    else if (!v && rs.deriveErrors.count(name))
      item = name + " unavailable (" + rs.deriveErrors.at(name) + ")";
    if (!item.empty()) out += (out.empty() ? "" : ", ") + item;
  }
  return out;
}

// Derived names visible to a variant (its own derive shadows the manifest's), for explanations.
using DeriveIndex = std::map<std::string, const expr::Expression*>;

// The top-level conjuncts of an expression's text: "a and (b or c) and d" -> {a, (b or c), d}.
// Only a pure `and` chain is split (an `or`, `if` or `else` at depth 0 binds looser than `and`,
// so splitting there would change the meaning); otherwise the whole text is the one conjunct.
std::vector<std::string> topLevelConjuncts(const std::string& src) {
  std::vector<std::string> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    const char ch = src[i];
    if (quote) {
      if (ch == '\\')
        ++i;
      else if (ch == quote)
        quote = 0;
      continue;
    }
    if (ch == '"' || ch == '\'')
      quote = ch;
    else if (ch == '(' || ch == '[' || ch == '{')
      ++depth;
    else if (ch == ')' || ch == ']' || ch == '}')
      --depth;
    if (depth != 0 || !(std::isalpha(static_cast<unsigned char>(ch)) || ch == '_')) continue;
    if (i > 0 &&
        (std::isalnum(static_cast<unsigned char>(src[i - 1])) || src[i - 1] == '_' || src[i - 1] == '.'))
      continue;
    size_t j = i;
    while (j < src.size() && (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
    const std::string word = src.substr(i, j - i);
    if (word == "or" || word == "if" || word == "else") return {src};
    if (word == "and") {
      parts.push_back(src.substr(start, i - start));
      start = j;
    }
    i = j - 1;
  }
  parts.push_back(src.substr(start));
  for (auto& part : parts) {
    const size_t b = part.find_first_not_of(" \t\n"), e = part.find_last_not_of(" \t\n");
    part = b == std::string::npos ? std::string() : part.substr(b, e - b + 1);
  }
  return parts;
}

// Why a false boolean expression is false: its first false top-level conjunct with the values it
// read. A conjunct that is just a derived name is followed into its definition (a few levels),
// so the message reaches the clause of the contract that failed, e.g. "via lastAxisOk -> baseOk
// -> normalizationShapeOk: `broadcastable(shapes.scale, shapes.X)` is false (shapes.scale=[3], ...)".
// Empty when nothing more specific than the expression itself can be said.
std::string whyFalse(const std::string& source, const expr::Scope& scope, const RequestScope& rs,
                     const DeriveIndex& derives, std::string via, int depth) {
  for (const std::string& part : topLevelConjuncts(source)) {
    try {
      const expr::Expression e = expr::Expression::parse(part);
      const expr::Value v = e.evaluate(scope);
      if (!v.isBool() || v.asBool()) continue;
      auto d = derives.find(part);
      if (d != derives.end() && depth < 6)
        return whyFalse(d->second->source(), scope, rs, derives, via + (via.empty() ? "" : " -> ") + part,
                        depth + 1);
      if (via.empty() && part == source) return {};
      const std::string nv = namesAndValues(e, scope, rs);
      return (via.empty() ? "" : "via " + via + ": ") + "`" + part + "` is false" +
             (nv.empty() ? "" : " (" + nv + ")");
    } catch (const Error&) {
      // A part that does not evaluate on its own: say nothing rather than something wrong.
    }
  }
  return via.empty() ? std::string() : "via " + via;
}

// Evaluates a clause to exactly true/false; a non-bool or an evaluation error gives `reason`.
// With `derives`, a false clause's reason also names the innermost failing conjunct (whyFalse).
std::optional<bool> evaluateClause(const ExprOrValue& c, const expr::Scope& scope, const RequestScope& rs,
                                   const std::string& label, std::string& reason,
                                   const DeriveIndex* derives = nullptr) {
  const std::string text = c.isExpression() ? "`" + c.text() + "`" : c.text();
  expr::Value v;
  try {
    v = c.evaluate(scope);
  } catch (const Error& e) {
    reason = label + " " + text + " failed: " + e.message();
    if (c.expression())
      for (const auto& name : c.expression()->referencedNames())
        if (!expr::lookupPath(scope, name) && rs.deriveErrors.count(name))
          reason += " (" + rs.deriveErrors.at(name) + ")";
    return std::nullopt;
  }
  if (!v.isBool()) {
    reason = label + " " + text + " gave " + std::string(v.kindName()) + " " + shortRepr(v) +
             ", not true or false";
    return std::nullopt;
  }
  if (!v.asBool()) {
    reason = label + " " + text + " is false";
    if (c.expression()) {
      std::string nv = namesAndValues(*c.expression(), scope, rs);
      if (!nv.empty()) reason += " (" + nv + ")";
      if (derives) {
        const std::string why = whyFalse(c.text(), scope, rs, *derives, "", 0);
        if (!why.empty()) reason += "; " + why;
      }
    }
  }
  return v.asBool();
}

void evaluateConstants(const Manifest& m, const VariantSpec& v, expr::Scope& scope) {
  expr::Map constants;
  auto evalOne = [&](const package::NamedValue& c, const std::string& where) {
    withContext("in " + where + " constant `" + c.name + "` = `" + c.value.text() + "`", [&] {
      expr::Value value = c.value.evaluate(scope);
      scope.set(c.name, value);
      constants[c.name] = std::move(value);
    });
  };
  // Variant constants win over the manifest's of the same name.
  for (const auto& c : m.constants) {
    bool overridden =
        std::any_of(v.constants.begin(), v.constants.end(), [&](const auto& x) { return x.name == c.name; });
    if (!overridden) evalOne(c, "manifest");
  }
  for (const auto& c : v.constants) evalOne(c, "variant " + v.id);
  scope.set("constants", expr::Value(std::move(constants)));
}

void judge(const Manifest& m, Candidate& c, const RequestScope& rs, const DeviceProfile& device) {
  const VariantSpec& v = *c.spec;
  c.verdict.id = v.id;
  c.verdict.priority = v.priority;
  for (const auto& f : v.requiredFeatures)
    if (!device.hasFeature(f)) {
      c.verdict.reason = "requires feature " + f + ", which the device lacks";
      return;
    }
  c.scope = std::make_unique<expr::Scope>(&rs.scope);
  for (const auto& d : v.derive) {
    try {
      c.scope->set(d.name, d.value.evaluate(*c.scope));
    } catch (const Error& e) {
      c.verdict.reason = "derive `" + d.name + "` = `" + d.value.text() + "` failed: " + e.message();
      return;
    }
  }
  DeriveIndex derives;
  for (const auto* list : {&m.derive, &v.derive})
    for (const auto& d : *list)
      if (d.value.expression()) derives[d.name] = d.value.expression();
  for (size_t i = 0; i < v.when.size(); ++i) {
    std::string reason;
    auto ok = evaluateClause(v.when[i], *c.scope, rs, "when[" + std::to_string(i) + "]", reason, &derives);
    if (!ok || !*ok) {
      c.verdict.reason = reason;
      return;
    }
  }
  try {
    evaluateConstants(m, v, *c.scope);
  } catch (const Error& e) {
    c.verdict.reason = e.what();
    return;
  }
  for (size_t i = 0; i < v.demoteWhen.size(); ++i) {
    std::string reason;
    auto holds =
        evaluateClause(v.demoteWhen[i], *c.scope, rs, "demoteWhen[" + std::to_string(i) + "]", reason);
    if (!holds) {
      c.verdict.reason = reason;
      return;
    }
    if (*holds) {
      c.verdict.demoted = true;
      const auto* e = v.demoteWhen[i].expression();
      std::string nv = e ? namesAndValues(*e, *c.scope, rs) : "";
      c.verdict.reason = "demoted: demoteWhen[" + std::to_string(i) + "] `" + v.demoteWhen[i].text() +
                         "` holds" + (nv.empty() ? "" : " (" + nv + ")");
      break;  // one reason to demote is enough
    }
  }
  c.verdict.eligible = true;
}

std::string verdictList(const std::vector<Candidate>& cs) {
  std::string out;
  for (const auto& c : cs)
    out += fmt::format(
        "\n  {} (priority {}): {}", c.verdict.id, c.verdict.priority,
        c.verdict.eligible ? (c.verdict.demoted ? c.verdict.reason : "eligible") : c.verdict.reason);
  return out;
}

const std::string& constantString(const expr::Scope& scope, const std::string& name,
                                  const std::string& what) {
  const expr::Value* v = expr::lookupPath(scope, "constants." + name);
  if (!v) throw Error(ErrorCode::Manifest, what + " names constant $" + name + ", which is not defined");
  if (!v->isString())
    throw Error(ErrorCode::Manifest, what + " names constant $" + name + ", which is " +
                                         std::string(v->kindName()) + " " + v->repr() + ", not a string");
  return v->asString();
}

PlannedPass planPass(const package::Package& pkg, const VariantSpec& v, const package::PassSpec& ps,
                     const expr::Scope& variantScope, const PlanRequest& req, const DeviceProfile& device,
                     const PlanOptions& options) {
  const Manifest& m = pkg.manifest();
  PlannedPass out;
  out.id = ps.id;
  out.name = ps.name;
  out.shader = ps.shader;
  expr::Scope scope(&variantScope);
  evaluateDerive(ps.derive, scope, "pass " + ps.id);
  if (ps.hasSource) {
    expr::Map source;
    for (const auto& in : ps.sourceInputs)
      withContext("in source input `" + in.name + "` = `" + in.value.text() + "`",
                  [&] { source[in.name] = in.value.evaluate(scope); });
    scope.set("source", expr::Value(std::move(source)));
  }

  const auto& set = m.bindingSets.at(ps.bindings);
  for (size_t i = 0; i < set.size(); ++i) {
    const package::BindingSpec& b = set[i];
    PlannedBinding pb;
    pb.binding = static_cast<uint32_t>(i);
    pb.name = b.name;
    pb.type = b.type;
    const std::string what = "binding '" + b.name + "' of set '" + ps.bindings + "'";
    withContext("in " + what, [&] {
      if (b.type == BufferType::Uniform) {
        pb.kind = BindingKind::Uniform;
        pb.structName = b.uniform->name;
        std::vector<expr::Value> values;
        for (const auto& f : b.uniform->fields) {
          expr::Value value = withContext("in uniform field " + f.name + " = `" + f.value.text() + "`",
                                          [&] { return f.value.evaluate(scope); });
          pb.uniforms.emplace_back(f.name, value);
          pb.uniformTypes.push_back(f.type);
          values.push_back(std::move(value));
        }
        pb.uniformBytes = packUniforms(b.uniform->fields, values, b.uniform->name);
        return;
      }
      if (b.arg) {
        pb.kind = BindingKind::Tensor;
        pb.resource = *b.arg;
        const package::ArgSpec* a = m.findArg(*b.arg);
        if (a->role == package::ArgRole::Input && !req.inputs.count(*b.arg))
          throw Error(ErrorCode::Contract,
                      "variant " + v.id + " binds input '" + *b.arg + "', which is absent");
      } else {
        pb.kind = BindingKind::Intermediate;
        pb.resource = b.semantic;
      }
      pb.elementType = b.elementType.starts_with("$")
                           ? constantString(scope, b.elementType.substr(1), what + " elementType")
                           : b.elementType;
      if (b.lengthConstant) {
        const expr::Value* lv = expr::lookupPath(scope, "constants." + *b.lengthConstant);
        if (!lv)
          throw Error(ErrorCode::Manifest, what + " length names undefined constant $" + *b.lengthConstant);
        pb.length = valueToInt(*lv, what + " length $" + *b.lengthConstant);
      } else if (b.length) {
        pb.length = valueToInt(b.length->evaluate(scope), what + " length `" + b.length->text() + "`");
      }
      if (pb.length && *pb.length <= 0)
        throw Error(ErrorCode::Contract,
                    what + " has array length " + std::to_string(*pb.length) + "; it must be positive");
    });
    out.bindings.push_back(std::move(pb));
  }
  out.declarations = resourceDeclarations(out.bindings);
  scope.set("env",
            expr::Value(expr::Map{
                {"wgsl", expr::Value(expr::Map{{"resourceDeclarations", expr::Value(out.declarations)}})}}));

  withContext("in dispatch", [&] {
    const auto& d = ps.dispatch;
    uint64_t x = 0, z = 1;
    if (d.threads) {
      const int64_t threads =
          valueToInt(d.threads->evaluate(scope), "dispatch threads `" + d.threads->text() + "`");
      const int64_t wgs = valueToInt(d.workgroupSize->evaluate(scope),
                                     "dispatch workgroupSize `" + d.workgroupSize->text() + "`");
      if (threads < 0)
        throw Error(ErrorCode::Contract, "dispatch threads is negative: " + std::to_string(threads));
      if (wgs < 1)
        throw Error(ErrorCode::Contract, "dispatch workgroupSize must be >= 1, got " + std::to_string(wgs));
      x = (static_cast<uint64_t>(threads) + wgs - 1) / wgs;
    } else {
      const int64_t wg =
          valueToInt(d.workgroups->evaluate(scope), "dispatch workgroups `" + d.workgroups->text() + "`");
      const int64_t zz = d.z ? valueToInt(d.z->evaluate(scope), "dispatch z `" + d.z->text() + "`") : 1;
      if (wg < 0 || zz < 0)
        throw Error(ErrorCode::Contract, fmt::format("negative workgroup count ({}, z {})", wg, zz));
      x = static_cast<uint64_t>(wg);
      z = static_cast<uint64_t>(zz);
    }
    out.workgroups = {x, 1, z};
    if (x == 0 || z == 0) {
      out.skipped = true;
      return;
    }
    out.dispatch = foldDispatch(x, z, device.limit("maxComputeWorkgroupsPerDimension"), &out.folded,
                                /*balanced=*/d.threads.has_value());
  });

  if (options.renderShaders && !out.skipped) {
    withContext("rendering " + ps.shader + " for pass " + ps.id, [&] {
      const templates::Template& t = pkg.shaderTemplate(ps.shader);
      std::string wgsl = t.render(scope, pkg.includeResolver());
      // A template that declares no bindings itself gets the generated declarations on top.
      if (wgsl.find("@binding(") == std::string::npos) wgsl = out.declarations + "\n" + wgsl;
      out.wgsl = templates::addEnableDirectives(wgsl);
    });
  }
  return out;
}

}  // namespace

Planner::Planner(std::shared_ptr<const package::Package> package) : package_(std::move(package)) {
  if (!package_) throw Error(ErrorCode::InvalidArgument, "Planner needs a package");
}

namespace {

// Every variant judged against one request: the request frame and a verdict (and scope) per variant.
// The frame is heap-held because the candidates' scopes point into it.
struct Judged {
  std::unique_ptr<RequestScope> rs = std::make_unique<RequestScope>();
  std::vector<Candidate> cs;

  const Candidate* find(const std::string& id) const {
    for (const auto& c : cs)
      if (c.verdict.id == id) return &c;
    return nullptr;
  }
};

Judged judgeAll(const Manifest& m, const PlanRequest& req, const DeviceProfile& device) {
  Judged j;
  buildRequestScope(m, req, device, *j.rs);
  j.cs.resize(m.variants.size());
  for (size_t i = 0; i < m.variants.size(); ++i) {
    j.cs[i].spec = &m.variants[i];
    judge(m, j.cs[i], *j.rs, device);
  }
  return j;
}

// "WORKGROUP_SIZE=128, X=1": overrides as the plan text shows them.
std::string tunablesText(const std::map<std::string, expr::Value>& t) {
  std::string out;
  for (const auto& [name, v] : t) out += (out.empty() ? "" : ", ") + name + "=" + v.repr();
  return out;
}

}  // namespace

Plan Planner::plan(const PlanRequest& request, const DeviceProfile& device,
                   const PlanOptions& options) const {
  const Manifest& m = package_->manifest();
  return withContext("planning " + m.id(), [&] {
    Judged j = judgeAll(m, request, device);
    const PlanRequest* used = &request;
    // A preference with tunables is one tuned pair: when the preferred variant is not eligible with
    // those tunables, plan as if there were no preference at all (manifest tunables, priority).
    PlanRequest withoutPreference;
    std::string preferenceIgnored;
    if (request.forcedVariant.empty() && !request.preferredVariant.empty()) {
      const Candidate* c = j.find(request.preferredVariant);
      if (!c || !c->verdict.eligible) {
        preferenceIgnored = "preferred variant '" + request.preferredVariant + "'" +
                            (request.tunables.empty() ? "" : " with " + tunablesText(request.tunables)) +
                            (c ? " is not eligible: " + c->verdict.reason : " is not a variant of " + m.id());
        if (!request.tunables.empty()) {
          withoutPreference = request;
          withoutPreference.preferredVariant.clear();
          withoutPreference.tunables.clear();
          j = judgeAll(m, withoutPreference, device);
          used = &withoutPreference;
        }
      }
    }
    const PlanRequest& req = *used;
    const std::vector<Candidate>& cs = j.cs;
    const RequestScope& rs = *j.rs;

    Plan plan;
    plan.package = m.id();
    for (const auto& c : cs) plan.variants.push_back(c.verdict);
    plan.outputs = rs.outputs;
    plan.preferenceIgnored = preferenceIgnored;
    for (const auto& [name, v] : req.tunables) {
      auto t =
          std::find_if(m.tunables.begin(), m.tunables.end(), [&](const auto& x) { return x.name == name; });
      if (t == m.tunables.end() || !(*t->value.literalValue() == v)) plan.tunables[name] = v;
    }

    const Candidate* chosen = nullptr;
    if (!req.forcedVariant.empty()) {
      const Candidate* c = j.find(req.forcedVariant);
      if (!c) {
        std::string ids;
        for (const auto& v : m.variants) ids += (ids.empty() ? "" : ", ") + v.id;
        throw Error(ErrorCode::InvalidArgument,
                    "unknown variant '" + req.forcedVariant + "' (variants: " + ids + ")");
      }
      if (!c->verdict.eligible)
        throw Error(ErrorCode::NoVariant,
                    "forced variant '" + req.forcedVariant + "' is not eligible" +
                        (plan.tunables.empty() ? "" : " with " + tunablesText(plan.tunables)) + ": " +
                        c->verdict.reason + "\nall variants:" + verdictList(cs));
      chosen = c;
      plan.selectedBy = "forced";
    }
    if (!chosen && !req.preferredVariant.empty()) {
      const Candidate* c = j.find(req.preferredVariant);
      if (c && c->verdict.eligible) {
        chosen = c;
        plan.selectedBy = "tuning";
      }
    }
    if (!chosen) {
      // Highest priority among undemoted eligible variants; demoted ones only when no other is left.
      for (bool allowDemoted : {false, true}) {
        for (const auto& c : cs)
          if (c.verdict.eligible && c.verdict.demoted == allowDemoted &&
              (!chosen || c.verdict.priority > chosen->verdict.priority))
            chosen = &c;
        if (chosen) break;
      }
      if (!chosen)
        throw Error(ErrorCode::NoVariant,
                    "no variant of " + m.id() + " is eligible" +
                        (plan.tunables.empty() ? "" : " with " + tunablesText(plan.tunables)) + ":" +
                        verdictList(cs));
      plan.selectedBy = "priority";
    }
    plan.variant = chosen->verdict.id;

    const VariantSpec& v = *chosen->spec;
    withContext("in variant " + v.id, [&] {
      for (const auto& is : v.intermediates) {
        PlannedIntermediate pi;
        pi.id = is.id;
        withContext("in intermediate " + is.id, [&] {
          pi.dtype = resolveDType(is.dtype, rs, "intermediate '" + is.id + "'");
          pi.shape =
              valueToShape(is.shape.evaluate(*chosen->scope), "intermediate shape `" + is.shape.text() + "`");
        });
        pi.bytes = static_cast<uint64_t>(numel(pi.shape)) * dtypeBytes(pi.dtype);
        plan.intermediates.push_back(std::move(pi));
      }
      for (const auto& ps : v.passes)
        plan.passes.push_back(withContext("in pass " + ps.id, [&] {
          return planPass(*package_, v, ps, *chosen->scope, req, device, options);
        }));
    });
    return plan;
  });
}

}  // namespace wgk::plan

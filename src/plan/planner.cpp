// Variant choice (requires, the storage-buffer budget, derive, when, supersededBy, constants,
// demoteWhen, priority) and the chosen variant's tunables, derive, intermediates and passes.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/shape_text.h"
#include "expr/budget.h"
#include "expr/expression.h"
#include "package/storage_layout.h"
#include "plan/plan_explain.h"
#include "plan/plan_internal.h"
#include "wgk/error.h"

namespace wgk::plan {

using namespace detail;
using package::BufferType;
using package::Manifest;
using package::VariantSpec;

namespace {

struct Candidate {
  const VariantSpec* spec = nullptr;
  std::unique_ptr<expr::Scope> scope;  // request frame + variant derive + constants
  expr::Map derived;                   // the `derive` namespace at this point
  VariantVerdict verdict;
};

std::string numberText(double d) {
  return expr::Value(d).repr();
}

// Why the device cannot run the variant at all; empty when it can.
std::string requirementsReason(const package::Requirements& r, const DeviceProfile& device,
                               const expr::Scope& scope) {
  for (const auto& f : r.features)
    if (!device.hasFeature(f)) return "requires feature " + f + ", which the device lacks";
  for (const auto& [name, min] : r.limits) {
    const expr::Value* v = expr::lookupPath(scope, "device.limits." + name);
    if (!v || !v->isNumber() || v->asNumber() < min)
      return "requires device.limits." + name + " >= " + numberText(min) +
             (v ? " (the device has " + v->repr() + ")" : " (the device does not report it)");
  }
  if (r.subgroupMinSize) {
    const expr::Value* v = expr::lookupPath(scope, "device.adapterInfo.subgroupMinSize");
    if (!v || !v->isNumber())
      return fmt::format(
          "requires adapterInfo.subgroupMinSize >= {} (the adapter does not report subgroup sizes)",
          *r.subgroupMinSize);
    if (v->asInt() < *r.subgroupMinSize)
      return fmt::format("requires adapterInfo.subgroupMinSize >= {} (the device's is {})",
                         *r.subgroupMinSize, v->asInt());
  }
  // As in the Hub loader: only a device that reports its configs can fail to match them, and
  // it matches against the configs it keeps (a profile whose every entry it drops reports none).
  // A pattern's omitted fields match anything. (A profile cannot say "reported, empty": an empty
  // list reads as not reported, where the loader would refuse every pattern.)
  if (!r.subgroupMatrixConfigs.empty() && !device.subgroupMatrixConfigs.empty()) {
    const std::vector<SubgroupMatrixConfig> kept = hubSubgroupMatrixConfigs(device);
    auto matches = [&](const package::SubgroupMatrixConfig& want) {
      return std::any_of(kept.begin(), kept.end(), [&](const SubgroupMatrixConfig& have) {
        return (!want.componentType || *want.componentType == have.componentType) &&
               (!want.resultComponentType || *want.resultComponentType == have.resultComponentType) &&
               (!want.M || *want.M == have.M) && (!want.N || *want.N == have.N) &&
               (!want.K || *want.K == have.K);
      });
    };
    if (std::none_of(r.subgroupMatrixConfigs.begin(), r.subgroupMatrixConfigs.end(), matches))
      return "requires a subgroup matrix config the device does not report";
  }
  return {};
}

// The storage-buffer budget: the most storage (and uniform) bindings any one pass declares.
std::string budgetReason(const VariantSpec& v, const expr::Scope& scope) {
  size_t storage = 0, uniform = 0;
  for (const auto* p : v.flatPasses()) {
    size_t s = 0, u = 0;
    for (const auto& b : p->bindings) (b.type == BufferType::Uniform ? u : s) += 1;
    storage = std::max(storage, s);
    uniform = std::max(uniform, u);
  }
  auto over = [&](size_t n, const char* limit, const char* what) -> std::string {
    const expr::Value* v = expr::lookupPath(scope, std::string("device.limits.") + limit);
    if (v && v->isNumber() && static_cast<double>(n) > v->asNumber())
      return fmt::format("needs {} {} buffers per shader stage, the device allows {} ({})", n, what,
                         v->repr(), limit);
    return {};
  };
  std::string r = over(storage, "maxStorageBuffersPerShaderStage", "storage");
  return r.empty() ? over(uniform, "maxUniformBuffersPerShaderStage", "uniform") : r;
}

bool evaluateInto(const std::vector<package::NamedValue>& list, Candidate& c, const char* what) {
  for (const auto& d : list) {
    try {
      expr::Value v = expr::wholeNumbersAsInts(d.value.evaluate(*c.scope));
      c.derived[d.name] = v;
      c.scope->set(d.name, std::move(v));
    } catch (const Error& e) {
      c.verdict.reason =
          std::string(what) + " `" + d.name + "` = `" + d.value.text() + "` failed: " + e.message();
      return false;
    }
  }
  if (!list.empty()) c.scope->set("derive", expr::Value(c.derived));
  return true;
}

const Candidate* findCandidate(const std::vector<Candidate>& cs, const std::string& id) {
  for (const auto& c : cs)
    if (c.verdict.id == id) return &c;
  return nullptr;
}

// Judges one variant; `cs` holds the verdicts of every variant ranked above it (supersededBy).
void judge(const Manifest& m, Candidate& c, const RequestScope& rs, const DeviceProfile& device,
           const std::vector<Candidate>& cs) {
  const VariantSpec& v = *c.spec;
  c.verdict.id = v.id;
  c.verdict.priority = v.priority;
  if (std::string r = requirementsReason(v.requirements, device, rs.scope); !r.empty()) {
    c.verdict.reason = r;
    return;
  }
  if (std::string r = budgetReason(v, rs.scope); !r.empty()) {
    c.verdict.reason = r;
    return;
  }
  c.scope = std::make_unique<expr::Scope>(&rs.scope);
  c.derived = rs.derived;
  if (!evaluateInto(v.derive, c, "derive")) return;
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
  for (const auto& s : v.supersededBy) {
    const Candidate* other = findCandidate(cs, s);
    if (other && other->verdict.eligible && !other->verdict.demoted) {
      c.verdict.reason = "superseded by `" + s + "`, which is eligible here and takes precedence";
      return;
    }
  }
  if (!v.constants.empty()) {
    if (!evaluateInto(v.constants, c, "constant")) return;
    expr::Map constants;
    for (const auto& k : v.constants) constants[k.name] = *c.scope->lookup(k.name);
    c.scope->set("constants", expr::Value(std::move(constants)));
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

// Every variant judged against one request: the request frame and a verdict (and scope) per
// variant, in declaration order. The frame is heap-held because the candidates' scopes point
// into it. Variants are judged highest-ranked first, so supersededBy sees final verdicts.
struct Judged {
  std::unique_ptr<RequestScope> rs = std::make_unique<RequestScope>();
  std::vector<Candidate> cs;
};

Judged judgeAll(const Manifest& m, const PlanRequest& req, const DeviceProfile& device) {
  Judged j;
  buildRequestScope(m, req, device, *j.rs);
  j.cs.resize(m.variants.size());
  std::vector<size_t> order(m.variants.size());
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    j.cs[i].spec = &m.variants[i];
    j.cs[i].verdict.id = m.variants[i].id;
    j.cs[i].verdict.priority = m.variants[i].priority;
    j.cs[i].verdict.reason = "not judged";
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return m.variants[a].priority > m.variants[b].priority; });
  for (size_t i : order) judge(m, j.cs[i], *j.rs, device, j.cs);
  return j;
}

// "WORKGROUP_SIZE=128, X=1": overrides as the plan text shows them.
std::string tunablesText(const std::map<std::string, expr::Value>& t) {
  std::string out;
  for (const auto& [name, v] : t) out += (out.empty() ? "" : ", ") + name + "=" + v.repr();
  return out;
}

const Candidate* choose(const Manifest& m, const Judged& j, const PlanRequest& req, Plan& plan) {
  const std::vector<Candidate>& cs = j.cs;
  if (!req.forcedVariant.empty()) {
    const Candidate* c = findCandidate(cs, req.forcedVariant);
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
    plan.selectedBy = "forced";
    return c;
  }
  if (!req.preferredVariant.empty()) {
    const Candidate* c = findCandidate(cs, req.preferredVariant);
    if (c && c->verdict.eligible) {
      plan.selectedBy = "tuning";
      return c;
    }
  }
  // Highest priority among undemoted eligible variants; demoted ones only when no other is left.
  const Candidate* chosen = nullptr;
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
  return chosen;
}

// The chosen variant's own frame: its tunables (manifest < variant < request) and selectedDerive.
std::unique_ptr<expr::Scope> selectedScope(const Manifest& m, const Candidate& c, const PlanRequest& req,
                                           expr::Map& derived) {
  auto scope = std::make_unique<expr::Scope>(c.scope.get());
  const VariantSpec& v = *c.spec;
  if (!v.tunables.empty()) {
    expr::Map tunables;
    for (const auto& t : m.tunables) tunables[t.name] = t.value;
    for (const auto& t : v.tunables) tunables[t.name] = *t.value.literalValue();
    for (const auto& [name, value] : req.tunables) tunables[name] = value;
    for (auto& [name, value] : tunables) value = expr::wholeNumbersAsInts(value);
    scope->set("tunables", expr::Value(std::move(tunables)));
  }
  evaluateDerive(v.selectedDerive, *scope, derived, "variant " + v.id);
  return scope;
}

// The device limits `run` meets when it creates and binds the plan's buffers, applied here so that
// `plan` refuses what `run` would (an intermediate of 4 TiB, one just over the binding limit, an
// 80 KB uniform struct). A profile without a limit leaves it unchecked.
uint64_t limitOr(const DeviceProfile& device, const char* name) {
  auto it = device.limits.find(name);
  return it == device.limits.end() ? UINT64_MAX : it->second;
}

// Every intermediate is one buffer, bound whole as storage. Checked before the passes are planned.
void checkIntermediateLimits(const Plan& plan, const DeviceProfile& device) {
  const uint64_t maxBuffer = limitOr(device, "maxBufferSize");
  const uint64_t maxStorage = limitOr(device, "maxStorageBufferBindingSize");
  for (const PlannedIntermediate& im : plan.intermediates) {
    const bool overBuffer = im.bytes > maxBuffer;
    if (overBuffer || im.bytes > maxStorage)
      throw Error(ErrorCode::Contract,
                  "intermediate '" + im.id + "' " + shapeText(im.shape) + " holds " +
                      std::to_string(im.bytes) + " bytes, more than the device's " +
                      (overBuffer ? "maxBufferSize (" + std::to_string(maxBuffer)
                                  : "maxStorageBufferBindingSize (" + std::to_string(maxStorage)) +
                      ")");
  }
}

// Every input and output is bound whole as storage (the runtime binds the caller's tensor, in the
// port's storage layout): one too large for the binding limit cannot run on any variant. `plan`
// refuses it as `run` does (one rule), after the variant is chosen.
std::string overBindingLimit(const std::string& what, uint64_t bytes, uint64_t max) {
  return what + " " + std::to_string(bytes) + " bytes, more than the device's maxStorageBufferBindingSize (" +
         std::to_string(max) + ")";
}

void checkOutputLimits(const Manifest& m, const Plan& plan, const DeviceProfile& device) {
  const uint64_t maxStorage = limitOr(device, "maxStorageBufferBindingSize");
  for (const PlannedOutput& o : plan.outputs) {
    const package::PortSpec* port = m.findPort(o.name);
    if (port && port->isInput()) continue;  // in/out: bound as its input, checked there
    if (const uint64_t bytes = package::storageFor(port, o.dtype).bytes(o.shape); bytes > maxStorage)
      throw Error(ErrorCode::Contract,
                  overBindingLimit("output '" + o.name + "' would have", bytes, maxStorage));
  }
}

void checkUniformLimits(const Plan& plan, const DeviceProfile& device) {
  const uint64_t maxUniform = limitOr(device, "maxUniformBufferBindingSize");
  for (const PlannedPass& pass : plan.passes)
    for (const PlannedBinding& b : pass.bindings)
      if (b.kind == package::ResourceKind::Uniform && b.uniformBytes.size() > maxUniform)
        throw Error(ErrorCode::Contract, "uniform " + b.structName + " of pass '" + pass.id + "' packs " +
                                             std::to_string(b.uniformBytes.size()) +
                                             " bytes, more than the device's maxUniformBufferBindingSize (" +
                                             std::to_string(maxUniform) + ")");
}

}  // namespace

void checkInputBindingLimits(const Manifest& m, const PlanRequest& req, const DeviceProfile& device) {
  const uint64_t maxStorage = limitOr(device, "maxStorageBufferBindingSize");
  for (const auto& [name, t] : req.inputs)
    if (const uint64_t bytes = package::storageFor(m.findPort(name), t.dtype).bytes(t.shape);
        bytes > maxStorage)
      throw Error(ErrorCode::Contract, overBindingLimit("input '" + name + "' has", bytes, maxStorage));
}

Planner::Planner(std::shared_ptr<const package::Package> package) : package_(std::move(package)) {
  if (!package_) throw Error(ErrorCode::InvalidArgument, "Planner needs a package");
}

Plan Planner::plan(const PlanRequest& request, const DeviceProfile& device,
                   const PlanOptions& options) const {
  const Manifest& m = package_->manifest();
  // One work budget for the whole plan: every derive, condition and render of every variant.
  expr::WorkBudget budget(expr::kMaxBuiltBytes, "expr::kMaxBuiltBytes per plan");
  return withContext("while planning " + m.id(), [&] {
    Judged j = judgeAll(m, request, device);
    const PlanRequest* used = &request;
    // A preference with tunables is one tuned pair: when the preferred variant is not eligible with
    // those tunables, plan as if there were no preference at all (manifest tunables, priority).
    PlanRequest withoutPreference;
    std::string preferenceIgnored;
    if (request.forcedVariant.empty() && !request.preferredVariant.empty()) {
      const Candidate* c = findCandidate(j.cs, request.preferredVariant);
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
    const RequestScope& rs = *j.rs;

    Plan plan;
    plan.package = m.id();
    plan.dialect = std::string(package::dialectName(m.dialect));
    for (const auto& c : j.cs) plan.variants.push_back(c.verdict);
    plan.outputs = rs.outputs;
    plan.preferenceIgnored = preferenceIgnored;
    if (!request.preferredVariant.empty()) plan.tuningSource = request.tuningSource;
    for (const auto& [name, v] : req.tunables) {
      const package::TunableSpec* t = m.findTunable(name);
      if (!t || !(t->value == v)) plan.tunables[name] = v;
    }
    const Candidate* chosen = choose(m, j, req, plan);
    plan.variant = chosen->verdict.id;

    const VariantSpec& v = *chosen->spec;
    withContext("in variant " + v.id, [&] {
      expr::Map derived = chosen->derived;
      const auto scope = selectedScope(m, *chosen, req, derived);
      for (const auto& is : v.intermediates) {
        PlannedIntermediate pi;
        pi.id = is.id;
        pi.zeroInit = is.zeroInit;
        withContext("in intermediate " + is.id, [&] {
          pi.dtype = resolveDType(is.dtype, rs, "intermediate '" + is.id + "'");
          pi.shape = valueToShape(is.shape.evaluate(*scope), "intermediate shape `" + is.shape.text() + "`");
        });
        const uint64_t n = static_cast<uint64_t>(numel(pi.shape));
        if (n > UINT64_MAX / storageBytes(pi.dtype))
          throw Error(ErrorCode::Contract, "intermediate '" + is.id + "' " + shapeText(pi.shape) +
                                               " holds more bytes than 64 bits can count");
        pi.bytes = n * storageBytes(pi.dtype);
        plan.intermediates.push_back(std::move(pi));
      }
      checkIntermediateLimits(plan, device);
      plan.passes = planPasses(*package_, v, *scope, derived, rs, req, device, options);
      checkUniformLimits(plan, device);
    });
    // Last, so that a request no variant takes (or whose dispatch fails) says that first, as the
    // Hub's loader does; these are the limits createBindGroup would refuse at run time.
    checkInputBindingLimits(m, request, device);
    checkOutputLimits(m, plan, device);
    return plan;
  });
}

}  // namespace wgk::plan

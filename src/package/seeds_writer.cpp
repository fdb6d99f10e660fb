// The manifest model -> the seeds' dialect, where the seeds have the construct (manifest_writer.h).
// Anything else is Error(Unsupported) naming the construct and where it is declared.
#include <algorithm>
#include <regex>

#include "package/manifest_rewrite.h"
#include "package/manifest_writer.h"
#include "wgk/error.h"

namespace wgk::package {

namespace {

[[noreturn]] void noSeedsEquivalent(const std::string& what, const std::string& path) {
  rewrite::unsupportedIn("the seeds' dialect", what, path);
}

// The seeds read a JSON string as one expression and anything else as a literal: a deep value
// (a list or object holding expressions) has no spelling there.
Json seedsValue(const ExprOrValue& v, const std::string& what) {
  if (v.isExpression()) return Json(v.text());
  if (v.isStructured()) noSeedsEquivalent(what + " (a list or object of expressions)", v.path());
  const Json j = v.toJson();
  if (j.is_string()) return Json(Json(j.get<std::string>()).dump());
  return j;
}

std::string semanticOf(const PortSpec& p) {
  return p.onnx.empty() ? p.name : p.onnx;
}

// 2.1's dispatch shorthand as its reader writes it: x = min(E, 65535), y = ceilDiv(E, 65535), z = 1.
std::optional<std::string> shorthandCount(const Dispatch& d) {
  if (!d.x || !d.y || !d.z || !d.x->isExpression() || !d.y->isExpression()) return std::nullopt;
  const std::string x = d.x->text(), y = d.y->text();
  const std::string pre = "min(", post = ", 65535)";
  if (!x.starts_with(pre) || !x.ends_with(post)) return std::nullopt;
  const std::string count = x.substr(pre.size(), x.size() - pre.size() - post.size());
  if (y != "ceilDiv(" + count + post) return std::nullopt;
  auto* z = d.z->literalValue();
  if (!z || !z->isNumber() || z->asNumber() != 1) return std::nullopt;
  return count;
}

struct SeedsWriter {
  const Manifest& m;
  Json sets = Json::object();

  void check(const Manifest& mm) {
    for (const auto& a : mm.args)
      noSeedsEquivalent("scalar arg '" + a.name + "' (spec 2.1 args)", "/args/" + a.name);
    for (const auto& a : mm.attributes)
      if (!a.defaultValue)
        noSeedsEquivalent("attribute '" + a.name + "' without a default", "/attributes/" + a.name);
    for (const auto& [n, c] : mm.attributeConstraints)
      if (c.required) noSeedsEquivalent("attributeConstraints." + n + ".required", "");
    for (const auto& tv : mm.freeTypeVars) noSeedsEquivalent("unconstrained type variable '" + tv + "'", "");
    for (const auto& p : mm.ports) {
      if (p.direction == PortDirection::InOut) noSeedsEquivalent("in/out tensor '" + p.name + "'", p.path);
      if (p.storage || p.packed || p.narrowing != Narrowing::None)
        noSeedsEquivalent("storage/layout/narrowing of tensor '" + p.name + "'", p.path);
      if (p.isOutput() && !p.shape) noSeedsEquivalent("output '" + p.name + "' without a shape", p.path);
    }
  }

  Json binding(const BindingSpec& b, const VariantSpec& v) {
    Json j = {{"name", b.name}};
    if (b.kind == ResourceKind::Uniform) {
      j["semantic"] = "kernel.params";
      j["buffer"] = {{"type", "uniform"}};
      Json fields = Json::array();
      for (const auto& f : b.uniform->fields) {
        if (!f.value)
          noSeedsEquivalent("uniform field '" + f.name + "' without a value (filled from an arg)", b.path);
        if (f.internal || f.defaultValue)
          noSeedsEquivalent("uniform field '" + f.name + "' internal/default", b.path);
        fields.push_back(
            {{"name", f.name}, {"type", f.type}, {"value", seedsValue(*f.value, "a uniform value")}});
      }
      j["struct"] = {{"name", b.uniform->name}, {"fields", fields}};
      return j;
    }
    if (b.kind == ResourceKind::Tensor) {
      j["arg"] = b.resource;
      j["semantic"] = semanticOf(*m.findPort(b.resource));
    } else {
      j["semantic"] = b.resource;
    }
    j["buffer"] = {{"type", std::string(bufferTypeName(b.type))}};
    j["elementType"] = b.elementType;
    if (b.length) {
      // 2.1's "$name" reads a derive; the seeds' "$name" a constant: keep it only when it is one.
      const std::string t = b.length->isExpression() ? b.length->text() : "";
      const bool isConstant = std::any_of(v.selectedDerive.begin(), v.selectedDerive.end(),
                                          [&](const NamedValue& d) { return d.name == t; });
      j["length"] = isConstant ? Json("$" + t) : seedsValue(*b.length, "a binding length");
    }
    return j;
  }

  std::string bindingSet(const PassSpec& p, const VariantSpec& v) {
    Json list = Json::array();
    for (const auto& b : p.bindings) list.push_back(binding(b, v));
    for (int n = 1;; ++n) {
      const std::string key = n == 1 ? v.id + "_" + p.id : v.id + "_" + p.id + "_" + std::to_string(n);
      for (auto it = sets.begin(); it != sets.end(); ++it)
        if (it.value() == list) return it.key();
      if (!sets.contains(key)) {
        sets[key] = list;
        return key;
      }
    }
  }

  Json dispatch(const Dispatch& d, const std::string& path) {
    if (d.form == Dispatch::Form::Threads)
      return {{"threads", seedsValue(*d.threads, "dispatch")},
              {"workgroupSize", seedsValue(*d.workgroupSize, "dispatch")}};
    if (d.form == Dispatch::Form::Workgroups) {
      Json j = {{"workgroups", seedsValue(*d.workgroups, "dispatch")}};
      if (d.z) j["z"] = seedsValue(*d.z, "dispatch");
      return j;
    }
    // The seeds fold x above the limit with the row stride: the 2.1 shorthand's own grid.
    if (auto count = shorthandCount(d)) return {{"workgroups", *count}};
    // The folds the 2.1 writer spells out (spec21_writer.cpp), read back.
    if (d.x && d.y && d.x->isExpression() && d.y->isExpression()) {
      const std::string x = d.x->text(), y = d.y->text(),
                        lim = ", device.limits.maxComputeWorkgroupsPerDimension)";
      const std::string pre = "max(1, ceilDiv(";
      if (y.starts_with(pre) && y.ends_with(lim + ")")) {
        const std::string e = y.substr(pre.size(), y.size() - pre.size() - lim.size() - 1);
        auto* z = d.z ? d.z->literalValue() : nullptr;
        const bool zOne = !d.z || (z && z->isNumber() && z->asNumber() == 1);
        if (x == "ceilDiv(" + e + ", " + y + ")" && zOne) return {{"threads", e}, {"workgroupSize", 1}};
        if (x == "min(" + e + lim) {
          Json j = {{"workgroups", e}};
          if (d.z) j["z"] = seedsValue(*d.z, "dispatch");
          return j;
        }
      }
    }
    if (d.y) {
      auto* y = d.y->literalValue();
      if (!y || !y->isNumber() || y->asNumber() != 1) noSeedsEquivalent("an explicit dispatch y", path);
    }
    Json j = {{"workgroups", seedsValue(*d.x, "dispatch")}};
    if (d.z) j["z"] = seedsValue(*d.z, "dispatch");
    return j;
  }

  Json pass(const PassSpec& p, const VariantSpec& v) {
    if (!p.viewAlias.empty()) noSeedsEquivalent("viewAlias", p.path);
    if (p.submitAfter) noSeedsEquivalent("submitAfter", p.path);
    if (!p.profile.empty()) noSeedsEquivalent("a pass profile", p.path);
    Json j = {{"id", p.id}};
    if (!p.name.empty()) j["name"] = p.name;
    Json derive = Json::object();
    std::optional<Json> sourceInputs;
    for (const auto& d : p.derive) {
      // (an object of literals only reads back as one literal, not a structured value)
      if (d.name == kSourceInputs && !d.value.isExpression() && d.value.toJson().is_object()) {
        sourceInputs = d.value.toJson();
        continue;
      }
      derive[d.name] = seedsValue(d.value, "pass derive '" + d.name + "'");
    }
    if (!derive.empty()) j["derive"] = derive;
    if (sourceInputs)
      j["source"] = {{"shader", p.shader}, {"inputs", *sourceInputs}};
    else
      j["shader"] = p.shader;
    j["bindings"] = bindingSet(p, v);
    j["dispatch"] = dispatch(p.dispatch, p.path);
    if (p.subgroupCollectivesWidth) j["subgroupCollectivesWidth"] = *p.subgroupCollectivesWidth;
    return j;
  }

  Json variant(const VariantSpec& v) {
    if (!v.tunables.empty()) noSeedsEquivalent("variant tunables", v.path);
    if (!v.supersededBy.empty()) noSeedsEquivalent("supersededBy", v.path);
    if (!v.requirements.limits.empty() || v.requirements.subgroupMinSize ||
        !v.requirements.subgroupMatrixConfigs.empty())
      noSeedsEquivalent("requires limits / subgroupMinSize / subgroupMatrixConfigs", v.path);
    Json j = {{"id", v.id}};
    if (!v.description.empty()) j["description"] = v.description;
    j["priority"] = v.priority;
    if (!v.requirements.features.empty()) j["requires"] = {{"features", v.requirements.features}};
    Json when = Json::array();
    for (const auto& c : v.when) when.push_back(seedsValue(c, "a when entry"));
    if (!when.empty()) j["when"] = when;
    Json demote = Json::array();
    for (const auto& c : v.demoteWhen) demote.push_back(seedsValue(c, "a demoteWhen entry"));
    if (!demote.empty()) j["demoteWhen"] = demote;
    if (!v.derive.empty()) {
      Json d = Json::object();
      for (const auto& nv : v.derive) d[nv.name] = seedsValue(nv.value, "derive '" + nv.name + "'");
      j["derive"] = d;
    }
    Json constants = Json::object();
    for (const auto& nv : v.constants)
      constants[nv.name] = seedsValue(nv.value, "constant '" + nv.name + "'");
    for (const auto& nv : v.selectedDerive)
      constants[nv.name] = seedsValue(nv.value, "derive '" + nv.name + "'");
    // `$T` element types read a constant in the seeds: the type variable's WGSL scalar.
    for (const auto* p : v.flatPasses())
      for (const auto& b : p->bindings)
        if (b.elementType.starts_with("$") && m.typeConstraints.count(b.elementType.substr(1)) &&
            !constants.contains(b.elementType.substr(1)))
          constants[b.elementType.substr(1)] = "dtypes." + b.elementType.substr(1);
    if (!constants.empty()) j["constants"] = constants;
    if (!v.intermediates.empty()) {
      Json inter = Json::array();
      for (const auto& i : v.intermediates) {
        if (i.zeroInit) noSeedsEquivalent("zeroInit of intermediate '" + i.id + "'", i.path);
        inter.push_back(
            {{"id", i.id}, {"dtype", i.dtype}, {"shape", seedsValue(i.shape, "an intermediate shape")}});
      }
      j["intermediates"] = inter;
    }
    Json passes = Json::array();
    for (const auto& n : v.passes) {
      if (n.isGroup) noSeedsEquivalent("repeat group '" + n.groupId + "'", v.path);
      passes.push_back(pass(n.pass, v));
    }
    j["passes"] = passes;
    return j;
  }

  Json write() {
    check(m);
    Json out = Json::object();
    out["domain"] = m.domain;
    out["name"] = m.name;
    out["sinceVersion"] = m.sinceVersion;
    if (!m.description.empty()) out["description"] = m.description;
    Json inputs = Json::array(), outputs = Json::array(), args = Json::object();
    for (const auto& p : m.ports) {
      Json e = {{"role", semanticOf(p)}, {"dtype", p.dtype}};
      if (p.rank) e["rank"] = seedsValue(*p.rank, "a rank");
      if (p.isOutput()) e["shape"] = seedsValue(*p.shape, "an output shape");
      if (p.optional && p.isInput()) e["optional"] = true;
      if (!p.description.empty()) e["description"] = p.description;
      (p.isInput() ? inputs : outputs).push_back(e);
      Json a = {{"kind", "tensor"}, {"semantic", semanticOf(p)}, {"role", p.isInput() ? "input" : "output"}};
      if (p.fixedDtype) a["dtype"] = std::string(dtypeName(*p.fixedDtype));
      if (p.optional && p.isInput()) a["required"] = false;
      args[p.name] = a;
    }
    out["inputs"] = inputs;
    out["outputs"] = outputs;
    if (!m.attributes.empty()) {
      Json attrs = Json::object(), descriptions = Json::object();
      for (const auto& a : m.attributes) {
        attrs[a.name] = rewrite::jsonOf(*a.defaultValue);
        if (!a.description.empty()) descriptions[a.name] = a.description;
      }
      out["attributes"] = attrs;
      if (!descriptions.empty()) out["attributeDescriptions"] = descriptions;
    }
    Json constraints = Json::object();
    for (const auto& [n, c] : m.attributeConstraints) {
      Json e = Json::object();
      if (!c.values.empty()) {
        Json vals = Json::array();
        for (const auto& v : c.values) vals.push_back(rewrite::jsonOf(v));
        e["values"] = vals;
      }
      if (c.min) e["min"] = *c.min;
      if (c.max) e["max"] = *c.max;
      constraints[n] = e;
    }
    if (!constraints.empty()) out["attributeConstraints"] = constraints;
    if (!m.typeConstraints.empty()) out["typeConstraints"] = m.typeConstraints;
    out["args"] = args;
    if (!m.tunables.empty()) {
      Json t = Json::object();
      for (const auto& tu : m.tunables) t[tu.name] = rewrite::jsonOf(tu.value);
      out["tunables"] = t;
    }
    if (!m.derive.empty()) {
      Json d = Json::object();
      for (const auto& nv : m.derive) d[nv.name] = seedsValue(nv.value, "derive '" + nv.name + "'");
      out["derive"] = d;
    }
    Json variants = Json::array();
    for (const auto& v : m.variants)
      variants.push_back(withContext("in variant " + v.id, [&] { return variant(v); }));
    out["bindingSets"] = sets;
    out["variants"] = variants;
    return out;
  }
};

}  // namespace

Json writeSeedsManifest(const Manifest& m) {
  return withContext("while writing " + m.id() + " in the seeds' dialect", [&] {
    if (m.dialect == Dialect::Seeds) return m.source;
    SeedsWriter w{m};
    return w.write();
  });
}

}  // namespace wgk::package

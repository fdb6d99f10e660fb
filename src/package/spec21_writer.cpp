// The manifest model -> manifest spec 2.1 (manifest_writer.h says how each seeds construct is
// spelled out). The result reads back through readSpec21Manifest into a model that plans alike.
#include <algorithm>
#include <cctype>
#include <set>

#include "package/manifest_rewrite.h"
#include "package/manifest_writer.h"
#include "wgk/error.h"

namespace wgk::package {

namespace {

using rewrite::Renames;

[[noreturn]] void noSpec21Equivalent(const std::string& what, const std::string& path) {
  rewrite::unsupportedIn("spec 2.1", what, path);
}

// A literal's strings are expressions in 2.1's deep values: write them as string literals.
Json quoteStrings(const Json& j) {
  if (j.is_string()) return Json(Json(j.get<std::string>()).dump());
  if (!j.is_array() && !j.is_object()) return j;
  Json out = j.is_array() ? Json::array() : Json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (j.is_array())
      out.push_back(quoteStrings(*it));
    else
      out[it.key()] = quoteStrings(*it);
  }
  return out;
}

Json renameStrings(const Json& j, const Renames& r) {
  if (j.is_string()) return Json(rewrite::renameInExpression(j.get<std::string>(), r));
  if (!j.is_array() && !j.is_object()) return j;
  Json out = j.is_array() ? Json::array() : Json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (j.is_array())
      out.push_back(renameStrings(*it, r));
    else
      out[it.key()] = renameStrings(*it, r);
  }
  return out;
}

// A value as a 2.1 deep value (derive, shapes, profiles): expressions renamed.
Json deepJson(const ExprOrValue& v, const Renames& r) {
  if (v.isExpression()) return Json(rewrite::renameInExpression(v.text(), r));
  if (v.isStructured()) return renameStrings(v.toJson(), r);
  return quoteStrings(v.toJson());
}

// A value where 2.1 reads a string as one expression and anything else as a literal.
Json shallowJson(const ExprOrValue& v, const Renames& r) {
  if (v.isExpression()) return Json(rewrite::renameInExpression(v.text(), r));
  return v.toJson();
}

// A condition: always an expression string in 2.1.
std::string conditionText(const ExprOrValue& v, const Renames& r) {
  if (v.isExpression()) return rewrite::renameInExpression(v.text(), r);
  const Json j = v.toJson();
  if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
  return j.dump();
}

Renames merged(Renames a, const Renames& b) {
  for (const auto& [k, v] : b.bare) a.bare[k] = v;
  for (const auto& [ns, m] : b.member)
    for (const auto& [k, v] : m) a.member[ns][k] = v;
  return a;
}

// The seeds' second scope name of a tensor (its semantic) is not a 2.1 name: read the port name.
Renames portRenames(const Manifest& m) {
  Renames r;
  for (const auto& p : m.ports)
    for (const auto& key : p.scopeNames)
      if (key != p.name && !m.findPort(key))
        for (const char* ns : {"shapes", "ranks", "tensorDtypes", "present"}) r.member[ns][key] = p.name;
  return r;
}

Json portJson(const Manifest& m, const PortSpec& p, bool asOutput, const Renames& r) {
  Json j = Json::object();
  if (!p.onnx.empty()) j["onnx"] = p.onnx;
  std::string dtype = p.dtype;
  if (p.fixedDtype) {
    const std::string fixed(dtypeName(*p.fixedDtype));
    auto tc = m.typeConstraints.find(p.dtype);
    const bool implied = tc != m.typeConstraints.end() && tc->second == std::vector<std::string>{fixed};
    if (!implied) {
      const bool shared = std::any_of(m.ports.begin(), m.ports.end(),
                                      [&](const PortSpec& o) { return &o != &p && o.dtype == p.dtype; });
      if (shared && !p.dtype.empty())
        noSpec21Equivalent(
            "tensor '" + p.name + "' fixing dtype " + fixed + " while sharing type variable " + p.dtype,
            p.path);
      dtype = fixed;
    }
  }
  if (!dtype.empty()) j["dtype"] = dtype;
  if (p.rank) j["rank"] = shallowJson(*p.rank, r);
  if (p.optional && !asOutput) j["optional"] = true;
  if (asOutput && p.shape) j["shape"] = deepJson(*p.shape, r);
  if (p.storage) j["storage"] = std::string(dtypeName(*p.storage));
  if (p.narrowing != Narrowing::None && !asOutput)
    j["narrowing"] = p.narrowing == Narrowing::Checked ? "checked" : "saturating";
  if (p.packed && !asOutput) j["layout"] = "packed";
  if (!p.description.empty()) j["description"] = p.description;
  return j;
}

// A length as 2.1 writes it: a positive integer or "$derivedName".
Json lengthJson(const ExprOrValue& len, const Renames& r, const std::string& path) {
  if (auto* lit = len.literalValue(); lit && lit->isNumber()) return rewrite::jsonOf(*lit);
  const std::string text = len.isExpression() ? rewrite::renameInExpression(len.text(), r) : "";
  std::string name = text.starts_with("derive.") ? text.substr(7) : text;
  if (!name.empty() &&
      std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(c) || c == '_'; }))
    return Json("$" + name);
  noSpec21Equivalent("binding length `" + len.text() + "` (2.1 takes an integer or $derivedName)", path);
}

Json bindingJson(const BindingSpec& b, const Renames& r) {
  Json j = Json::object();
  j["name"] = b.name;
  if (b.kind == ResourceKind::Uniform) {
    j["buffer"] = "uniform";
    if (b.uniform->name != "Params") j["structName"] = b.uniform->name;
    Json fields = Json::array();
    for (const auto& f : b.uniform->fields) {
      Json e = {{"name", f.name}, {"type", f.type}};
      if (f.value) e["value"] = shallowJson(*f.value, r);
      if (f.internal) e["internal"] = true;
      if (f.required == f.internal) e["required"] = f.required;
      if (f.defaultValue) e["default"] = *f.defaultValue;
      fields.push_back(e);
    }
    j["struct"] = fields;
    return j;
  }
  j[b.kind == ResourceKind::Tensor ? "arg" : "scratch"] = b.resource;
  j["buffer"] = std::string(bufferTypeName(b.type));
  j["elementType"] = b.elementType;
  if (b.length) j["length"] = lengthJson(*b.length, r, b.path);
  return j;
}

// Named binding handles, shared by identical entries: the binding name, else name_2, name_3...
struct Handles {
  Json all = Json::object();
  std::string add(const Json& entry) {
    const std::string base = entry["name"].get<std::string>();
    for (int n = 1;; ++n) {
      const std::string key = n == 1 ? base : base + "_" + std::to_string(n);
      if (!all.contains(key)) {
        all[key] = entry;
        return key;
      }
      if (all[key] == entry) return key;
    }
  }
};

const char* kMaxDim = "device.limits.maxComputeWorkgroupsPerDimension";

// The seeds planner's folds, written out: threads fold balanced (x = ceil(E / y)), workgroups
// keep the row stride (x = the limit); y = ceil(E / limit) only above the limit.
Json dispatchJson(const Dispatch& d, const Renames& r) {
  auto text = [&](const std::optional<ExprOrValue>& v) { return "(" + conditionText(*v, r) + ")"; };
  if (d.form == Dispatch::Form::Grid) {
    Json j = {{"x", shallowJson(*d.x, r)}};
    if (d.y) j["y"] = shallowJson(*d.y, r);
    if (d.z) j["z"] = shallowJson(*d.z, r);
    return j;
  }
  const std::string lim = kMaxDim;
  if (d.form == Dispatch::Form::Threads) {
    const std::string e = "ceilDiv(" + text(d.threads) + ", " + text(d.workgroupSize) + ")";
    const std::string y = "max(1, ceilDiv(" + e + ", " + lim + "))";
    return {{"x", "ceilDiv(" + e + ", " + y + ")"}, {"y", y}, {"z", 1}};
  }
  const std::string w = text(d.workgroups);
  Json j = {{"x", "min(" + w + ", " + lim + ")"}, {"y", "max(1, ceilDiv(" + w + ", " + lim + "))"}};
  j["z"] = d.z ? shallowJson(*d.z, r) : Json(1);
  return j;
}

struct Spec21Writer {
  const Manifest& m;
  Renames ports;
  Handles handles;
  Json topDerive = Json::object();

  Json pass(const PassSpec& p, const Renames& r) {
    Json j = Json::object();
    j["id"] = p.id;
    if (!p.name.empty()) j["name"] = p.name;
    j["shader"] = p.shader;
    if (!p.derive.empty()) {
      Json d = Json::object();
      for (const auto& nv : p.derive)
        d[nv.name == "source" ? kSourceInputs : nv.name] = deepJson(nv.value, r);
      j["derive"] = d;
    }
    Json bindings = Json::array();
    for (const auto& b : p.bindings) bindings.push_back(handles.add(bindingJson(b, r)));
    j["bindings"] = bindings;
    j["dispatch"] = dispatchJson(p.dispatch, r);
    if (p.subgroupCollectivesWidth) {
      const std::string& w = *p.subgroupCollectivesWidth;
      j["subgroupCollectivesWidth"] = w == "portable" ? Json(w) : Json(std::stoll(w));
    }
    if (p.submitAfter) j["submitAfter"] = true;
    if (!p.viewAlias.empty()) {
      Json va = Json::array();
      for (const auto& a : p.viewAlias) va.push_back({{"input", a.input}, {"output", a.output}});
      j["viewAlias"] = va;
    }
    if (!p.profile.empty()) {
      Json prof = Json::object();
      for (const auto& nv : p.profile) prof[nv.name] = deepJson(nv.value, r);
      j["profile"] = prof;
    }
    return j;
  }

  Json passes(const std::vector<PassNode>& nodes, const Renames& r) {
    Json out = Json::array();
    for (const auto& n : nodes) {
      if (!n.isGroup) {
        out.push_back(pass(n.pass, r));
        continue;
      }
      out.push_back({{"id", n.groupId},
                     {"repeat", {{"index", n.index}, {"count", shallowJson(n.count, r)}}},
                     {"passes", passes(n.children, r)}});
    }
    return out;
  }

  static std::string hoistedName(const VariantSpec& v, const std::string& name) {
    return (std::isalpha(static_cast<unsigned char>(v.id[0])) ? "" : "v_") + v.id + "__" + name;
  }

  Json variant(const VariantSpec& v) {
    Json j = Json::object();
    j["id"] = v.id;
    if (!v.description.empty()) j["description"] = v.description;
    if (v.priority != 0) j["priority"] = v.priority;
    // The variant's pre-`when` derive: hoisted (2.1 variant derive is evaluated after selection).
    Renames hoisted;
    std::set<std::string> constantNames;
    for (const auto& c : v.constants) constantNames.insert(c.name);
    for (const auto& d : v.derive) {
      const std::string h = hoistedName(v, d.name);
      topDerive[h] = deepJson(d.value, merged(ports, hoisted));
      hoisted.bare[d.name] = h;
      hoisted.member["derive"][d.name] = h;
    }
    const Renames whenRenames = merged(ports, hoisted);
    Json when = Json::array();
    for (const auto& c : v.when) when.push_back(conditionText(c, whenRenames));
    if (!when.empty()) j["when"] = when;
    if (!v.demoteWhen.empty()) {
      Json demote = Json::array();
      for (const auto& c : v.demoteWhen) {
        for (const auto& n : c.referencedNames())
          if (constantNames.count(n))
            noSpec21Equivalent("demoteWhen of variant '" + v.id + "' reading constant '" + n + "'", v.path);
        demote.push_back(conditionText(c, whenRenames));
      }
      j["demoteWhen"] = demote;
    }
    if (!v.supersededBy.empty()) j["supersededBy"] = v.supersededBy;
    if (!v.requirements.empty()) j["requires"] = requiresJson(v.requirements);
    if (!v.tunables.empty()) {
      Json t = Json::object();
      for (const auto& nv : v.tunables) t[nv.name] = nv.value.toJson();
      j["tunables"] = t;
    }
    Json derive = selectedDerive(v, hoisted, constantNames);
    if (!derive.empty()) j["derive"] = derive;
    if (!v.intermediates.empty()) {
      Json inter = Json::array();
      for (const auto& i : v.intermediates) {
        Json e = {{"id", i.id}, {"dtype", i.dtype}, {"shape", deepJson(i.shape, ports)}};
        if (i.zeroInit) e["zeroInit"] = true;
        inter.push_back(e);
      }
      j["intermediates"] = inter;
    }
    Renames passRenames = ports;
    passRenames.bare["constants"] = "derive";
    j["passes"] = passes(v.passes, passRenames);
    return j;
  }

  // Aliases of the hoisted derive (so passes read them by name), then the seeds' constants (which
  // read an overridden derive name as the derive's value until they replace it), then 2.1's own.
  Json selectedDerive(const VariantSpec& v, const Renames& hoisted,
                      const std::set<std::string>& constantNames) {
    Json out = Json::object();
    for (const auto& d : v.derive)
      if (!constantNames.count(d.name)) out[d.name] = hoisted.bare.at(d.name);
    Renames pending = hoisted;  // derive names a constant has not replaced yet
    for (const auto& c : v.constants) {
      Renames r = merged(ports, pending);
      r.bare["constants"] = "derive";
      out[c.name] = deepJson(c.value, r);
      pending.bare.erase(c.name);
      if (pending.member.count("derive")) pending.member["derive"].erase(c.name);
    }
    for (const auto& d : v.selectedDerive) out[d.name] = deepJson(d.value, ports);
    return out;
  }

  static Json requiresJson(const Requirements& q) {
    Json j = Json::object();
    if (!q.features.empty()) j["features"] = q.features;
    if (!q.limits.empty()) {
      Json l = Json::object();
      for (const auto& [k, v] : q.limits) l[k] = v;
      j["limits"] = l;
    }
    if (q.subgroupMinSize) j["subgroupMinSize"] = *q.subgroupMinSize;
    if (!q.subgroupMatrixConfigs.empty()) {
      Json list = Json::array();
      for (const auto& c : q.subgroupMatrixConfigs) {
        Json e = Json::object();
        if (c.componentType) e["componentType"] = *c.componentType;
        if (c.resultComponentType) e["resultComponentType"] = *c.resultComponentType;
        if (c.M) e["M"] = *c.M;
        if (c.N) e["N"] = *c.N;
        if (c.K) e["K"] = *c.K;
        list.push_back(e);
      }
      j["subgroupMatrixConfigs"] = list;
    }
    return j;
  }

  void contract(Json& out, Json& topWhen) {
    Json inputs = Json::object(), outputs = Json::object();
    for (const auto& p : m.ports) {
      if (p.isInput()) inputs[p.name] = portJson(m, p, false, ports);
      if (p.isOutput()) outputs[p.name] = portJson(m, p, true, ports);
    }
    out["inputs"] = inputs;
    out["outputs"] = outputs;
    if (!m.args.empty()) {
      Json args = Json::object();
      for (const auto& a : m.args) {
        Json e = {{"kind", a.kind}};
        if (!a.required) e["required"] = false;
        if (!a.oneOf.empty()) e["oneOf"] = a.oneOf;
        if (!a.onnx.empty()) e["onnx"] = a.onnx;
        if (!a.description.empty()) e["description"] = a.description;
        args[a.name] = e;
      }
      out["args"] = args;
    }
    if (!m.attributes.empty()) {
      Json attrs = Json::object();
      for (const auto& a : m.attributes) {
        Json e = Json::object();
        if (a.defaultValue) e["default"] = rewrite::jsonOf(*a.defaultValue);
        if (!a.description.empty()) e["description"] = a.description;
        attrs[a.name] = e;
      }
      out["attributes"] = attrs;
    }
    Json constraints = Json::object();
    for (const auto& [name, c] : m.attributeConstraints) {
      Json e = Json::object();
      if (c.required) e["required"] = true;
      if (!c.values.empty()) {
        Json vals = Json::array();
        for (const auto& v : c.values) vals.push_back(rewrite::jsonOf(v));
        e["values"] = vals;
      }
      if (!e.empty()) constraints[name] = e;
      // 2.1 has no numeric bounds: a request outside them finds no variant instead.
      const AttributeSpec* a = m.findAttribute(name);
      if ((c.min || c.max) && (!a || !a->defaultValue))
        noSpec21Equivalent("attributeConstraints." + name + " min/max on an attribute without a default", "");
      if (c.min) topWhen.push_back("attrs." + name + " >= " + Json(*c.min).dump());
      if (c.max) topWhen.push_back("attrs." + name + " <= " + Json(*c.max).dump());
    }
    if (!constraints.empty()) out["attributeConstraints"] = constraints;
  }

  Json write() {
    ports = portRenames(m);
    Json out = Json::object();
    out["domain"] = m.domain;
    out["name"] = m.name;
    if (!m.description.empty()) out["description"] = m.description;
    out["sinceVersion"] = m.sinceVersion;
    if (!m.typeConstraints.empty()) out["typeConstraints"] = m.typeConstraints;
    Json topWhen = Json::array();
    contract(out, topWhen);
    if (!m.tunables.empty()) {
      Json t = Json::object();
      for (const auto& tu : m.tunables) {
        Json e = {{"default", rewrite::jsonOf(tu.value)}};
        if (!tu.description.empty()) e["description"] = tu.description;
        t[tu.name] = e;
      }
      out["tunables"] = t;
    }
    for (const auto& d : m.derive) topDerive[d.name] = deepJson(d.value, ports);
    Json variants = Json::array();
    for (const auto& v : m.variants)
      variants.push_back(withContext("in variant " + v.id, [&] { return variant(v); }));
    if (!topDerive.empty()) out["derive"] = topDerive;
    if (!topWhen.empty()) out["when"] = topWhen;
    out["bindings"] = handles.all;
    out["variants"] = variants;
    return out;
  }
};

}  // namespace

Json writeSpec21Manifest(const Manifest& m) {
  return withContext("while writing " + m.id() + " in manifest spec 2.1", [&] {
    if (m.dialect == Dialect::Spec21) return m.source;  // already 2.1: the bytes as written
    Spec21Writer w{m, {}, {}, Json::object()};
    return w.write();
  });
}

Json writeManifest(const Manifest& m, Dialect to) {
  return to == Dialect::Spec21 ? writeSpec21Manifest(m) : writeSeedsManifest(m);
}

std::string rewriteTemplate(const std::string& text, Dialect to) {
  rewrite::Renames r;
  if (to == Dialect::Spec21)
    r.bare["source"] = kSourceInputs;
  else
    r.bare[kSourceInputs] = "source";
  return rewrite::renameInTemplate(text, r);
}

}  // namespace wgk::package

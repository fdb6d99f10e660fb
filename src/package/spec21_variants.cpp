// Spec 2.1 variants: ids, priorities, conditions, requires (merged with the top level),
// intermediates, passes and repeat groups, per-pass bindings resolved to the model's
// BindingSpec, and dispatch (the shorthands written out as the explicit {x, y, z} grid).
#include <algorithm>
#include <cmath>
#include <regex>

#include "package/manifest_checks.h"
#include "package/spec21_internal.h"
#include "wgk/error.h"

namespace wgk::package::spec21 {

using detail::requireIdentifier;

namespace {

const std::map<std::string, std::string>& variantHints() {
  static const std::map<std::string, std::string> h = {
      {"bindings", "spec 2.1 lists bindings on each pass"},
      {"constants", "spec 2.1 has one value channel, `derive`"},
      {"requiredFeatures", "spec 2.1 writes requires.features"},
      {"name", "a spec 2.1 variant has an id and a description"}};
  return h;
}

const std::map<std::string, std::string>& passHints() {
  static const std::map<std::string, std::string> h = {
      {"source", "a spec 2.1 pass writes `shader` and a pass-level `derive`"},
      {"constants", "a spec 2.1 pass writes a pass-level `derive`"},
      {"description", "a spec 2.1 pass has an id and a name"}};
  return h;
}

// WGSL scalar of a port's storage, or "$T" for a type variable (resolved by the planner).
std::string defaultElementType(const PortSpec& p, const std::string& path) {
  if (p.storage) return std::string(wgslStorageScalar(*p.storage));
  if (p.dtype.empty()) schemaError(path, "binds port '" + p.name + "', which declares no dtype; write elementType");
  if (auto d = dtypeFromName(p.dtype)) return std::string(wgslStorageScalar(*d));
  return "$" + p.dtype;
}

// A binding entry resolved against the variant: an intermediate (explicit scratch, or an
// intermediate of that name), else the port named by arg or name.
BindingSpec resolve(const BindingEntry& e, const Manifest& m, const std::vector<IntermediateSpec>& inter,
                    const std::string& path) {
  BindingSpec b;
  b.name = e.name;
  b.path = path;
  auto findInter = [&](const std::string& id) {
    return std::find_if(inter.begin(), inter.end(), [&](const IntermediateSpec& i) { return i.id == id; });
  };
  if (e.uniform || e.buffer == BufferType::Uniform) {
    b.kind = ResourceKind::Uniform;
    b.type = BufferType::Uniform;
    b.uniform = e.uniform;
    return b;
  }
  std::optional<std::string> scratch = e.scratch;
  if (!scratch && findInter(e.name) != inter.end()) scratch = e.name;
  const PortSpec* port = scratch ? nullptr : m.findPort(e.arg.value_or(e.name));
  if (scratch) {
    auto it = findInter(*scratch);
    if (it == inter.end())
      schemaError(path, "binding '" + e.name + "' names scratch '" + *scratch +
                            "', which the variant does not declare as an intermediate");
    b.kind = ResourceKind::Intermediate;
    b.resource = *scratch;
    b.type = e.buffer.value_or(BufferType::Storage);
    if (e.elementType)
      b.elementType = *e.elementType;
    else if (auto d = dtypeFromName(it->dtype))
      b.elementType = std::string(wgslStorageScalar(*d));
  } else if (port) {
    b.kind = ResourceKind::Tensor;
    b.resource = port->name;
    b.type = e.buffer.value_or(port->direction == PortDirection::Input ? BufferType::ReadOnlyStorage
                                                                          : BufferType::Storage);
    b.elementType = e.elementType ? *e.elementType : defaultElementType(*port, path);
    const bool int64Storage = port->storage ? *port->storage == DType::Int64 : port->dtype == "int64";
    if (int64Storage && !b.elementType.starts_with("$") && b.elementType != "vec2<u32>")
      schemaError(path, "an int64 tensor binding must use vec2<u32>");
  } else {
    schemaError(path, "binding '" + e.name + "' binds '" + e.arg.value_or(e.name) +
                          "', which is neither an input, an output nor an intermediate of the variant");
  }
  if (b.elementType.empty()) schemaError(path, "a storage binding requires elementType");
  b.length = e.length;
  return b;
}

BindingSpec readPassBinding(const Json& j, const std::string& path, const TopLevel& top,
                            const std::vector<IntermediateSpec>& inter) {
  const Manifest& m = *top.manifest;
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (auto h = top.handles.find(s); h != top.handles.end()) return resolve(h->second, m, inter, path);
    BindingEntry e;
    e.name = s;
    e.path = path;
    if (std::any_of(inter.begin(), inter.end(), [&](const auto& i) { return i.id == s; })) e.scratch = s;
    if (!e.scratch && !m.findPort(s))
      schemaError(path, "'" + s + "' is neither a binding handle, a declared tensor nor an intermediate of the variant");
    requireIdentifier(s, path, "binding name");
    return resolve(e, m, inter, path);
  }
  if (j.is_object()) return resolve(readBindingEntry(j, std::nullopt, path), m, inter, path);
  schemaError(path, "a pass binding is a handle, a tensor or intermediate name, or an inline entry");
}

ExprOrValue dispatchSize(const Json& j, const std::string& path) {
  if (j.is_string()) return ExprOrValue::parse(j, path);
  if ((j.is_number_integer() || j.is_number_unsigned()) && j.get<int64_t>() >= 0)
    return ExprOrValue::literal(j, path);
  schemaError(path, "dispatch sizes are expression strings or non-negative integers, got " + j.dump().substr(0, 40));
}

std::string dispatchText(const Json& j) {
  return j.is_string() ? j.get<std::string>() : j.dump();
}

Dispatch readDispatch(const Json& j, const std::string& path) {
  ObjectReader r(j, path);
  Dispatch d;
  d.form = Dispatch::Form::Grid;
  if (j.contains("gridStride"))
    schemaError(path + "/gridStride", "gridStride was removed: write the clamp explicitly, "
                                      "x = min(<count>, device.limits.maxComputeWorkgroupsPerDimension)");
  const bool threads = j.contains("threads"), workgroups = j.contains("workgroups");
  if (threads && workgroups)
    schemaError(path, "dispatch uses exactly one of 'threads'+'workgroupSize' or 'workgroups'");
  if (!threads && !workgroups) {
    const Json& x = r.required("x");
    d.x = dispatchSize(x, r.path("x"));
    if (auto* y = r.optional("y")) d.y = dispatchSize(*y, r.path("y"));
    if (auto* z = r.optional("z")) d.z = dispatchSize(*z, r.path("z"));
    finishObject(r);
    return d;
  }
  // The shorthands are the grid x = min(E, 65535), y = ceilDiv(E, 65535), z = 1 (the Hub loader's
  // reading), E = ceilDiv(threads, workgroupSize) or the workgroup count.
  std::string count;
  if (threads) {
    const Json& t = r.required("threads");
    const Json* w = r.optional("workgroupSize");
    if (!w) schemaError(path, "dispatch shorthand needs both 'threads' and 'workgroupSize'");
    dispatchSize(t, r.path("threads"));
    dispatchSize(*w, r.path("workgroupSize"));
    count = "ceilDiv((" + dispatchText(t) + "), (" + dispatchText(*w) + "))";
  } else {
    const Json& w = r.required("workgroups");
    dispatchSize(w, r.path("workgroups"));
    count = dispatchText(w);
  }
  for (const char* k : {"x", "y", "z"})
    if (j.contains(k))
      schemaError(jsonPath(path, k), "a dispatch shorthand has no pinned axes; write the explicit x/y/z grid");
  finishObject(r);
  d.x = ExprOrValue::expression("min(" + count + ", 65535)", path);
  d.y = ExprOrValue::expression("ceilDiv(" + count + ", 65535)", path);
  d.z = ExprOrValue::literal(Json(1), path);
  return d;
}

std::vector<ViewAlias> readViewAlias(const Json& j, const std::string& path, const std::vector<BindingSpec>& bindings) {
  if (!j.is_array() || j.empty()) schemaError(path, "viewAlias must be a non-empty array of {input, output} pairs");
  auto typeOf = [&](const std::string& n) -> std::optional<BufferType> {
    for (const auto& b : bindings)
      if (b.name == n) return b.type;
    return std::nullopt;
  };
  std::vector<ViewAlias> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string p = jsonPath(path, i);
    ObjectReader r(j[i], p);
    ViewAlias a{readString(r.required("input"), r.path("input")), readString(r.required("output"), r.path("output"))};
    finishObject(r);
    if (typeOf(a.input) != BufferType::ReadOnlyStorage)
      schemaError(r.path("input"), "viewAlias.input '" + a.input + "' must name a read-only-storage binding of the pass");
    if (typeOf(a.output) != BufferType::Storage)
      schemaError(r.path("output"), "viewAlias.output '" + a.output + "' must name a storage binding of the pass");
    out.push_back(std::move(a));
  }
  return out;
}

PassSpec readPass(const Json& j, const std::string& path, size_t index, const TopLevel& top,
                  const std::vector<IntermediateSpec>& inter) {
  ObjectReader r(j, path);
  PassSpec p;
  p.path = path;
  p.id = "pass_" + std::to_string(index);
  if (auto* v = r.optional("id")) p.id = readString(*v, r.path("id"));
  if (p.id.empty()) schemaError(r.path("id"), "a pass id must be a non-empty string");
  detail::requireStableId(p.id, r.path("id"), "pass id");
  if (auto* v = r.optional("name")) {
    p.name = readString(*v, r.path("name"));
    if (p.name.empty()) schemaError(r.path("name"), "a pass name must be a non-empty string");
  }
  const Json& shader = r.required("shader");
  p.shader = readString(shader, r.path("shader"));
  if (p.shader.empty()) schemaError(r.path("shader"), "a pass requires a shader");
  if (auto* v = r.optional("submitAfter")) p.submitAfter = readBool(*v, r.path("submitAfter"));
  if (auto* v = r.optional("subgroupCollectivesWidth")) {
    const bool portable = v->is_string() && v->get<std::string>() == "portable";
    const bool width = v->is_number_integer() && v->get<int64_t>() >= 4 && v->get<int64_t>() <= 128 &&
                       (v->get<int64_t>() & (v->get<int64_t>() - 1)) == 0;
    if (!portable && !width)
      schemaError(r.path("subgroupCollectivesWidth"), "must be \"portable\" or a power of two in [4, 128]");
    p.subgroupCollectivesWidth = portable ? "portable" : std::to_string(v->get<int64_t>());
  }
  p.dispatch = readDispatch(r.required("dispatch"), r.path("dispatch"));
  const Json& bindings = r.required("bindings");
  if (bindings.is_string())
    schemaError(r.path("bindings"), "a binding set name is the seeds' dialect; spec 2.1 lists the pass's entries");
  if (!bindings.is_array() || bindings.empty()) schemaError(r.path("bindings"), "a pass requires a non-empty bindings list");
  for (size_t i = 0; i < bindings.size(); ++i)
    p.bindings.push_back(readPassBinding(bindings[i], jsonPath(r.path("bindings"), i), top, inter));
  if (auto* v = r.optional("derive")) p.derive = readDerive(*v, r.path("derive"), top.reserved);
  if (auto* v = r.optional("viewAlias")) p.viewAlias = readViewAlias(*v, r.path("viewAlias"), p.bindings);
  if (auto* v = r.optional("profile")) {
    readObject(*v, r.path("profile"));
    for (auto it = v->begin(); it != v->end(); ++it)
      p.profile.push_back({it.key(), ExprOrValue::parseDeep(it.value(), jsonPath(r.path("profile"), it.key()))});
  }
  finishObject(r, passHints());
  if (p.name.empty()) p.name = top.manifest->id() + "." + p.id;
  return p;
}

std::vector<PassNode> readPasses(const Json& j, const std::string& path, const TopLevel& top,
                                 const std::vector<IntermediateSpec>& inter, std::set<std::string> outerIndexes) {
  if (!j.is_array() || j.empty()) schemaError(path, "passes must be a non-empty list");
  std::vector<PassNode> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string p = jsonPath(path, i);
    PassNode n;
    if (!j[i].is_object() || !j[i].contains("repeat")) {
      n.pass = readPass(j[i], p, i, top, inter);
      out.push_back(std::move(n));
      continue;
    }
    ObjectReader r(j[i], p);
    n.isGroup = true;
    n.groupId = "repeat_" + std::to_string(i);
    if (auto* v = r.optional("id")) n.groupId = readString(*v, r.path("id"));
    detail::requireStableId(n.groupId, r.path("id"), "repeat group id");
    ObjectReader rep(r.required("repeat"), r.path("repeat"));
    n.index = readString(rep.required("index"), rep.path("index"));
    requireIdentifier(n.index, rep.path("index"), "repeat index");
    if (n.index == "index" || n.index == "count")
      schemaError(rep.path("index"), "the repeat index cannot be the reserved member '" + n.index + "'");
    if (outerIndexes.count(n.index)) schemaError(rep.path("index"), "index '" + n.index + "' shadows an outer repeat index");
    const Json& count = rep.required("count");
    if (!count.is_string() && !count.is_number()) schemaError(rep.path("count"), "expected a number or an expression");
    n.count = ExprOrValue::parse(count, rep.path("count"));
    finishObject(rep);
    outerIndexes.insert(n.index);
    n.children = readPasses(r.required("passes"), r.path("passes"), top, inter, outerIndexes);
    finishObject(r);
    out.push_back(std::move(n));
  }
  return out;
}

IntermediateSpec readIntermediate(const Json& j, const std::string& path, const Manifest& m) {
  ObjectReader r(j, path);
  IntermediateSpec is;
  is.path = path;
  is.id = readString(r.required("id"), r.path("id"));
  if (is.id.empty()) schemaError(r.path("id"), "an intermediate id must be a non-empty string");
  is.dtype = readString(r.required("dtype"), r.path("dtype"));
  if (!dtypeFromName(is.dtype))
    schemaError(r.path("dtype"), "'" + is.dtype + "' is not a concrete WebGPU storage dtype");
  if (is.dtype == "int64") schemaError(r.path("dtype"), "int64 intermediates are unsupported");
  const Json& shape = r.required("shape");
  if (!shape.is_string() && !shape.is_array() && !shape.is_number())
    schemaError(r.path("shape"), "expected an expression, a list or a number");
  is.shape = ExprOrValue::parseDeep(shape.is_number() ? Json::array({shape}) : shape, r.path("shape"));
  if (auto* v = r.optional("zeroInit")) {
    if (!v->is_boolean() || !v->get<bool>())
      schemaError(r.path("zeroInit"), "zeroInit must be true when present (leave it out otherwise)");
    is.zeroInit = true;
  }
  if (m.findPort(is.id)) schemaError(r.path("id"), "intermediate '" + is.id + "' is also a tensor name");
  finishObject(r);
  return is;
}

}  // namespace

namespace {

VariantSpec readOneVariant(const ExpandedVariant& ev, size_t index, const TopLevel& top) {
    const Json& j = ev.json;
    ObjectReader r(j, ev.path);
    VariantSpec v;
    v.path = ev.path;
    v.family = ev.family;
    v.id = "variant_" + std::to_string(index);
    if (auto* x = r.optional("id")) v.id = readString(*x, r.path("id"));
    static const std::regex stable(R"(^[A-Za-z0-9][A-Za-z0-9_]*$)");
    if (!std::regex_match(v.id, stable)) schemaError(r.path("id"), "variant id '" + v.id + "' is not a stable id");
    if (auto* x = r.optional("description")) v.description = readString(*x, r.path("description"));
    if (auto* x = r.optional("priority")) {
      if (!x->is_number() || !std::isfinite(x->get<double>()))
        schemaError(r.path("priority"), "priority must be a finite number");
      v.priority = x->get<double>();
    }
    v.when = top.when;
    if (auto* x = r.optional("when"))
      for (auto& c : readWhenList(*x, r.path("when"), "when")) v.when.push_back(std::move(c));
    if (auto* x = r.optional("demoteWhen")) v.demoteWhen = readWhenList(*x, r.path("demoteWhen"), "demoteWhen");
    if (auto* x = r.optional("supersededBy")) {
      if (!x->is_array() || x->empty()) schemaError(r.path("supersededBy"), "supersededBy must be a non-empty list of ids");
      v.supersededBy = readStringList(*x, r.path("supersededBy"));
    }
    Requirements own;
    if (auto* x = r.optional("requires")) own = readRequires(*x, r.path("requires"));
    v.requirements = mergeRequires(top.requirements, own, r.path("requires"));
    if (auto* x = r.optional("tunables"))
      for (auto& t : readTunables(*x, r.path("tunables")))
        v.tunables.push_back({t.name, ExprOrValue::literal(t.value.toJson(), jsonPath(r.path("tunables"), t.name))});
    if (auto* x = r.optional("derive")) v.selectedDerive = readDerive(*x, r.path("derive"), top.reserved);
    if (auto* x = r.optional("intermediates")) {
      readArray(*x, r.path("intermediates"));
      for (size_t i = 0; i < x->size(); ++i)
        v.intermediates.push_back(readIntermediate((*x)[i], jsonPath(r.path("intermediates"), i), *top.manifest));
    }
    v.passes = readPasses(r.required("passes"), r.path("passes"), top, v.intermediates, {});
    finishObject(r, variantHints());
    return v;
}

}  // namespace

VariantSpec readVariant(const ExpandedVariant& ev, size_t index, const TopLevel& top) {
  if (ev.family.empty()) return readOneVariant(ev, index, top);
  return withContext("in family " + ev.family, [&] { return readOneVariant(ev, index, top); });
}

}  // namespace wgk::package::spec21

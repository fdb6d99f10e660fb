// The mechanical parts of a plan: WGSL declarations, uniform packing, dispatch folding, the JSON
// and text forms, and the request key.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>

#include "plan/plan_internal.h"
#include "wgk/error.h"

namespace wgk::plan {

using package::BufferType;
using package::Json;
using package::ResourceKind;

std::string resourceDeclarations(const std::vector<PlannedBinding>& bindings) {
  // Structs first, one per name (the same name with other fields is an error), each padded with
  // u32 `_padN` fields to a multiple of four; then one line per binding; lines joined by "\n"
  // with none after the last (the Hub loader's declarations, byte for byte).
  std::vector<std::string> lines;
  std::map<std::string, std::string> declared;
  for (const auto& b : bindings) {
    if (b.type != BufferType::Uniform) continue;
    std::string fields;
    std::set<std::string> names;
    for (size_t i = 0; i < b.uniforms.size(); ++i) {
      fields += (i ? ", " : "") + b.uniforms[i].first + ": " + b.uniformTypes[i];
      names.insert(b.uniforms[i].first);
    }
    for (size_t n = b.uniforms.size(), pad = 0; n % 4 != 0; ++n) {
      while (names.count("_pad" + std::to_string(pad))) ++pad;
      fields += ", _pad" + std::to_string(pad++) + ": u32";
    }
    std::string decl = "struct " + b.structName + " { " + fields + " };";
    auto [it, fresh] = declared.emplace(b.structName, decl);
    if (!fresh && it->second != decl)
      throw Error(ErrorCode::Manifest,
                  "uniform struct " + b.structName + " is declared with conflicting fields");
    if (fresh) lines.push_back(std::move(decl));
  }
  for (const auto& b : bindings) {
    if (b.type == BufferType::Uniform) {
      lines.push_back(
          fmt::format("@group(0) @binding({}) var<uniform> {}: {};", b.binding, b.name, b.structName));
      continue;
    }
    const char* access = b.type == BufferType::Storage ? "read_write" : "read";
    const std::string array = b.length ? fmt::format("array<{}, {}u>", b.elementType, *b.length)
                                       : fmt::format("array<{}>", b.elementType);
    lines.push_back(
        fmt::format("@group(0) @binding({}) var<storage, {}> {}: {};", b.binding, access, b.name, array));
  }
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

std::vector<uint8_t> packUniforms(const std::vector<package::UniformField>& fields,
                                  const std::vector<expr::Value>& values, const std::string& structName) {
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < fields.size(); ++i) {
    const auto& f = fields[i];
    const expr::Value& v = values.at(i);
    const std::string what = structName + "." + f.name + " (" + f.type + ")";
    uint32_t word = 0;
    if (f.type == "f32") {
      if (v.isBool() || !v.isNumber())
        throw Error(ErrorCode::Contract, what + " must be a number, got " + v.repr());
      const double d = v.asNumber();
      if (std::isnan(d)) throw Error(ErrorCode::Contract, what + " is NaN");
      const float x = static_cast<float>(d);
      // A finite value beyond f32's range would silently become infinity in the shader.
      if (std::isfinite(d) && !std::isfinite(x))
        throw Error(ErrorCode::Contract,
                    what + " = " + v.repr() + " is outside the f32 range (|x| < 3.4028235e38)");
      std::memcpy(&word, &x, 4);
    } else {
      int64_t n = 0;
      try {
        n = detail::valueToInt(v, what);
      } catch (const Error& e) {
        throw Error(ErrorCode::Contract, e.message());
      }
      if (f.type == "u32") {
        if (n < 0 || n > 0xFFFFFFFFll)
          throw Error(ErrorCode::Contract,
                      what + " = " + std::to_string(n) + " does not fit a u32 [0, 2^32)");
        word = static_cast<uint32_t>(n);
      } else {
        if (n < INT32_MIN || n > INT32_MAX)
          throw Error(ErrorCode::Contract, what + " = " + std::to_string(n) + " does not fit an i32");
        const int32_t s = static_cast<int32_t>(n);
        std::memcpy(&word, &s, 4);
      }
    }
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(word >> (8 * b)));  // little endian
  }
  while (bytes.size() % 16 != 0 || bytes.empty()) bytes.push_back(0);
  return bytes;
}

std::array<uint32_t, 3> foldDispatch(uint64_t x, uint64_t z, uint64_t maxDim, bool* folded, bool balanced) {
  if (maxDim == 0) throw Error(ErrorCode::Unsupported, "device reports maxComputeWorkgroupsPerDimension 0");
  if (folded) *folded = false;
  if (z > maxDim)
    throw Error(ErrorCode::Unsupported,
                fmt::format("dispatch z = {} exceeds maxComputeWorkgroupsPerDimension {}", z, maxDim));
  uint64_t y = 1;
  if (x > maxDim) {
    // The shader rebuilds the linear index as wg.x + wg.y * num_workgroups.x.
    y = (x + maxDim - 1) / maxDim;
    // Balanced: x = ceil(x / y) launches at most y - 1 surplus workgroups. Unbalanced keeps
    // x = maxDim (the row stride that `workgroups` manifests pass as a uniform) and may launch
    // up to maxDim - 1 surplus ones: measured on the H200, 65534 empty workgroups cost about a
    // fifth of a 512 MiB copy's time.
    x = balanced ? (x + y - 1) / y : maxDim;
    if (folded) *folded = true;
    if (y > maxDim)
      throw Error(ErrorCode::Unsupported,
                  fmt::format("dispatch of {} workgroups does not fit even folded: y = {} exceeds "
                              "maxComputeWorkgroupsPerDimension {}",
                              x * y, y, maxDim));
  }
  return {static_cast<uint32_t>(x), static_cast<uint32_t>(y), static_cast<uint32_t>(z)};
}

const PlannedOutput* Plan::findOutput(std::string_view name) const {
  for (const auto& o : outputs)
    if (o.name == name) return &o;
  return nullptr;
}

namespace {
Json shapeJson(const Shape& s) {
  Json j = Json::array();
  for (int64_t d : s) j.push_back(d);
  return j;
}
std::string hex(const std::vector<uint8_t>& bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}
Json valueJson(const expr::Value& v) {
  if (v.isBool()) return v.asBool();
  if (v.isInt()) return v.asInt();
  if (v.isFloat()) return v.asNumber();
  if (v.isString()) return v.asString();
  return v.repr();
}
}  // namespace

Json Plan::toJson(bool withWgsl) const {
  Json j = Json::object();
  j["package"] = package;
  j["dialect"] = dialect;
  j["variant"] = variant;
  j["selectedBy"] = selectedBy;
  Json tj = Json::object();
  for (const auto& [name, v] : tunables) tj[name] = valueJson(v);
  j["tunables"] = tj;
  if (!preferenceIgnored.empty()) j["preferenceIgnored"] = preferenceIgnored;
  if (!tuningSource.empty() && (selectedBy == "tuning" || !preferenceIgnored.empty()))
    j["tuningSource"] = tuningSource;
  Json vs = Json::array();
  for (const auto& v : variants)
    vs.push_back({{"id", v.id},
                  {"priority", v.priority},
                  {"eligible", v.eligible},
                  {"demoted", v.demoted},
                  {"reason", v.reason}});
  j["variants"] = vs;
  Json outs = Json::object();
  for (const auto& o : outputs)
    outs[o.name] = {{"dtype", std::string(dtypeName(o.dtype))}, {"shape", shapeJson(o.shape)}};
  j["outputs"] = outs;
  Json inter = Json::array();
  for (const auto& i : intermediates)
    inter.push_back({{"id", i.id},
                     {"dtype", std::string(dtypeName(i.dtype))},
                     {"shape", shapeJson(i.shape)},
                     {"bytes", i.bytes},
                     {"zeroInit", i.zeroInit}});
  j["intermediates"] = inter;
  Json passesJ = Json::array();
  for (const auto& p : passes) {
    Json pj = Json::object();
    pj["id"] = p.id;
    pj["name"] = p.name;
    pj["shader"] = p.shader;
    pj["dispatch"] = {p.dispatch[0], p.dispatch[1], p.dispatch[2]};
    pj["workgroups"] = {p.workgroups[0], p.workgroups[1], p.workgroups[2]};
    pj["folded"] = p.folded;
    pj["skipped"] = p.skipped;
    if (p.submitAfter) pj["submitAfter"] = true;
    if (p.subgroupCollectivesWidth) pj["subgroupCollectivesWidth"] = *p.subgroupCollectivesWidth;
    if (!p.viewAlias.empty()) {
      Json va = Json::array();
      for (const auto& a : p.viewAlias) va.push_back({{"input", a.input}, {"output", a.output}});
      pj["viewAlias"] = va;
    }
    if (!p.profile.empty()) {
      Json pr = Json::object();
      for (const auto& [k, v] : p.profile) pr[k] = Json::parse(v.toJson().dump());
      pj["profile"] = pr;
    }
    Json bs = Json::array();
    Json uniforms = Json::object();
    std::string uniformBytes;
    for (const auto& b : p.bindings) {
      Json bj = {{"binding", b.binding},
                 {"name", b.name},
                 {"kind", std::string(package::resourceKindName(b.kind))},
                 {"type", std::string(package::bufferTypeName(b.type))}};
      if (b.kind == ResourceKind::Tensor) bj["arg"] = b.resource;
      if (b.kind == ResourceKind::Intermediate) bj["intermediate"] = b.resource;
      if (b.kind == ResourceKind::Uniform) {
        bj["struct"] = b.structName;
        bj["bytes"] = hex(b.uniformBytes);
        for (const auto& [k, v] : b.uniforms) uniforms[k] = valueJson(v);
        uniformBytes += hex(b.uniformBytes);
      } else {
        bj["elementType"] = b.elementType;
        if (b.length) bj["length"] = *b.length;
      }
      bs.push_back(bj);
    }
    pj["bindings"] = bs;
    pj["uniforms"] = uniforms;
    pj["uniformBytes"] = uniformBytes;
    pj["declarations"] = p.declarations;
    if (withWgsl) pj["wgsl"] = p.wgsl;
    passesJ.push_back(pj);
  }
  j["passes"] = passesJ;
  return j;
}

std::string Plan::toText(bool withWgsl) const {
  const std::string source = tuningSource.empty() ? "" : " (" + tuningSource + ")";
  const std::string by = selectedBy == "tuning" ? "tuning" + source : selectedBy;
  std::string out = fmt::format("package {}\nvariant {} (selected by {})\n", package, variant, by);
  if (!tunables.empty()) {
    std::string list;
    for (const auto& [name, v] : tunables) list += (list.empty() ? "" : ", ") + name + "=" + v.repr();
    out += fmt::format("tunables: {} ({})\n", list, selectedBy == "tuning" ? "tuning" + source : "override");
  }
  if (!preferenceIgnored.empty()) out += "tuning" + source + " ignored: " + preferenceIgnored + "\n";
  out += "\nvariants:\n";
  // Listed in the order selection considers them (highest priority first, manifest order among
  // equals), with the id column as wide as the longest id so the columns line up.
  std::vector<const VariantVerdict*> ordered;
  size_t idWidth = 0;
  for (const auto& v : variants) {
    ordered.push_back(&v);
    idWidth = std::max(idWidth, v.id.size());
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const VariantVerdict* a, const VariantVerdict* b) {
    return a->priority > b->priority;
  });
  for (const VariantVerdict* v : ordered) {
    const char* mark = v->id == variant ? "*" : " ";
    std::string verdict = !v->eligible ? "ineligible: " + v->reason
                          : v->demoted ? "eligible, " + v->reason
                                       : "eligible";
    out += fmt::format(" {} {:<{}}  priority {:<6} {}\n", mark, v->id, idWidth, v->priority, verdict);
  }
  out += "\noutputs:\n";
  for (const auto& o : outputs)
    out += fmt::format("  {} : {} {}\n", o.name, dtypeName(o.dtype), shapeText(o.shape));
  if (!intermediates.empty()) {
    out += "\nintermediates:\n";
    for (const auto& i : intermediates)
      out += fmt::format("  {} : {} {} ({} bytes{})\n", i.id, dtypeName(i.dtype), shapeText(i.shape), i.bytes,
                         i.zeroInit ? ", zeroed" : "");
  }
  for (const auto& p : passes) {
    out += fmt::format("\npass {} ({}), shader {}\n", p.id, p.name, p.shader);
    if (p.skipped) {
      out += fmt::format("  dispatch: skipped (zero workgroups: {} x {} x {})\n", p.workgroups[0],
                         p.workgroups[1], p.workgroups[2]);
    } else {
      out += fmt::format("  dispatch: {} x {} x {}", p.dispatch[0], p.dispatch[1], p.dispatch[2]);
      if (p.folded) out += fmt::format(" (folded from {} workgroups in x)", p.workgroups[0]);
      out += "\n";
    }
    if (p.submitAfter) out += "  submitAfter: the work so far is submitted after this pass\n";
    for (const auto& a : p.viewAlias)
      out += fmt::format("  viewAlias: skipped when {} and {} view the same bytes\n", a.input, a.output);
    for (const auto& b : p.bindings) {
      out += fmt::format("  @binding({}) {} : {} ", b.binding, b.name, package::bufferTypeName(b.type));
      if (b.kind == ResourceKind::Uniform) {
        out += b.structName + " {";
        for (size_t i = 0; i < b.uniforms.size(); ++i)
          out += (i ? ", " : " ") + b.uniforms[i].first + " = " + b.uniforms[i].second.repr();
        out += " } bytes " + hex(b.uniformBytes) + "\n";
      } else {
        out += fmt::format("array<{}{}> <- {} {}\n", b.elementType,
                           b.length ? ", " + std::to_string(*b.length) : "",
                           package::resourceKindName(b.kind), b.resource);
      }
    }
    if (withWgsl) out += "  wgsl:\n" + (p.wgsl.empty() ? std::string("    (not rendered)\n") : p.wgsl + "\n");
  }
  return out;
}

std::string requestKey(const PlanRequest& r, const std::string& deviceId) {
  // Unambiguous: every part is length- or delimiter-framed; attrs are sorted by name (std::map).
  // Built by appending into one reserved string: this runs on every kernel call (the runtime's
  // plan cache key), so it avoids the temporaries of operator+ chains.
  std::string k;
  k.reserve(64 + 48 * r.inputs.size() + 32 * r.attrs.size());
  k.append("dev=").append(std::to_string(deviceId.size())).append(":").append(deviceId);
  char digits[24];
  for (const auto& [name, t] : r.inputs) {
    k.append("|in ").append(name).append("=").append(dtypeName(t.dtype)).append("[");
    for (int64_t d : t.shape) {
      const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, d);
      k.append(digits, end).push_back(',');
    }
    k.push_back(']');
  }
  for (const auto& a : r.absent) k.append("|absent ").append(a);
  for (const auto& [name, v] : r.args)
    k.append("|arg ").append(name).append("=").append(v.kindName()).append(":").append(v.repr());
  for (const auto& [name, t] : r.outputs) {
    k.append("|out ").append(name).append("=").append(dtypeName(t.dtype)).append("[");
    for (int64_t d : t.shape) k.append(std::to_string(d)).push_back(',');
    k.push_back(']');
  }
  for (const auto& [name, v] : r.attrs)
    k.append("|attr ").append(name).append("=").append(v.kindName()).append(":").append(v.repr());
  if (!r.forcedVariant.empty()) k.append("|force ").append(r.forcedVariant);
  if (!r.preferredVariant.empty()) k.append("|prefer ").append(r.preferredVariant);
  for (const auto& [name, v] : r.tunables)
    k.append("|tunable ").append(name).append("=").append(v.kindName()).append(":").append(v.repr());
  return k;
}

}  // namespace wgk::plan

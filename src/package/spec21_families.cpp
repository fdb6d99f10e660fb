// Spec 2.1 variant families: a `variants` member {cases, variants} or {axes, exclude?, cases?,
// variants} expands, case by case and template by template, into plain variants. A template
// string that is exactly "{key}" takes the case value whole (null deletes the member, a list
// splices into a list); "{key}" inside a longer string takes the value's text.
#include <regex>

#include "package/budgets.h"
#include "package/manifest_checks.h"
#include "package/spec21_internal.h"
#include "wgk/error.h"

namespace wgk::package::spec21 {

namespace {

using Values = std::map<std::string, Json>;

const std::regex& wholePlaceholder() {
  static const std::regex r(R"(^\{([A-Za-z_]\w*)\}$)");
  return r;
}
const std::regex& anyPlaceholder() {
  static const std::regex r(R"(\{([A-Za-z_]\w*)\})");
  return r;
}

bool isFiniteJson(const Json& j) {
  if (j.is_number()) return std::isfinite(j.get<double>());
  if (j.is_array() || j.is_object()) {
    for (const auto& c : j)
      if (!isFiniteJson(c)) return false;
  }
  return true;
}

void checkRecord(const Json& j, const std::string& path) {
  if (!j.is_object() || j.empty()) schemaError(path, "a case must be a non-empty record");
  for (auto it = j.begin(); it != j.end(); ++it) {
    detail::requireIdentifier(it.key(), jsonPath(path, it.key()), "case key");
    if (!isFiniteJson(it.value())) schemaError(jsonPath(path, it.key()), "case values must be finite JSON values");
  }
}

std::string scalarText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return jsNumberText(v.get<double>());
}

struct Deleted {};

// Substitutes the case values into one template value; nullopt: the member is deleted.
std::optional<Json> substitute(const Json& t, const Values& vals, const std::string& where, bool arrayElement,
                               bool required, int depth = 0) {
  if (t.is_string()) {
    const std::string s = t.get<std::string>();
    std::smatch m;
    if (std::regex_match(s, m, wholePlaceholder()) && vals.count(m[1])) {
      const Json& v = vals.at(m[1]);
      if (!v.is_null()) return v;
      if (arrayElement)
        schemaError(where, "null substitution \"{" + m[1].str() + "}\" cannot delete an array element "
                           "(substitute an empty array to splice nothing)");
      if (required) schemaError(where, "null substitution \"{" + m[1].str() + "}\" cannot remove a required member");
      return std::nullopt;
    }
    std::string out;
    auto begin = std::sregex_iterator(s.begin(), s.end(), anyPlaceholder());
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      const std::string key = (*it)[1];
      out += s.substr(last, it->position() - last);
      last = it->position() + it->length();
      auto v = vals.find(key);
      if (v == vals.end()) {
        out += it->str();
        continue;
      }
      if (v->second.is_null() || v->second.is_object() || v->second.is_array())
        schemaError(where, "substitution \"{" + key + "}\" must occupy the whole value to take a " +
                               (v->second.is_null() ? "null" : "structured") + " case value");
      out += scalarText(v->second);
    }
    return Json(out + s.substr(last));
  }
  if (t.is_array()) {
    Json out = Json::array();
    for (size_t i = 0; i < t.size(); ++i) {
      const Json& e = t[i];
      std::smatch m;
      std::string s;
      if (e.is_string() && std::regex_match(s = e.get<std::string>(), m, wholePlaceholder()) && vals.count(m[1]) &&
          vals.at(m[1]).is_array()) {
        for (const auto& x : vals.at(m[1])) out.push_back(x);
        continue;
      }
      out.push_back(*substitute(e, vals, jsonPath(where, i), true, false, depth + 1));
    }
    return out;
  }
  if (t.is_object()) {
    Json out = Json::object();
    for (auto it = t.begin(); it != t.end(); ++it) {
      const std::string key = substitute(Json(it.key()), vals, where, false, true)->get<std::string>();
      if (out.contains(key)) schemaError(where, "substitution produced the object key '" + key + "' twice");
      // The Hub loader keeps every `id` and the variant's `passes` from deletion.
      const bool req = key == "id" || (depth == 0 && key == "passes");
      auto v = substitute(it.value(), vals, jsonPath(where, key), false, req, depth + 1);
      if (v) out[key] = std::move(*v);
    }
    return out;
  }
  return t;
}

void checkResolved(const Json& j, const std::string& where) {
  std::smatch m;
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (std::regex_search(s, m, anyPlaceholder()))
      schemaError(where, "leaves the placeholder \"" + m[0].str() + "\" unresolved");
    return;
  }
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) checkResolved(j[i], jsonPath(where, i));
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string k = it.key();
      if (std::regex_search(k, m, anyPlaceholder()))
        schemaError(where, "leaves the placeholder \"" + m[0].str() + "\" unresolved in an object key");
      checkResolved(it.value(), jsonPath(where, it.key()));
    }
}

// Refuses a family of `cells` cases x `templates` variant templates that would take the package
// past kMaxVariants (`already` expanded before it), before any of them is built.
void checkFamilySize(uint64_t cells, size_t templates, size_t already, const std::string& path) {
  const uint64_t total = cells * templates;  // each at most kMaxJsonObjectKeys: no overflow
  if (already + total > kMaxVariants)
    schemaError(path, "the family expands to " + std::to_string(total) + " variants (" +
                          std::to_string(cells) + " cases x " + std::to_string(templates) +
                          " templates), which takes the package past " + std::to_string(kMaxVariants) +
                          " variants (package::kMaxVariants)");
}

// The cells of an {axes, exclude, cases} family, in axis order, each with its values; the family's
// size is checked (checkFamilySize) before the cells are built.
std::vector<Values> axisCells(const Json& fam, const std::string& path, size_t templates, size_t already) {
  const Json& axes = fam.at("axes");
  if (!axes.is_object() || axes.size() != 2) schemaError(path + "/axes", "axes must have exactly two named axes");
  std::vector<std::string> names;
  std::vector<std::vector<std::pair<std::string, Values>>> entries;
  std::vector<std::set<std::string>> keys;   // per axis: lookups that stay linear in the entries
  std::map<std::string, std::string> owner;  // value name -> axis
  for (auto it = axes.begin(); it != axes.end(); ++it) {
    const std::string ap = jsonPath(path + "/axes", it.key());
    detail::requireIdentifier(it.key(), ap, "axis name");
    names.push_back(it.key());
    if (!it.value().is_array() || it.value().empty()) schemaError(ap, "an axis must be a non-empty array");
    std::vector<std::pair<std::string, Values>> list;
    std::set<std::string>& seen = keys.emplace_back();
    for (size_t i = 0; i < it.value().size(); ++i) {
      const Json& e = it.value()[i];
      const std::string ep = jsonPath(ap, i);
      if (!e.is_object() || !e.contains("$key") || !e["$key"].is_string())
        schemaError(ep, "an axis entry needs an identifier $key");
      const std::string key = e["$key"];
      detail::requireIdentifier(key, ep + "/$key", "$key");
      if (!seen.insert(key).second) schemaError(ep, "duplicate $key '" + key + "' in axis " + it.key());
      Values vals;
      for (auto m = e.begin(); m != e.end(); ++m) {
        if (m.key() == "$key") continue;
        detail::requireIdentifier(m.key(), jsonPath(ep, m.key()), "case key");
        if (axes.contains(m.key())) schemaError(ep, "value '" + m.key() + "' collides with an axis name");
        auto [o, fresh] = owner.emplace(m.key(), it.key());
        if (!fresh && o->second != it.key()) schemaError(ep, "value '" + m.key() + "' belongs to both axes");
        vals[m.key()] = m.value();
      }
      list.emplace_back(key, std::move(vals));
    }
    entries.push_back(std::move(list));
  }
  auto selector = [&](const Json& s, const std::string& sp, bool exact) {
    if (!s.is_object()) schemaError(sp, "must be a selector record");
    std::pair<std::string, std::string> cell;
    for (size_t a = 0; a < 2; ++a) {
      const Json* k = s.contains(names[a]) ? &s[names[a]] : nullptr;
      const bool ok = k && k->is_string() && keys[a].count(k->get<std::string>());
      if (!ok) schemaError(sp, "must select an existing " + names[a] + " key");
      (a == 0 ? cell.first : cell.second) = k->get<std::string>();
    }
    if (exact && s.size() != 2) schemaError(sp, "must name exactly both axes");
    return cell;
  };
  std::set<std::pair<std::string, std::string>> excluded;
  if (fam.contains("exclude")) {
    if (!fam["exclude"].is_array()) schemaError(path + "/exclude", "exclude must be an array");
    for (size_t i = 0; i < fam["exclude"].size(); ++i)
      if (!excluded.insert(selector(fam["exclude"][i], jsonPath(path + "/exclude", i), true)).second)
        schemaError(jsonPath(path + "/exclude", i), "duplicate excluded cell");
  }
  std::map<std::pair<std::string, std::string>, Values> overrides;
  if (fam.contains("cases")) {
    if (!fam["cases"].is_array()) schemaError(path + "/cases", "cases overrides must be an array");
    for (size_t i = 0; i < fam["cases"].size(); ++i) {
      const std::string cp = jsonPath(path + "/cases", i);
      auto cell = selector(fam["cases"][i], cp, false);
      if (overrides.count(cell)) schemaError(cp, "duplicate cell override");
      if (excluded.count(cell)) schemaError(cp, "an override targets an excluded cell");
      Values vals;
      for (auto m = fam["cases"][i].begin(); m != fam["cases"][i].end(); ++m)
        if (m.key() != names[0] && m.key() != names[1]) vals[m.key()] = m.value();
      overrides[cell] = std::move(vals);
    }
  }
  checkFamilySize(uint64_t{entries[0].size()} * entries[1].size() - excluded.size(), templates, already,
                  path + "/axes");
  std::vector<Values> cells;
  for (const auto& [k0, v0] : entries[0])
    for (const auto& [k1, v1] : entries[1]) {
      if (excluded.count({k0, k1})) continue;
      Values v = v0;
      for (const auto& [k, x] : v1) v[k] = x;
      if (auto o = overrides.find({k0, k1}); o != overrides.end())
        for (const auto& [k, x] : o->second) v[k] = x;
      cells.push_back(std::move(v));
    }
  if (cells.empty()) schemaError(path + "/axes", "the axes must retain at least one cell");
  return cells;
}

}  // namespace

std::vector<ExpandedVariant> expandFamilies(const Json& variants) {
  std::vector<ExpandedVariant> out;
  for (size_t i = 0; i < variants.size(); ++i) {
    const Json& v = variants[i];
    const std::string path = jsonPath("/variants", i);
    if (!v.is_object()) schemaError(path, "a variant must be an object");
    if (v.contains("use")) schemaError(path, "an unexpanded shared fragment reference (\"use\"); expand it first");
    if (!v.contains("cases") && !v.contains("axes") && !v.contains("exclude")) {
      if (out.size() >= kMaxVariants)
        schemaError(path, "the package holds more than " + std::to_string(kMaxVariants) +
                              " variants (package::kMaxVariants)");
      out.push_back({v, path, ""});
      continue;
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string& k = it.key();
      if (k != "cases" && k != "variants" && k != "description" && k != "axes" && !(k == "exclude" && v.contains("axes")))
        schemaError(jsonPath(path, k), "unknown field '" + k + "' of a variant family");
    }
    if (v.contains("description") && !v["description"].is_string())
      schemaError(path + "/description", "expected a string");
    if (!v.contains("variants") || !v["variants"].is_array() || v["variants"].empty())
      schemaError(path + "/variants", "a family needs at least one variant template");
    std::vector<Values> cases;
    if (v.contains("axes")) {
      cases = axisCells(v, path, v["variants"].size(), out.size());
    } else {
      if (!v["cases"].is_array() || v["cases"].empty())
        schemaError(path + "/cases", "family cases must be a non-empty array of case records");
      checkFamilySize(v["cases"].size(), v["variants"].size(), out.size(), path + "/cases");
      for (size_t c = 0; c < v["cases"].size(); ++c) {
        checkRecord(v["cases"][c], jsonPath(path + "/cases", c));
        Values vals;
        for (auto m = v["cases"][c].begin(); m != v["cases"][c].end(); ++m) vals[m.key()] = m.value();
        cases.push_back(std::move(vals));
      }
    }
    for (size_t c = 0; c < cases.size(); ++c)
      for (size_t t = 0; t < v["variants"].size(); ++t) {
        const std::string tp = jsonPath(path + "/variants", t);
        const std::string label = "variants[" + std::to_string(i) + "] case " + std::to_string(c);
        Json expanded = withContext("while expanding family " + label, [&] {
          auto r = substitute(v["variants"][t], cases[c], tp, false, true);
          checkResolved(*r, tp);
          return *r;
        });
        out.push_back({std::move(expanded), tp, label});
      }
  }
  return out;
}

}  // namespace wgk::package::spec21

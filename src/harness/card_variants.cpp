// The card's "Implementation variants" and "Device requirements" sections. The manifest carries no
// prose per variant, so the card states what decides each one: priority, required features, the
// `when` / `demoteWhen` clauses (with the derived conditions they use spelled out), passes,
// templates and scratch buffers.
#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "harness/card.h"

namespace wgk::harness {
namespace {

using package::ExprOrValue;
using package::Manifest;
using package::NamedValue;

// Markdown inline code; a `|` would end a table cell.
std::string code(const std::string& text) {
  std::string out = "`";
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out + "`";
}

std::string joinCode(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + code(i);
  return out;
}

std::vector<std::string> referenced(const ExprOrValue& v) {
  return v.referencedNames();
}

// Every expression of the manifest, manifest-level first, then per variant.
std::vector<const ExprOrValue*> allExpressions(const Manifest& m) {
  std::vector<const ExprOrValue*> out;
  auto named = [&](const std::vector<NamedValue>& list) {
    for (const auto& n : list) out.push_back(&n.value);
  };
  named(m.derive);
  for (const auto& v : m.variants) {
    for (const auto& w : v.when) out.push_back(&w);
    for (const auto& w : v.demoteWhen) out.push_back(&w);
    named(v.derive);
    named(v.constants);
    named(v.selectedDerive);
    for (const auto* p : v.flatPasses()) named(p->derive);
  }
  return out;
}

// The derived conditions the variants' clauses use, directly or through other derived names, in
// declaration order (manifest derive first, then each variant's).
std::vector<std::pair<std::string, const ExprOrValue*>> conditionsUsed(const Manifest& m) {
  std::vector<std::pair<std::string, const ExprOrValue*>> defs;  // declaration order
  for (const auto& d : m.derive) defs.emplace_back(d.name, &d.value);
  for (const auto& v : m.variants)
    for (const auto& d : v.derive) defs.emplace_back(d.name, &d.value);
  std::set<std::string> used;
  std::vector<std::string> todo;
  auto need = [&](const ExprOrValue& e) {
    auto names = referenced(e);
    todo.insert(todo.end(), names.begin(), names.end());
  };
  for (const auto& v : m.variants) {
    for (const auto& w : v.when) need(w);
    for (const auto& w : v.demoteWhen) need(w);
  }
  while (!todo.empty()) {
    std::string name = todo.back();
    todo.pop_back();
    if (name.find('.') != std::string::npos || !used.insert(name).second) continue;
    for (const auto& [n, value] : defs)
      if (n == name) need(*value);
  }
  std::vector<std::pair<std::string, const ExprOrValue*>> out;
  std::set<std::string> emitted;
  for (const auto& d : defs)
    if (used.count(d.first) && emitted.insert(d.first).second) out.push_back(d);
  return out;
}

std::string variantBullet(const package::VariantSpec& v) {
  std::ostringstream s;
  std::ostringstream priority;
  priority << v.priority;
  s << "- " << code(v.id) << " — priority " << priority.str();
  if (!v.requirements.features.empty()) s << "; requires " << joinCode(v.requirements.features);
  const auto passes = v.flatPasses();
  s << "; " << passes.size() << (passes.size() == 1 ? " pass" : " passes") << ": ";
  for (size_t i = 0; i < passes.size(); ++i)
    s << (i ? ", then " : "") << code(passes[i]->name.empty() ? passes[i]->id : passes[i]->name) << " ("
      << code(passes[i]->shader) << ")";
  s << ".\n";
  std::vector<std::string> when;
  for (const auto& w : v.when)
    if (w.text() != "true") when.push_back(w.text());
  s << "  - Eligible when " << (when.empty() ? std::string("always") : joinCode(when, " and ")) << ".\n";
  if (!v.demoteWhen.empty()) {
    std::vector<std::string> demote;
    for (const auto& w : v.demoteWhen) demote.push_back(w.text());
    s << "  - Demoted (used only when no undemoted variant is eligible) when " << joinCode(demote, " or ")
      << ".\n";
  }
  if (!v.intermediates.empty()) {
    s << "  - Scratch buffers: ";
    for (size_t i = 0; i < v.intermediates.size(); ++i)
      s << (i ? ", " : "") << code(v.intermediates[i].id) << " (" << code(v.intermediates[i].dtype)
        << ", shape " << code(v.intermediates[i].shape.text()) << ")";
    s << ".\n";
  }
  return s.str();
}

// Strings passed to device.features.has(...) / device.wgslLanguageFeatures.has(...).
std::vector<std::string> queried(const Manifest& m, const std::string& object) {
  const std::regex re(object + R"re(\.has\(\s*"([^"]+)"\s*\))re");
  std::vector<std::string> out;
  for (const auto* e : allExpressions(m)) {
    const std::string text = e->text();
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
      if (std::find(out.begin(), out.end(), (*it)[1].str()) == out.end()) out.push_back((*it)[1].str());
  }
  return out;
}

// Names under `prefix.` that expressions read (device.limits.X -> X), sorted.
std::vector<std::string> readUnder(const Manifest& m, const std::string& prefix) {
  std::set<std::string> out;
  for (const auto* e : allExpressions(m))
    for (const auto& n : referenced(*e))
      if (n.rfind(prefix + ".", 0) == 0) out.insert(n.substr(prefix.size() + 1));
  return {out.begin(), out.end()};
}

}  // namespace

std::string variantsSection(const Manifest& m) {
  std::ostringstream s;
  s << "## Implementation variants\n\n\n"
    << "One implementation is selected per call from the device capabilities, the request shapes, the "
       "dtypes and the attributes: among the eligible variants the highest priority wins (ties keep "
       "manifest order), and a demoted variant runs only when no undemoted one is eligible. They are "
       "listed from the highest priority down; `wgk plan` shows the choice for a request and why every other "
       "variant was rejected.\n\n\n";
  // Highest priority first: the order in which the planner considers them.
  std::vector<const package::VariantSpec*> order;
  for (const auto& v : m.variants) order.push_back(&v);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->priority > b->priority; });
  for (const auto* v : order) s << variantBullet(*v);
  const auto conditions = conditionsUsed(m);
  if (!conditions.empty()) {
    s << "\n\nThe derived conditions these clauses use (manifest `derive`):\n\n\n"
      << "| Name | Definition |\n| --- | --- |\n";
    for (const auto& [name, value] : conditions)
      s << "| " << code(name) << " | " << code(value->text()) << " |\n";
  }
  return s.str() + "\n\n";
}

std::string deviceRequirementsSection(const Manifest& m) {
  std::set<std::string> any;
  std::vector<std::string> all;
  for (size_t i = 0; i < m.variants.size(); ++i) {
    const auto& f = m.variants[i].requirements.features;
    any.insert(f.begin(), f.end());
    if (i == 0)
      all = f;
    else
      std::erase_if(all, [&](const std::string& x) { return std::find(f.begin(), f.end(), x) == f.end(); });
  }
  std::ostringstream s;
  s << "## Device requirements\n\n\n";
  if (!all.empty())
    s << "Every implementation variant requires " << joinCode(all)
      << "; the package has no variant-level fallback without "
      << (all.size() == 1 ? "that capability" : "them") << ".\n";
  for (const auto& f : any) {
    if (std::find(all.begin(), all.end(), f) != all.end()) continue;
    std::vector<std::string> users;
    for (const auto& v : m.variants)
      if (std::find(v.requirements.features.begin(), v.requirements.features.end(), f) !=
          v.requirements.features.end())
        users.push_back(v.id);
    s << "Variants " << joinCode(users) << " require " << code(f) << "; the others run without it.\n";
  }
  if (any.empty()) s << "No implementation variant requires an optional WebGPU feature.\n";
  bool usesF16Ok = false;
  for (const auto* e : allExpressions(m))
    usesF16Ok = usesF16Ok || e->text().find("f16Ok(") != std::string::npos;
  if (usesF16Ok && std::find(all.begin(), all.end(), "shader-f16") == all.end())
    s << "\nfloat16 tensors need `shader-f16` (the `f16Ok` condition): on a device without it only float32 "
         "requests have an eligible variant.\n";
  const auto features = queried(m, R"(device\.features)");
  const auto language = queried(m, R"(device\.wgslLanguageFeatures)");
  if (!features.empty() || !language.empty()) {
    s << "\nUsed when the device offers them, never required: ";
    if (!features.empty()) s << "device feature" << (features.size() > 1 ? "s " : " ") << joinCode(features);
    if (!features.empty() && !language.empty()) s << "; ";
    if (!language.empty())
      s << "WGSL language feature" << (language.size() > 1 ? "s " : " ") << joinCode(language);
    s << ".\n";
  }
  const auto adapter = readUnder(m, "device.adapterInfo");
  if (!adapter.empty())
    s << "\nThe choice between variants also reads the adapter information " << joinCode(adapter) << ".\n";
  const auto limits = readUnder(m, "device.limits");
  if (!limits.empty())
    s << "\nEligibility is checked against the device limits " << joinCode(limits)
      << ": a request beyond them gets no eligible variant (with the reason) instead of failing at "
         "dispatch.\n";
  return s.str() + "\n\n";
}

}  // namespace wgk::harness

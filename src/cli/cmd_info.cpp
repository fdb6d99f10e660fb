// wgk info PACKAGE [--json] [hub options]: the op contract — inputs, outputs, attributes, type
// constraints, and every variant with what it needs. No GPU needed.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "runtime/package_loader.h"

namespace {

nlohmann::json toJson(const wgk::package::Json& j) {
  return nlohmann::json::parse(j.dump());
}

nlohmann::json passesJson(const std::vector<wgk::package::PassNode>& nodes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& n : nodes) {
    if (n.isGroup)
      out.push_back({{"repeat", {{"id", n.groupId}, {"index", n.index}, {"count", n.count.text()}}},
                     {"passes", passesJson(n.children)}});
    else
      out.push_back({{"id", n.pass.id}, {"name", n.pass.name}, {"shader", n.pass.shader}});
  }
  return out;
}

nlohmann::json variantJson(const wgk::package::VariantSpec& v) {
  nlohmann::json when = nlohmann::json::array(), demote = nlohmann::json::array();
  for (const auto& w : v.when) when.push_back(w.text());
  for (const auto& w : v.demoteWhen) demote.push_back(w.text());
  nlohmann::json j = {{"id", v.id},   {"priority", v.priority}, {"requiresFeatures", v.requirements.features},
                      {"when", when}, {"demoteWhen", demote},   {"passes", passesJson(v.passes)}};
  if (!v.requirements.limits.empty()) j["requiresLimits"] = v.requirements.limits;
  if (v.requirements.subgroupMinSize) j["requiresSubgroupMinSize"] = *v.requirements.subgroupMinSize;
  if (!v.supersededBy.empty()) j["supersededBy"] = v.supersededBy;
  if (!v.family.empty()) j["family"] = v.family;
  if (!v.description.empty()) j["description"] = v.description;
  nlohmann::json inter = nlohmann::json::array();
  for (const auto& i : v.intermediates)
    inter.push_back({{"id", i.id}, {"dtype", i.dtype}, {"shape", i.shape.text()}, {"zeroInit", i.zeroInit}});
  if (!inter.empty()) j["intermediates"] = inter;
  return j;
}

nlohmann::json portJson(const wgk::package::PortSpec& p) {
  nlohmann::json e = {{"name", p.name}, {"onnx", p.onnx}, {"dtype", p.dtype}, {"description", p.description}};
  if (p.fixedDtype) e["storageDtype"] = std::string(wgk::dtypeName(*p.fixedDtype));
  if (p.storage) e["storageDtype"] = std::string(wgk::dtypeName(*p.storage));
  if (p.rank) e["rank"] = toJson(p.rank->toJson());
  if (p.shape) e["shape"] = p.shape->text();
  if (p.direction == wgk::package::PortDirection::InOut) e["inout"] = true;
  if (p.packed) e["layout"] = "packed";
  if (p.narrowing != wgk::package::Narrowing::None)
    e["narrowing"] = p.narrowing == wgk::package::Narrowing::Checked ? "checked" : "saturating";
  e["required"] = !p.optional;
  return e;
}

nlohmann::json contractJson(const wgk::package::Manifest& m, const wgk::PackageSource& src) {
  nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array();
  for (const auto* p : m.inputs()) inputs.push_back(portJson(*p));
  for (const auto* p : m.outputs()) outputs.push_back(portJson(*p));
  nlohmann::json args = nlohmann::json::object();
  for (const auto& a : m.args) {
    nlohmann::json e = {{"kind", a.kind}, {"required", a.required}};
    if (!a.oneOf.empty()) e["oneOf"] = a.oneOf;
    if (!a.description.empty()) e["description"] = a.description;
    args[a.name] = e;
  }
  nlohmann::json attrs = nlohmann::json::object();
  for (const auto& a : m.attributes) {
    nlohmann::json e = nlohmann::json::object();
    if (a.defaultValue) e["default"] = a.defaultValue->toJson();
    if (!a.description.empty()) e["description"] = a.description;
    if (auto it = m.attributeConstraints.find(a.name); it != m.attributeConstraints.end()) {
      nlohmann::json vals = nlohmann::json::array();
      for (const auto& v : it->second.values) vals.push_back(v.toJson());
      if (!vals.empty()) e["values"] = vals;
      if (it->second.required) e["required"] = true;
      if (it->second.min) e["min"] = *it->second.min;
      if (it->second.max) e["max"] = *it->second.max;
    }
    attrs[a.name] = e;
  }
  nlohmann::json tunables = nlohmann::json::object();
  for (const auto& t : m.tunables) tunables[t.name] = t.value.toJson();
  // Highest priority first, ties in declaration order: the order the planner tries them.
  std::vector<const wgk::package::VariantSpec*> order;
  for (const auto& v : m.variants) order.push_back(&v);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->priority > b->priority; });
  nlohmann::json variants = nlohmann::json::array();
  for (const auto* v : order) variants.push_back(variantJson(*v));
  return {{"package", m.id()},
          {"dialect", std::string(wgk::package::dialectName(m.dialect))},
          {"repo", src.repo},
          {"revision", src.revision},
          {"origin", src.origin},
          {"sinceVersion", m.sinceVersion},
          {"description", m.description},
          {"inputs", inputs},
          {"outputs", outputs},
          {"args", args},
          {"attributes", attrs},
          {"tunables", tunables},
          {"typeConstraints", m.typeConstraints},
          {"variants", variants}};
}

void printText(const nlohmann::json& j) {
  std::cout << j["package"].get<std::string>() << "  ("
            << wgk::cli::sourceLabel(j["origin"].get<std::string>(), j["revision"].get<std::string>())
            << ")\n"
            << j["description"].get<std::string>()
            << "\nmanifest dialect: " << j["dialect"].get<std::string>() << "\n\nInputs:\n";
  auto onnx = [](const nlohmann::json& e) {
    return e["onnx"].get<std::string>().empty() ? std::string() : " (" + e["onnx"].get<std::string>() + ")";
  };
  for (const auto& e : j["inputs"])
    std::cout << "  " << e["name"].get<std::string>() << onnx(e) << ": " << e["dtype"].get<std::string>()
              << (e.contains("rank") ? ", rank " + e["rank"].dump() : "")
              << (e["required"].get<bool>() ? "" : ", optional") << (e.contains("inout") ? ", in/out" : "")
              << "\n";
  std::cout << "Outputs:\n";
  for (const auto& e : j["outputs"])
    std::cout << "  " << e["name"].get<std::string>() << onnx(e) << ": " << e["dtype"].get<std::string>()
              << ", shape " << e.value("shape", std::string("(given by the caller)")) << "\n";
  if (!j["args"].empty()) {
    std::cout << "Args (scalars):\n";
    for (const auto& [k, v] : j["args"].items())
      std::cout << "  " << k << ": " << v["kind"].get<std::string>()
                << (v["required"].get<bool>() ? "" : ", optional") << "\n";
  }
  if (!j["attributes"].empty()) {
    std::cout << "Attributes:\n";
    for (const auto& [k, v] : j["attributes"].items())
      std::cout << "  " << k << " = "
                << (v.contains("default") ? v["default"].dump() : std::string("(no default)"))
                << (v.contains("values") ? "  (one of " + v["values"].dump() + ")" : "") << "\n";
  }
  std::cout << "Type constraints:\n";
  for (const auto& [k, v] : j["typeConstraints"].items()) std::cout << "  " << k << ": " << v.dump() << "\n";
  std::cout << "Variants (highest priority first wins among the eligible):\n";
  // Listed as the header says: highest priority first (declaration order among equals).
  std::vector<nlohmann::json> variants(j["variants"].begin(), j["variants"].end());
  std::stable_sort(variants.begin(), variants.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a.value("priority", 0.0) > b.value("priority", 0.0);
  });
  for (const auto& v : variants) {
    std::cout << "  " << v["id"].get<std::string>() << "  priority " << v["priority"].dump();
    if (!v["requiresFeatures"].empty()) std::cout << "  requires " << v["requiresFeatures"].dump();
    std::cout << "\n";
    for (const auto& w : v["when"]) std::cout << "      when " << w.get<std::string>() << "\n";
    for (const auto& w : v["demoteWhen"]) std::cout << "      demoted when " << w.get<std::string>() << "\n";
  }
}

void addInfoCommand(CLI::App& app) {
  struct State {
    std::string package;
    bool json = false;
    wgk::cli::HubCliOptions hub;
  };
  auto s = std::make_shared<State>();
  auto* cmd = app.add_subcommand("info", "Show a package's contract: inputs, outputs, attributes, variants");
  cmd->add_option("package", s->package, "repo id or package folder")->required();
  cmd->add_flag("--json", s->json, "print one JSON object");
  wgk::cli::addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    auto loaded =
        wgk::runtime::loadPackage(s->package, wgk::cli::loadOptionsFor(s->hub), s->hub.toHubOptions());
    nlohmann::json j = contractJson(loaded.package->manifest(), loaded.source);
    if (s->json)
      std::cout << j.dump(2) << "\n";
    else
      printText(j);
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addInfoCommand);

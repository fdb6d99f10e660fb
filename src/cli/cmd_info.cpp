// wgk info PACKAGE [--json] [hub options]: the op contract — inputs, outputs, attributes, type
// constraints, and every variant with what it needs. No GPU needed.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "runtime/package_loader.h"

namespace {

nlohmann::json variantJson(const wgk::package::VariantSpec& v) {
  nlohmann::json when = nlohmann::json::array(), demote = nlohmann::json::array(), passes = nlohmann::json::array();
  for (const auto& w : v.when) when.push_back(w.text());
  for (const auto& w : v.demoteWhen) demote.push_back(w.text());
  for (const auto& p : v.passes) passes.push_back({{"id", p.id}, {"name", p.name}, {"shader", p.shader}});
  return {{"id", v.id},   {"priority", v.priority}, {"requiresFeatures", v.requiredFeatures},
          {"when", when}, {"demoteWhen", demote},   {"passes", passes}};
}

nlohmann::json contractJson(const wgk::package::Manifest& m, const wgk::PackageSource& src) {
  nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array();
  for (const auto& a : m.args) {
    nlohmann::json e = {{"name", a.name}, {"semantic", a.semantic}};
    if (a.dtype) e["storageDtype"] = *a.dtype;
    if (a.role == wgk::package::ArgRole::Input) {
      if (const auto* in = m.findInput(a.semantic)) {
        e["dtype"] = in->dtype;
        if (in->rank) e["rank"] = *in->rank;
        e["description"] = in->description;
      }
      e["required"] = a.required;
      inputs.push_back(e);
    } else {
      if (const auto* out = m.findOutput(a.semantic)) {
        e["dtype"] = out->dtype;
        if (out->rank) e["rank"] = out->rank->text();
        e["shape"] = out->shape.text();
        e["description"] = out->description;
      }
      outputs.push_back(e);
    }
  }
  nlohmann::json attrs = nlohmann::json::object();
  for (const auto& a : m.attributes) {
    nlohmann::json e = {{"default", nlohmann::json::parse(a.value.text())}};
    if (auto it = m.attributeDescriptions.find(a.name); it != m.attributeDescriptions.end()) e["description"] = it->second;
    if (auto it = m.attributeConstraints.find(a.name); it != m.attributeConstraints.end()) {
      nlohmann::json vals = nlohmann::json::array();
      for (const auto& v : it->second.values) vals.push_back(v.toJson());
      if (!vals.empty()) e["values"] = vals;
    }
    attrs[a.name] = e;
  }
  nlohmann::json variants = nlohmann::json::array();
  for (const auto& v : m.variants) variants.push_back(variantJson(v));
  return {{"package", m.id()},        {"repo", src.repo},          {"revision", src.revision},
          {"origin", src.origin},     {"sinceVersion", m.sinceVersion}, {"description", m.description},
          {"inputs", inputs},         {"outputs", outputs},        {"attributes", attrs},
          {"typeConstraints", m.typeConstraints}, {"variants", variants}};
}

void printText(const nlohmann::json& j) {
  std::cout << j["package"].get<std::string>() << "  (" << j["origin"].get<std::string>()
            << (j["revision"].get<std::string>().empty() ? "" : " " + j["revision"].get<std::string>()) << ")\n"
            << j["description"].get<std::string>() << "\n\nInputs:\n";
  for (const auto& e : j["inputs"])
    std::cout << "  " << e["name"].get<std::string>() << " (" << e["semantic"].get<std::string>() << "): "
              << e.value("dtype", std::string("?")) << (e.contains("rank") ? ", rank " + e["rank"].dump() : "")
              << (e["required"].get<bool>() ? "" : ", optional") << "\n";
  std::cout << "Outputs:\n";
  for (const auto& e : j["outputs"])
    std::cout << "  " << e["name"].get<std::string>() << " (" << e["semantic"].get<std::string>() << "): "
              << e.value("dtype", std::string("?")) << ", shape " << e.value("shape", std::string("?")) << "\n";
  if (!j["attributes"].empty()) {
    std::cout << "Attributes:\n";
    for (const auto& [k, v] : j["attributes"].items())
      std::cout << "  " << k << " = " << v["default"].dump() << (v.contains("values") ? "  (one of " + v["values"].dump() + ")" : "")
                << "\n";
  }
  std::cout << "Type constraints:\n";
  for (const auto& [k, v] : j["typeConstraints"].items()) std::cout << "  " << k << ": " << v.dump() << "\n";
  std::cout << "Variants (highest priority first wins among the eligible):\n";
  for (const auto& v : j["variants"]) {
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
    auto loaded = wgk::runtime::loadPackage(s->package, wgk::cli::loadOptionsFor(s->hub), s->hub.toHubOptions());
    nlohmann::json j = contractJson(loaded.package->manifest(), loaded.source);
    if (s->json) std::cout << j.dump(2) << "\n";
    else printText(j);
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addInfoCommand);

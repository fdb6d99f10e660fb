#include "runtime/tuning.h"

#include <filesystem>
#include <fstream>

#include "core/json_read.h"
#include "package/manifest.h"
#include "wgk/error.h"

namespace wgk::runtime {
namespace {
// One JSON pointer reference token (RFC 6901): "~" -> "~0", "/" -> "~1".
std::string pointerToken(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}
}  // namespace

std::string TuningTable::deviceKeyOf(const DeviceProfile& p) {
  std::string key;
  for (const char* f : {"vendor", "architecture", "device", "description", "backendType"}) {
    auto it = p.adapterInfoStrings.find(f);
    key += (it == p.adapterInfoStrings.end() ? std::string() : it->second) + "|";
  }
  return key;
}

std::string tuningSignature(const plan::PlanRequest& request) {
  plan::PlanRequest r;
  r.inputs = request.inputs;
  r.attrs = request.attrs;
  return plan::requestKey(r, "");
}

std::map<std::string, expr::Value> tunableValues(const TuningEntry& entry) {
  std::map<std::string, expr::Value> out;
  for (const auto& [name, v] : entry.tunables.items()) out[name] = package::literalValueFromJson(v);
  return out;
}

const TuningEntry* applyTuning(const TuningTable& table, const std::string& package,
                               plan::PlanRequest& request) {
  if (!request.forcedVariant.empty() || !request.tunables.empty()) return nullptr;
  const TuningEntry* e = table.find(package, tuningSignature(request));
  if (!e) return nullptr;
  request.preferredVariant = e->variant;
  request.tunables = tunableValues(*e);
  return e;
}

TuningTable TuningTable::loadFor(const std::string& path, const DeviceProfile& profile) {
  TuningTable t = load(path);
  if (!t.matchesDevice(profile))
    throw Error(ErrorCode::InvalidArgument, "tuning file '" + path + "' was measured on another device (" +
                                                t.deviceKey + "), not on " + deviceKeyOf(profile));
  return t;
}

const TuningEntry* TuningTable::find(const std::string& package, const std::string& signature) const {
  for (const auto& e : entries)
    if (e.package == package && e.signature == signature) return &e;
  return nullptr;
}

void TuningTable::set(TuningEntry entry) {
  for (auto& e : entries)
    if (e.package == entry.package && e.signature == entry.signature) {
      e = std::move(entry);
      return;
    }
  entries.push_back(std::move(entry));
}

TuningTable TuningTable::load(const std::string& path) {
  const nlohmann::json j = readJsonFile(path);  // its errors name the file; bad() below does too
  auto bad = [&](const std::string& what) {
    return Error(ErrorCode::Manifest, "tuning file '" + path + "': " + what);
  };
  if (!j.is_object() || j.value("format", "") != "wgk-tuning/1")
    throw bad("expected {\"format\": \"wgk-tuning/1\", ...}");
  TuningTable t;
  t.deviceKey = j.value("deviceKey", "");
  t.device = j.value("device", nlohmann::json::object());
  if (!j.contains("entries") || !j["entries"].is_array()) throw bad("/entries must be an array");
  for (size_t i = 0; i < j["entries"].size(); ++i) {
    const auto& e = j["entries"][i];
    const std::string p = "/entries/" + std::to_string(i);
    if (!e.is_object() || !e.contains("package") || !e.contains("signature") || !e.contains("variant") ||
        !e["package"].is_string() || !e["signature"].is_string() || !e["variant"].is_string())
      throw bad(p + " needs string fields package, signature and variant");
    TuningEntry te;
    te.package = e["package"];
    te.signature = e["signature"];
    te.variant = e["variant"];
    te.caseName = e.value("case", "");
    te.gbps = e.value("gbps", 0.0);
    te.candidates = e.value("candidates", nlohmann::json::object());
    if (e.contains("tunables")) {
      const auto& tj = e["tunables"];
      if (!tj.is_object()) throw bad(p + "/tunables must be an object (tunable name -> value)");
      for (const auto& [name, v] : tj.items())
        if (!v.is_number() && !v.is_string() && !v.is_boolean())
          throw bad(p + "/tunables/" + pointerToken(name) + " must be a number, string or bool, got " +
                    std::string(v.type_name()));
      te.tunables = tj;
    }
    t.entries.push_back(std::move(te));
  }
  return t;
}

void TuningTable::save(const std::string& path) const {
  nlohmann::json j = {{"format", "wgk-tuning/1"}, {"deviceKey", deviceKey}, {"device", device}};
  j["entries"] = nlohmann::json::array();
  for (const auto& e : entries)
    j["entries"].push_back({{"package", e.package},
                            {"signature", e.signature},
                            {"case", e.caseName},
                            {"variant", e.variant},
                            {"tunables", e.tunables},
                            {"gbps", e.gbps},
                            {"candidates", e.candidates}});
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error(ErrorCode::Io, "cannot write tuning file '" + tmp + "'");
    out << j.dump(2) << "\n";
    if (!out) throw Error(ErrorCode::Io, "failed writing tuning file '" + tmp + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error(ErrorCode::Io, "cannot move tuning file into place at '" + path + "': " + ec.message());
}

}  // namespace wgk::runtime

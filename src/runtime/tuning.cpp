#include "runtime/tuning.h"

#include <filesystem>
#include <fstream>

#include "wgk/error.h"

namespace wgk::runtime {

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
  r.absent = request.absent;
  r.attrs = request.attrs;
  return plan::requestKey(r, "");
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
  std::ifstream in(path);
  if (!in) throw Error(ErrorCode::Io, "cannot open tuning file '" + path + "'");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::Parse, "tuning file '" + path + "' is not valid JSON: " + e.what());
  }
  auto bad = [&](const std::string& what) { return Error(ErrorCode::Manifest, "tuning file '" + path + "': " + what); };
  if (!j.is_object() || j.value("format", "") != "wgk-tuning/1") throw bad("expected {\"format\": \"wgk-tuning/1\", ...}");
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

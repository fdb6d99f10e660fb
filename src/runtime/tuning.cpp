#include "runtime/tuning.h"

#include <algorithm>
#include <cctype>
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

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "580.159.04" -> {580, 159, 4}; stops at the first character that is neither digit nor dot.
std::vector<int64_t> versionNumbers(const std::string& text, size_t at) {
  std::vector<int64_t> v;
  int64_t n = 0;
  bool digits = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (n < (int64_t{1} << 40)) n = n * 10 + (c - '0');
      digits = true;
    } else if (c == '.' && digits) {
      v.push_back(n);
      n = 0;
      digits = false;
    } else {
      break;
    }
  }
  if (digits) v.push_back(n);
  return v;
}

int compareVersions(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const int64_t x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

std::string infoString(const DeviceProfile& p, const char* field) {
  auto it = p.adapterInfoStrings.find(field);
  return it == p.adapterInfoStrings.end() ? std::string() : it->second;
}
}  // namespace

std::vector<int64_t> driverVersion(const DeviceProfile& profile) {
  const std::string d = infoString(profile, "description");
  for (size_t i = 0; i < d.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(d[i])) &&
        (i == 0 || !std::isalnum(static_cast<unsigned char>(d[i - 1]))))
      if (std::vector<int64_t> v = versionNumbers(d, i); v.size() >= 2) return v;
  return {};
}

bool TuningTable::matchesDevice(const DeviceProfile& profile) const {
  if (match.empty()) return deviceKey == deviceKeyOf(profile);
  for (const char* f : {"vendor", "device", "backendType"})
    if (match.contains(f) && lower(match[f].get<std::string>()) != lower(infoString(profile, f)))
      return false;
  const std::vector<int64_t> v = driverVersion(profile);
  if ((match.contains("driverMin") || match.contains("driverBelow")) && v.empty()) return false;
  if (match.contains("driverMin") && compareVersions(v, versionNumbers(match["driverMin"], 0)) < 0)
    return false;
  if (match.contains("driverBelow") && compareVersions(v, versionNumbers(match["driverBelow"], 0)) >= 0)
    return false;
  return true;
}

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
  request.tuningSource = table.label();
  return e;
}

std::optional<TuningTable> tuningFor(const std::string& tuningFile, const std::string& packagesRoot,
                                     const DeviceProfile& profile) {
  if (tuningFile == "none") return std::nullopt;
  if (!tuningFile.empty()) return TuningTable::loadFor(tuningFile, profile);
  return shippedTuningFor(packagesRoot, profile);
}

std::optional<TuningTable> shippedTuningFor(const std::string& packagesRoot, const DeviceProfile& profile) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::path(packagesRoot) / "tuning";
  if (packagesRoot.empty() || !fs::is_directory(dir, ec)) return std::nullopt;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.is_regular_file(ec)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    TuningTable t = TuningTable::load(f.string());
    if (t.name.empty() || t.match.empty())
      throw Error(ErrorCode::Manifest,
                  "tuning file '" + f.string() + "': a shipped table needs a name and a match");
    if (t.matchesDevice(profile)) return t;
  }
  return std::nullopt;
}

TuningTable TuningTable::loadFor(const std::string& path, const DeviceProfile& profile) {
  TuningTable t = load(path);
  if (!t.matchesDevice(profile))
    throw Error(ErrorCode::InvalidArgument, "tuning file '" + path + "' was measured on another device (" +
                                                (t.match.empty() ? t.deviceKey : t.match.dump()) +
                                                "), not on " + deviceKeyOf(profile));
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
  t.path = path;
  t.deviceKey = j.value("deviceKey", "");
  t.device = j.value("device", nlohmann::json::object());
  if (j.contains("name")) {
    if (!j["name"].is_string() || j["name"].get<std::string>().empty())
      throw bad("/name must be a non-empty string");
    t.name = j["name"];
  }
  if (j.contains("match")) {
    const auto& m = j["match"];
    if (!m.is_object() || m.empty()) throw bad("/match must be a non-empty object");
    for (const auto& [key, v] : m.items()) {
      if (key != "vendor" && key != "device" && key != "backendType" && key != "driverMin" &&
          key != "driverBelow")
        throw bad("/match/" + pointerToken(key) +
                  " is not a match field (vendor, device, backendType, driverMin, driverBelow)");
      if (!v.is_string()) throw bad("/match/" + pointerToken(key) + " must be a string");
      if ((key == "driverMin" || key == "driverBelow") && versionNumbers(v.get<std::string>(), 0).empty())
        throw bad("/match/" + key + " must be a version such as \"580\" or \"580.65\"");
    }
    t.match = m;
  }
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
  if (!name.empty()) j["name"] = name;
  if (!match.empty()) j["match"] = match;
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

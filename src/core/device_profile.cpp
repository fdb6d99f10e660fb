#include "core/device_profile.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/json_read.h"
#include "wgk/error.h"

namespace wgk {
namespace {
[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw Error(ErrorCode::Manifest, "device profile " + path + ": " + what);
}
std::set<std::string> stringSet(const nlohmann::json& j, const std::string& path) {
  if (!j.is_array()) bad(path, "expected an array of strings");
  std::set<std::string> out;
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) bad(path + "/" + std::to_string(i), "expected a string");
    out.insert(j[i].get<std::string>());
  }
  return out;
}
}  // namespace

uint64_t DeviceProfile::limit(std::string_view name) const {
  auto it = limits.find(std::string(name));
  if (it == limits.end()) throw Error(ErrorCode::NotFound, "device profile has no limit '" + std::string(name) + "'");
  return it->second;
}

nlohmann::json toJson(const DeviceProfile& p) {
  nlohmann::json info = nlohmann::json::object();
  for (const auto& [k, v] : p.adapterInfoStrings) info[k] = v;
  for (const auto& [k, v] : p.adapterInfoNumbers) info[k] = v;
  if (p.isFallbackAdapter) info["isFallbackAdapter"] = true;
  if (!p.subgroupMatrixConfigs.empty()) {
    nlohmann::json configs = nlohmann::json::array();
    for (const auto& c : p.subgroupMatrixConfigs)
      configs.push_back({{"componentType", c.componentType},
                         {"resultComponentType", c.resultComponentType},
                         {"M", c.M},
                         {"N", c.N},
                         {"K", c.K}});
    info["subgroupMatrixConfigs"] = configs;
  }
  nlohmann::json lim = nlohmann::json::object();
  for (const auto& [k, v] : p.limits) lim[k] = v;
  return {{"adapterInfo", info},
          {"features", p.features},
          {"wgslLanguageFeatures", p.wgslLanguageFeatures},
          {"limits", lim},
          {"numerics", p.numerics}};
}

DeviceProfile deviceProfileFromJson(const nlohmann::json& j) {
  if (!j.is_object()) bad("", "expected a JSON object");
  DeviceProfile p;
  for (const auto& [key, value] : j.items()) {
    const std::string path = "/" + key;
    if (key == "adapterInfo") {
      if (!value.is_object()) bad(path, "expected an object");
      for (const auto& [k, v] : value.items()) {
        const std::string at = path + "/" + k;
        if (k == "isFallbackAdapter") {
          if (!v.is_boolean()) bad(at, "expected true or false");
          p.isFallbackAdapter = v.get<bool>();
        } else if (k == "subgroupMatrixConfigs") {
          if (!v.is_array()) bad(at, "expected an array of {componentType, resultComponentType, M, N, K}");
          for (size_t i = 0; i < v.size(); ++i) {
            const auto& c = v[i];
            const std::string cp = at + "/" + std::to_string(i);
            if (!c.is_object()) bad(cp, "expected an object");
            SubgroupMatrixConfig cfg;
            for (const char* s : {"componentType", "resultComponentType"}) {
              if (!c.contains(s) || !c[s].is_string()) bad(cp + "/" + s, "expected a string");
              (std::string(s) == "componentType" ? cfg.componentType : cfg.resultComponentType) = c[s];
            }
            for (const char* d : {"M", "N", "K"}) {
              if (!c.contains(d) || !c[d].is_number_unsigned() || c[d].get<uint64_t>() == 0 ||
                  c[d].get<uint64_t>() > 65536)
                bad(cp + "/" + d, "expected a positive integer");
              (d[0] == 'M' ? cfg.M : d[0] == 'N' ? cfg.N : cfg.K) = c[d].get<uint32_t>();
            }
            p.subgroupMatrixConfigs.push_back(cfg);
          }
        } else if (v.is_string()) {
          p.adapterInfoStrings[k] = v.get<std::string>();
        } else if (v.is_number_integer()) {
          p.adapterInfoNumbers[k] = v.get<int64_t>();
        } else {
          bad(at, "expected a string or an integer");
        }
      }
    } else if (key == "features") {
      p.features = stringSet(value, path);
    } else if (key == "wgslLanguageFeatures") {
      p.wgslLanguageFeatures = stringSet(value, path);
    } else if (key == "numerics") {
      p.numerics = stringSet(value, path);
    } else if (key == "limits") {
      if (!value.is_object()) bad(path, "expected an object");
      for (const auto& [k, v] : value.items()) {
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
          bad(path + "/" + k, "expected a non-negative integer");
        p.limits[k] = v.get<uint64_t>();
      }
    } else {
      bad(path, "unknown field (expected adapterInfo, features, wgslLanguageFeatures, limits, numerics)");
    }
  }
  if (!j.contains("limits")) bad("/limits", "missing");
  return p;
}

std::string DeviceProfile::toJsonText(int indent) const {
  return toJson(*this).dump(indent);
}

DeviceProfile DeviceProfile::fromJsonText(std::string_view text) {
  return deviceProfileFromJson(parseJson(text, "device profile"));
}

DeviceProfile DeviceProfile::load(const std::string& path) {
  return loadJsonFile(path, deviceProfileFromJson, "device profile " + path);
}

}  // namespace wgk

#include "plan_test_util.h"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <fmt/format.h>

#include "support/expect_error.h"

namespace wgk::plan::test {

std::shared_ptr<const package::Package> seedPackage(const std::string& id) {
  const std::string dir = WGK_SEEDS_DIR;
  return package::Package::fromManifest(package::loadManifest(dir + "/" + id + ".manifest.json"), dir);
}

const DeviceProfile& profile(const std::string& name) {
  static std::mutex m;
  static std::map<std::string, DeviceProfile> cache;
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache
             .emplace(name, DeviceProfile::load(std::string(WGK_SOURCE_DIR) + "/tests/data/profiles/" + name +
                                                ".json"))
             .first;
  return it->second;
}

const Planner& seedPlanner(const std::string& id) {
  static std::mutex m;
  static std::map<std::string, std::unique_ptr<Planner>> cache;
  std::lock_guard<std::mutex> lock(m);
  auto& p = cache[id];
  if (!p) p = std::make_unique<Planner>(seedPackage(id));
  return *p;
}

PlanRequest request(std::initializer_list<std::pair<std::string, TensorDesc>> inputs,
                    std::initializer_list<std::pair<std::string, expr::Value>> attrs) {
  PlanRequest r;
  for (const auto& [k, v] : inputs) r.inputs[k] = v;
  for (const auto& [k, v] : attrs) r.attrs[k] = v;
  return r;
}

Plan planSeed(const std::string& id, const PlanRequest& r, const std::string& profileName) {
  wgk::plan::PlanOptions o;
  o.renderShaders = false;  // the seeds ship no templates
  return seedPlanner(id).plan(r, profile(profileName), o);
}

const VariantVerdict& verdict(const Plan& p, const std::string& id) {
  for (const auto& v : p.variants)
    if (v.id == id) return v;
  throw std::runtime_error("no verdict for " + id);
}

std::string hex(const std::vector<uint8_t>& bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

std::string expectError(ErrorCode code, const std::function<void()>& fn,
                        std::initializer_list<std::string> fragments) {
  return test_support::expectError(fn, code, std::vector<std::string>(fragments));
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string code(const std::string& wgsl) {
  std::string out;
  std::istringstream in(wgsl);
  for (std::string line; std::getline(in, line);) out += line.substr(0, line.find("//")) + "\n";
  return out;
}

}  // namespace wgk::plan::test

// `wgk devices [--json] [--self-check]`: the WebGPU adapter and device wgk would use. --json prints
// exactly the device profile (the file `wgk plan --device-profile` reads). Exits 3 (setup) when the
// library, the Vulkan driver or the adapter is unusable, including an adapter without shader-f16,
// which is still shown first.
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_hub_options.h"
#include "gpu/device.h"
#include "gpu/f16_policy.h"
#include "gpu/loader.h"
#include "gpu/self_check.h"
#include "runtime/tuning.h"
#include "wgk/error.h"

namespace {

struct DevicesOptions {
  bool json = false;
  bool selfCheck = false;
  bool noSubgroupMatrix = false;
};

std::string joined(const std::set<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "(none)" : out;
}

std::string matrixConfigs(const wgk::DeviceProfile& p) {
  std::string out;
  for (const auto& c : p.subgroupMatrixConfigs)
    out += (out.empty() ? "" : ", ") + c.componentType + "->" + c.resultComponentType + " " +
           std::to_string(c.M) + "x" + std::to_string(c.N) + "x" + std::to_string(c.K);
  return out.empty() ? "(none)" : out;
}

// The table a runtime on this device would use (runtime::tuningFor): WGK_TUNING, else the shipped
// table that matches, else none.
std::string tuningInUse(const wgk::DeviceProfile& p) {
  const std::string file = wgk::RuntimeOptions::fromEnvironment().tuningFile;
  if (file == "none") return "none (WGK_TUNING=none)";
  const auto t = wgk::runtime::tuningFor(file, wgk::cli::defaultPackagesDir(), p);
  if (!t) return "none (no shipped table matches this device)";
  return t->label() + " (" + std::to_string(t->entries.size()) + " entries; " + t->path + ")";
}

void printText(const wgk::gpu::Device& dev, const wgk::gpu::LoaderInfo& lib) {
  const wgk::DeviceProfile& p = dev.profile();
  auto str = [&](const char* k) {
    auto it = p.adapterInfoStrings.find(k);
    return it == p.adapterInfoStrings.end() ? std::string() : it->second;
  };
  auto num = [&](const char* k) {
    auto it = p.adapterInfoNumbers.find(k);
    return it == p.adapterInfoNumbers.end() ? std::string("?") : std::to_string(it->second);
  };
  std::cout << "WebGPU library: " << lib.path << " (" << lib.source << ", "
            << (lib.kind == wgk::gpu::LibraryKind::DawnNode ? "dawn.node" : "C API library") << ", "
            << lib.functions << " functions)\n"
            << "Adapter: " << str("description") << "\n"
            << "  vendor: " << str("vendor") << "\n"
            << "  architecture: " << str("architecture") << "\n"
            << "  device: " << str("device") << "\n"
            << "  backendType: " << str("backendType") << "\n"
            << "  adapterType: " << str("adapterType") << "\n"
            << "  subgroup sizes: " << num("subgroupMinSize") << " .. " << num("subgroupMaxSize") << "\n"
            << "  subgroup matrix configs: " << matrixConfigs(p) << "\n"
            << "Device features: " << joined(p.features) << "\n"
            << "Adapter features: " << joined(dev.adapterFeatures()) << "\n"
            << "WGSL language features: " << joined(p.wgslLanguageFeatures) << "\n"
            << "Numerics (probed): " << joined(p.numerics) << " (" << dev.numericsProbe() << ")\n"
            << "Tuning: " << tuningInUse(p) << "\n"
            << "Limits:\n";
  for (const auto& [name, value] : p.limits) std::cout << "  " << name << ": " << value << "\n";
}

void runDevices(const DevicesOptions& o) {
  wgk::DeviceOptions devOptions = wgk::RuntimeOptions::fromEnvironment().device;  // WGK_DAWN_NODE, ...
  const wgk::gpu::LoaderInfo& lib = wgk::gpu::ensureLoaded(devOptions);
  devOptions.requireF16 = false;  // show the adapter first, refuse it below
  if (o.noSubgroupMatrix) devOptions.subgroupMatrix = false;
  wgk::gpu::Device dev = wgk::gpu::Device::create(devOptions);
  if (o.json)
    std::cout << dev.profile().toJsonText() << "\n";
  else
    printText(dev, lib);
  std::cout.flush();
  wgk::DeviceProfile adapter = dev.profile();
  adapter.features = dev.adapterFeatures();
  wgk::gpu::requireShaderF16(adapter);  // Error(Setup) -> exit 3, after the listing
  if (o.selfCheck) {
    std::string summary = wgk::gpu::runF16SelfCheck(dev);
    (o.json ? std::cerr : std::cout) << "self-check: OK (" << summary << ")\n";
  }
}

void addDevicesCommand(CLI::App& app) {
  auto opts = std::make_shared<DevicesOptions>();
  CLI::App* cmd = app.add_subcommand("devices", "Show the WebGPU adapter and device wgk uses");
  cmd->add_flag("--json", opts->json,
                "Print the device profile as JSON (input of `wgk plan --device-profile`)");
  cmd->add_flag("--self-check", opts->selfCheck,
                "Also run a tiny f16 kernel and check it bit-exactly (prints OK)");
  cmd->add_flag("--no-subgroup-matrix", opts->noSubgroupMatrix,
                "Do not request subgroup matrices (also WGK_NO_SUBGROUP_MATRIX=1)");
  cmd->callback([opts] { runDevices(*opts); });
}

WGK_REGISTER_COMMAND(addDevicesCommand);

}  // namespace

// `wgk plan PACKAGE --input NAME=DTYPE:D0xD1 ... [--absent NAME] [--attr NAME=VALUE] [--arg NAME=VALUE]
//   [--output NAME=DTYPE:D0xD1] (--device-profile FILE | default device) [--variant ID] [--tuning FILE]
//   [--wgsl] [--json] [hub options]`. PACKAGE is a repo id or a folder (also one holding only
// manifest.json), in either manifest dialect.
// Shows which variant a request selects and why, with every pass's dispatch, bindings and uniforms.
// With --tuning, the table's entry for the request (variant + tunables) is applied as the runtime
// would apply it (src/runtime/tuning.h); the table must be for the profile's device.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_hub_options.h"
#include "cli/support_runtime.h"
#include "core/device_profile.h"
#include "core/environment.h"
#include "core/json_read.h"
#include "gpu/device.h"
#include "package/package.h"
#include "plan/plan.h"
#include "runtime/package_loader.h"
#include "runtime/tuning.h"
#include "wgk/error.h"

namespace wgk::cli {
namespace {

// The device profile planning uses: the file's, or with no --device-profile the local GPU's (the
// device is created only to read its profile, with the same options the runtime uses).
DeviceProfile profileForPlan(const std::string& pathOrEmpty, const HubCliOptions& hub) {
  if (pathOrEmpty.empty())
    return withContext(
        "while reading the local device's profile (pass --device-profile FILE to plan without a GPU)",
        [&] { return gpu::Device::create(hub.resolved().device).profile(); });
  return DeviceProfile::load(pathOrEmpty);
}

// "x=float16:2x8" (or "x=f16:2x8"), "s=float32:" (rank 0), "s=float32:scalar".
std::pair<std::string, plan::TensorDesc> parseInputSpec(const std::string& spec) {
  auto bad = [&](const std::string& why) -> Error {
    return Error(ErrorCode::InvalidArgument,
                 "--input '" + spec + "': " + why + " (expected NAME=DTYPE:D0xD1x..., e.g. x=float16:2x8)");
  };
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) throw bad("missing NAME=");
  const size_t colon = spec.find(':', eq);
  if (colon == std::string::npos) throw bad("missing ':' after the dtype");
  plan::TensorDesc t;
  const std::string dtype = spec.substr(eq + 1, colon - eq - 1);
  auto dt = dtypeFromCliName(dtype);
  if (!dt) throw bad("unknown dtype '" + dtype + "' (known: " + cliDtypeNames() + ")");
  t.dtype = *dt;
  const std::string dims = spec.substr(colon + 1);
  if (!dims.empty() && dims != "scalar") {
    size_t pos = 0;
    while (pos <= dims.size()) {
      size_t x = dims.find('x', pos);
      const std::string d = dims.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
      if (d.empty() || d.find_first_not_of("0123456789") != std::string::npos || d.size() > 15)
        throw bad("bad dimension '" + d + "'");
      t.shape.push_back(std::stoll(d));
      if (x == std::string::npos) break;
      pos = x + 1;
    }
  }
  return {spec.substr(0, eq), t};
}

// NAME=VALUE: VALUE as JSON (int, float, bool, string, list), else the raw text as a string.
std::pair<std::string, expr::Value> parseAttrSpec(const std::string& spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(ErrorCode::InvalidArgument, "--attr '" + spec + "': expected NAME=VALUE");
  const std::string text = spec.substr(eq + 1);
  const nlohmann::json parsed = parseJsonOrDiscarded(text, "--attr " + spec.substr(0, eq));
  const package::Json j = parsed;  // depth-bounded, so converting to ordered_json is safe
  if (j.is_discarded() || j.is_object() || j.is_null()) return {spec.substr(0, eq), expr::Value(text)};
  return {spec.substr(0, eq), withContext("while reading --attr " + spec.substr(0, eq),
                                          [&] { return package::literalValueFromJson(j); })};
}

struct PlanArgs {
  std::string package, deviceProfile, variant, tuning;
  std::vector<std::string> inputs, outputs, absent, attrs, args;
  bool wgsl = false, json = false;
  HubCliOptions hub;
};

void runPlan(const PlanArgs& a) {
  plan::PlanRequest req;
  for (const auto& s : a.inputs) {
    auto [name, t] = parseInputSpec(s);
    if (!req.inputs.emplace(name, t).second)
      throw Error(ErrorCode::InvalidArgument, "--input '" + name + "' given twice");
  }
  for (const auto& s : a.outputs) {
    auto [name, t] = parseInputSpec(s);
    if (!req.outputs.emplace(name, t).second)
      throw Error(ErrorCode::InvalidArgument, "--output '" + name + "' given twice");
  }
  for (const auto& s : a.absent) req.absent.insert(s);
  for (const auto& s : a.attrs) {
    auto [name, v] = parseAttrSpec(s);
    // Keeping the last of two silently would plan something other than what was asked (and
    // `wgk run` refuses the same line).
    if (!req.attrs.emplace(name, v).second)
      throw Error(ErrorCode::InvalidArgument, "--attr '" + name + "' given twice");
  }
  for (const auto& s : a.args) {
    auto [name, v] = parseAttrSpec(s);
    if (!req.args.emplace(name, v).second)
      throw Error(ErrorCode::InvalidArgument, "--arg '" + name + "' given twice");
  }
  req.forcedVariant = a.variant;
  const DeviceProfile device = profileForPlan(a.deviceProfile, a.hub);
  const runtime::LoadedPackage loaded =
      runtime::loadPackage(a.package, loadOptionsFor(a.hub), a.hub.toHubOptions());
  plan::Planner planner(loaded.package);
  // The table the runtime would use on that device: --tuning, else WGK_TUNING, else the shipped one.
  const std::string file = a.tuning.empty() ? readEnvironment().tuning : a.tuning;
  if (const auto table = runtime::tuningFor(file, defaultPackagesDir(), device)) {
    if (!req.forcedVariant.empty()) {
      if (!a.tuning.empty())
        std::cerr << "wgk: --variant forces a variant, so " << a.tuning << " is not used\n";
    } else if (!runtime::applyTuning(*table, planner.package().manifest().id(), req) && !a.tuning.empty()) {
      std::cerr << "wgk: " << a.tuning << " has no entry for this request (signature "
                << runtime::tuningSignature(req) << ")\n";
    }
  }
  plan::PlanOptions options;
  options.renderShaders = a.wgsl;  // templates are only needed to show WGSL
  const plan::Plan p = planner.plan(req, device, options);
  if (a.json) {
    // Which package was planned, as `info` and `run` name it.
    package::Json j = p.toJson(a.wgsl);
    j["repo"] = loaded.source.repo;
    j["revision"] = loaded.source.revision;
    j["origin"] = loaded.source.origin;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << p.toText(a.wgsl);
  }
}

void addPlanCommand(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "plan", "Show the plan (variant, dispatch, bindings) a request gets, without running it");
  cmd->add_option("package", args->package,
                  "Repo id, or a package folder (holding build/webgpu/manifest.json, or that folder)")
      ->required();
  cmd->add_option("--input,-i", args->inputs, "NAME=DTYPE:D0xD1x... (DTYPE: or DTYPE:scalar for rank 0)");
  cmd->add_option("--output", args->outputs,
                  "NAME=DTYPE:D0xD1x...: a destination's shape (for an output whose port declares none)");
  cmd->add_option("--arg", args->args, "NAME=VALUE: a scalar arg of a spec 2.1 package (VALUE as JSON)");
  cmd->add_option("--absent", args->absent, "An optional input left out");
  cmd->add_option("--attr,-a", args->attrs, "NAME=VALUE (VALUE parsed as JSON, else a string)");
  cmd->add_option("--device-profile,-d", args->deviceProfile,
                  "Device profile JSON (wgk devices --json); default: the local GPU's");
  cmd->add_option("--variant", args->variant, "Force this variant (must be eligible)");
  cmd->add_option("--tuning", args->tuning,
                  "Tuning table (wgk tune) of the same device: plan with its variant and tunables; "
                  "default: WGK_TUNING, else the shipped table matching the device; 'none': no table");
  cmd->add_flag("--wgsl", args->wgsl, "Render and print each pass's WGSL");
  cmd->add_flag("--json", args->json, "Print the plan as JSON");
  addHubOptions(cmd, args->hub);
  cmd->callback([args] { runPlan(*args); });
}

}  // namespace

WGK_REGISTER_COMMAND(addPlanCommand);

}  // namespace wgk::cli

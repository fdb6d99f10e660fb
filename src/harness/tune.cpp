#include "harness/tune.h"

#include "harness/report_model.h"

#include <algorithm>

#include "runtime/attributes.h"
#include "runtime/runtime_impl.h"
#include "wgk/error.h"

namespace wgk::harness {

std::string benchCaseSignature(const package::BenchCase& c) {
  plan::PlanRequest req;
  for (const auto& [name, t] : c.inputs) req.inputs[name] = {t.dtype, t.shape};
  // Round-trip the attributes as a call passes them, so the signature matches byte for byte.
  req.attrs = runtime::toValues(runtime::fromValues(c.attrs));
  return runtime::tuningSignature(req);
}

std::vector<TuneOutcome> tunePackage(Runtime& rt, Kernel& kernel, BenchSelection sel, CopyRoofline& roofline,
                                     runtime::TuningTable& table, const BenchHooks& hooks) {
  const DeviceProfile& profile = rt.device();
  const std::string key = runtime::TuningTable::deviceKeyOf(profile);
  if (table.deviceKey.empty()) {
    table.deviceKey = key;
    table.device = profile.toJson()["adapterInfo"];
  } else if (table.deviceKey != key) {
    throw Error(ErrorCode::InvalidArgument, "the tuning table was measured on another device ('" +
                                                table.deviceKey + "'); this one is '" + key +
                                                "': write a new file");
  }
  sel.allVariants = true;
  sel.variant.clear();
  sel.cold = false;
  sel.overheadCalls = 0;
  BenchRun run;
  BenchHooks h = hooks;
  h.reload = nullptr;
  runBench(rt, kernel, sel, roofline, run, h);

  const auto& pkg = kernel.impl().planner().package();
  const std::string opId = pkg.manifest().id();
  package::BenchFile file = package::loadBenchFile((pkg.webgpuDir() / "bench.json").string());
  std::vector<TuneOutcome> out;
  for (const auto* c : selectCases(file, sel, opId)) {
    TuneOutcome o{c->name, "", 0, ""};
    runtime::TuningEntry e{opId, benchCaseSignature(*c), c->name, "", 0, nlohmann::json::object()};
    std::string errors;
    for (const auto& m : run.measurements) {
      if (m.caseName != c->name) continue;
      if (!m.error.empty()) {
        errors += (errors.empty() ? "" : "; ") + m.variant + ": " + m.error;
        continue;
      }
      e.candidates[m.variant] = m.gbps;
      o.detail += (o.detail.empty() ? "" : ", ") + m.variant + " " + fixed(m.gbps, m.gbps >= 100 ? 0 : 3);
      if (e.variant.empty() || m.gbps > e.gbps) {
        e.variant = m.variant;
        e.gbps = m.gbps;
      }
    }
    if (e.variant.empty()) {
      o.detail = errors.empty() ? "no eligible variant was measured" : errors;
    } else {
      o.variant = e.variant;
      o.gbps = e.gbps;
      table.set(std::move(e));
    }
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace wgk::harness

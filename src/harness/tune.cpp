#include "harness/tune.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "harness/bench_case.h"
#include "harness/report_model.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {

// What makes two plans run the same kernel: rendered WGSL, dispatch, uniforms, intermediates.
std::string fingerprint(const plan::Plan& p) {
  std::string f = p.variant;
  for (const auto& pass : p.passes) {
    f += "\n#pass " + pass.id + (pass.skipped ? " skipped " : " ") + std::to_string(pass.dispatch[0]) + "," +
         std::to_string(pass.dispatch[1]) + "," + std::to_string(pass.dispatch[2]) + "\n" + pass.wgsl;
    for (const auto& b : pass.bindings) f.append(b.uniformBytes.begin(), b.uniformBytes.end());
  }
  for (const auto& i : p.intermediates) f += "\n#intermediate " + i.id + " " + std::to_string(i.bytes);
  return f;
}

// GB/s of `variant` with `tunables` on the case, timed as bench times a variant.
double timeSetting(Runtime& rt, Kernel& kernel, const package::BenchCase& c, const CaseBuffers& buf,
                   const std::string& variant, const Tunables& tunables, const CaseTiming& timing) {
  CallResult last;
  const std::vector<double> us =
      timeCalls(rt, kernel, buf, caseCallOptions(c, buf, variant), tunables, timing, &last);
  if (last.variant != variant)
    throw Error(ErrorCode::Internal, "asked for variant " + variant + ", ran " + last.variant);
  return gbpsOf(buf.bytes, medianOf(us));
}

// Adds one timing to the entry and the outcome's detail; keeps the fastest.
void record(runtime::TuningEntry& e, TuneOutcome& o, const std::string& variant,
            const nlohmann::json& tunables, double gbps) {
  const std::string key = candidateKey(variant, tunables);
  e.candidates[key] = gbps;
  o.detail += (o.detail.empty() ? "" : ", ") + key + " " + fixed(gbps, gbps >= 100 ? 0 : 3);
  if (e.variant.empty() || gbps > e.gbps) {
    e.variant = variant;
    e.tunables = tunables;
    e.gbps = gbps;
  }
}

// The tunable search of one case (see tune.h): times each (variant, one tunable at a candidate
// value) whose plan differs from every plan already timed for that variant.
void searchCase(Runtime& rt, Kernel& kernel, const package::BenchCase& c, const CaseTiming& timing,
                runtime::TuningEntry& e, TuneOutcome& o, std::string& errors) {
  const package::Manifest& m = wgk::introspect::package(kernel).manifest();
  const plan::PlanRequest base = benchCaseRequest(c);
  auto fingerprintOf = [&](const std::string& variant, const Tunables& tunables) {
    plan::PlanRequest r = base;
    r.forcedVariant = variant;
    r.tunables = tunables;
    return fingerprint(wgk::introspect::plan(kernel, r, /*renderShaders=*/true));
  };
  std::map<std::string, std::set<std::string>> timed;  // variant -> fingerprints of the plans timed
  for (const auto& [variant, gbps] : e.candidates.items()) {
    try {
      timed[variant].insert(fingerprintOf(variant, {}));
    } catch (const Error&) {
      // Timed by runBench, so it plans; if not, nothing is deduplicated against it.
    }
  }
  std::optional<CaseBuffers> buf;
  int samePlan = 0;
  for (const std::string& name : searchedTunables(m)) {
    const expr::Value* current = nullptr;
    for (const auto& t : m.tunables)
      if (t.name == name) current = &t.value;
    for (int64_t value : workgroupCandidates(*current, rt.device())) {
      const Tunables tunables{{name, expr::Value(value)}};
      const nlohmann::json tj = {{name, value}};
      plan::PlanRequest r = base;
      r.tunables = tunables;
      plan::Plan p;
      try {
        p = wgk::introspect::plan(kernel, r, /*renderShaders=*/false);
      } catch (const Error& err) {
        if (err.code() != ErrorCode::NoVariant)
          errors += (errors.empty() ? "" : "; ") + name + "=" + std::to_string(value) + ": " + err.what();
        continue;  // no variant is eligible with this value
      }
      for (const auto& v : p.variants) {
        if (!v.eligible) continue;
        try {
          if (!timed[v.id].insert(fingerprintOf(v.id, tunables)).second) {
            ++samePlan;
            continue;
          }
          if (!buf) {
            try {
              buf.emplace(prepareCase(rt, kernel, c));
            } catch (const Error& err) {  // the case itself cannot run: nothing more to time
              errors += (errors.empty() ? "" : "; ") + std::string("preparing the case: ") + err.what();
              return;
            }
          }
          record(e, o, v.id, tj, timeSetting(rt, kernel, c, *buf, v.id, tunables, timing));
        } catch (const Error& err) {
          errors += (errors.empty() ? "" : "; ") + candidateKey(v.id, tj) + ": " + err.what();
          rt.waitIdle();
        }
      }
    }
  }
  rt.waitIdle();  // the case's buffers go back to the pool only once the GPU is done with them
  if (samePlan)
    o.detail += (o.detail.empty() ? "" : "; ") + std::to_string(samePlan) +
                " tunable setting(s) gave a plan already timed";
}

}  // namespace

std::string benchCaseSignature(const package::BenchCase& c) {
  return runtime::tuningSignature(benchCaseRequest(c));
}

std::vector<std::string> searchedTunables(const package::Manifest& m) {
  std::vector<std::string> out;
  for (const auto& t : m.tunables) {
    std::string lower = t.name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return std::tolower(ch); });
    const expr::Value* v = &t.value;
    if (lower.find("workgroup") != std::string::npos && v && v->isNumber()) out.push_back(t.name);
  }
  return out;
}

std::vector<int64_t> workgroupCandidates(const expr::Value& current, const DeviceProfile& device) {
  const uint64_t cap =
      std::min(device.limit("maxComputeInvocationsPerWorkgroup"), device.limit("maxComputeWorkgroupSizeX"));
  std::vector<int64_t> out;
  for (int64_t v : {32, 64, 128, 256, 512, 1024})
    if (static_cast<uint64_t>(v) <= cap && !(current == expr::Value(v))) out.push_back(v);
  return out;
}

std::string candidateKey(const std::string& variant, const nlohmann::json& tunables) {
  std::string key = variant;
  for (const auto& [name, v] : tunables.items())
    key += " " + name + "=" + package::literalValueFromJson(v).repr();
  return key;
}

std::vector<TuneOutcome> tunePackage(Runtime& rt, Kernel& kernel, BenchSelection sel, CopyRoofline& roofline,
                                     runtime::TuningTable& table, const BenchHooks& hooks,
                                     const TuneOptions& options) {
  const DeviceProfile& profile = rt.device();
  const std::string key = runtime::TuningTable::deviceKeyOf(profile);
  if (table.deviceKey.empty()) {
    table.deviceKey = key;
    table.device = toJson(profile)["adapterInfo"];
  } else if (table.deviceKey != key) {
    throw Error(ErrorCode::InvalidArgument, "the tuning table was measured on another device ('" +
                                                table.deviceKey + "'); this one is '" + key +
                                                "': write a new file");
  }
  // Every eligible variant at the manifest's tunables.
  sel.allVariants = true;
  sel.variant.clear();
  sel.cold = false;
  sel.overheadCalls = 0;
  BenchRun run;
  BenchHooks h = hooks;
  h.reload = nullptr;
  runBench(rt, kernel, sel, roofline, run, h);

  const auto& pkg = wgk::introspect::package(kernel);
  const std::string opId = pkg.manifest().id();
  package::BenchFile file = package::loadBenchFile((pkg.webgpuDir() / "bench.json").string());
  const CaseTiming timing = caseTiming(sel, file);
  std::vector<TuneOutcome> out;
  for (const auto* c : selectCases(file, sel, opId)) {
    TuneOutcome o;
    o.caseName = c->name;
    runtime::TuningEntry e;
    e.package = opId;
    e.signature = benchCaseSignature(*c);
    e.caseName = c->name;
    std::string errors;
    for (const auto& m : run.measurements) {
      if (m.caseName != c->name) continue;
      if (!m.error.empty())
        errors += (errors.empty() ? "" : "; ") + m.variant + ": " + m.error;
      else
        record(e, o, m.variant, nlohmann::json::object(), m.gbps);
    }
    if (options.searchTunables) searchCase(rt, kernel, *c, timing, e, o, errors);
    if (e.variant.empty()) {
      o.detail = errors.empty() ? "no eligible variant was measured" : errors;
    } else {
      o.variant = e.variant;
      o.tunables = e.tunables;
      o.gbps = e.gbps;
      table.set(std::move(e));
    }
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace wgk::harness

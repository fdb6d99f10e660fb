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

Tunables fromJson(const nlohmann::json& j) {
  Tunables t;
  for (const auto& [name, v] : j.items()) t[name] = package::literalValueFromJson(v);
  return t;
}

nlohmann::json toJsonTunables(const Tunables& t) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, v] : t) {
    if (v.isBool())
      j[name] = v.asBool();
    else if (v.isInt())
      j[name] = v.asInt();
    else
      j[name] = v.asNumber();
  }
  return j;
}

// The tunable search of one case (see tune.h): a coordinate search from the best setting so far.
// Each round walks the searched tunables; for each candidate value it plans the case unforced
// with the current best tunables plus that value (which may move the case to another variant:
// thresholds are tunables too) and times every variant eligible with them whose plan differs
// from every plan already timed for that variant. The best setting after a tunable is the start
// for the next, so tunables that interact are searched together. Stops after `rounds` rounds, a
// round without improvement, or `maxTimings` timings.
void searchCase(Runtime& rt, Kernel& kernel, const package::BenchCase& c, const CaseTiming& timing,
                const TuneOptions& options, runtime::TuningEntry& e, TuneOutcome& o, std::string& errors) {
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
  auto note = [&](const std::string& what) { errors += (errors.empty() ? "" : "; ") + what; };
  std::optional<CaseBuffers> buf;
  int samePlan = 0, timings = 0;
  bool budgetHit = false;
  const std::vector<std::string> names = searchedTunables(m);
  for (int round = 0; round < options.rounds && !budgetHit; ++round) {
    const std::string bestBefore = candidateKey(e.variant, e.tunables);
    for (const std::string& name : names) {
      const expr::Value* manifestValue = nullptr;
      for (const auto& t : m.tunables)
        if (t.name == name) manifestValue = &t.value;
      const Tunables start = fromJson(e.tunables);
      std::vector<expr::Value> values = tunableCandidates(name, *manifestValue, rt.device());
      if (start.count(name)) values.push_back(*manifestValue);  // back to the manifest's value
      for (const expr::Value& value : values) {
        if (start.count(name) && start.at(name) == value) continue;  // the starting point itself
        Tunables tunables = start;
        if (value == *manifestValue)
          tunables.erase(name);
        else
          tunables[name] = value;
        const nlohmann::json tj = toJsonTunables(tunables);
        plan::PlanRequest r = base;
        r.tunables = tunables;
        plan::Plan p;
        try {
          p = wgk::introspect::plan(kernel, r, /*renderShaders=*/false);
        } catch (const Error& err) {
          if (err.code() != ErrorCode::NoVariant) note(candidateKey("", tj).substr(1) + ": " + err.what());
          continue;  // no variant is eligible with this value
        }
        for (const auto& v : p.variants) {
          if (!v.eligible) continue;
          try {
            if (!timed[v.id].insert(fingerprintOf(v.id, tunables)).second) {
              ++samePlan;
              continue;
            }
            if (timings >= options.maxTimings) {
              budgetHit = true;
              break;
            }
            if (!buf) {
              try {
                buf.emplace(prepareCase(rt, kernel, c));
              } catch (const Error& err) {  // the case itself cannot run: nothing more to time
                note(std::string("preparing the case: ") + err.what());
                return;
              }
            }
            ++timings;
            record(e, o, v.id, tj, timeSetting(rt, kernel, c, *buf, v.id, tunables, timing));
          } catch (const Error& err) {
            note(candidateKey(v.id, tj) + ": " + err.what());
            rt.waitIdle();
          }
        }
        if (budgetHit) break;
      }
      if (budgetHit) break;
    }
    if (candidateKey(e.variant, e.tunables) == bestBefore) break;  // a round without improvement
  }
  rt.waitIdle();  // the case's buffers go back to the pool only once the GPU is done with them
  o.detail += (o.detail.empty() ? "" : "; ") + std::to_string(timings) + " tunable setting(s) timed" +
              (budgetHit ? " (budget of " + std::to_string(options.maxTimings) + " reached)" : "");
  if (samePlan) o.detail += ", " + std::to_string(samePlan) + " gave a plan already timed";
}

}  // namespace

std::string benchCaseSignature(const package::BenchCase& c) {
  return runtime::tuningSignature(benchCaseRequest(c));
}

std::vector<std::string> searchedTunables(const package::Manifest& m) {
  std::vector<std::string> out;
  for (const auto& t : m.tunables)
    if (t.value.isNumber() || t.value.isBool()) out.push_back(t.name);
  return out;
}

bool isWorkgroupTunable(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return std::tolower(ch); });
  return lower.find("workgroup") != std::string::npos;
}

std::vector<int64_t> workgroupCandidates(const expr::Value& current, const DeviceProfile& device) {
  const uint64_t cap =
      std::min(device.limit("maxComputeInvocationsPerWorkgroup"), device.limit("maxComputeWorkgroupSizeX"));
  std::vector<int64_t> out;
  for (int64_t v : {32, 64, 128, 256, 512, 1024})
    if (static_cast<uint64_t>(v) <= cap && !(current == expr::Value(v))) out.push_back(v);
  return out;
}

std::vector<expr::Value> tunableCandidates(const std::string& name, const expr::Value& manifestValue,
                                           const DeviceProfile& device) {
  std::vector<expr::Value> out;
  if (manifestValue.isBool()) return {expr::Value(!manifestValue.asBool())};
  if (!manifestValue.isNumber()) return out;
  if (isWorkgroupTunable(name) && manifestValue.isInt()) {
    for (int64_t v : workgroupCandidates(manifestValue, device)) out.emplace_back(v);
    return out;
  }
  if (manifestValue.isInt()) {
    const int64_t v = manifestValue.asInt();
    std::vector<int64_t> c;
    if (v > 0)
      c = {v / 4, v / 2, v * 2, v * 4};
    else if (v == 0)
      c = {1, 4, 16};
    for (int64_t x : c)
      if (x > 0 && x != v && x < (int64_t{1} << 40) &&
          std::find(out.begin(), out.end(), expr::Value(x)) == out.end())
        out.emplace_back(x);
    return out;
  }
  const double v = manifestValue.asNumber();
  if (v != 0) out = {expr::Value(v / 2), expr::Value(v * 2)};
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
  } else if (!table.matchesDevice(profile)) {
    // A table with a match rule (a shipped one) may be extended on any device the rule accepts.
    throw Error(ErrorCode::InvalidArgument, "the tuning table was measured on another device ('" +
                                                (table.match.empty() ? table.deviceKey : table.match.dump()) +
                                                "'); this one is '" + key + "': write a new file");
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
  const auto cases = selectCases(file, sel, opId);
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto* c = cases[i];
    if (hooks.progress && options.searchTunables) hooks.progress("tunables of " + c->name, i, cases.size());
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
    if (options.searchTunables) searchCase(rt, kernel, *c, timing, options, e, o, errors);
    if (e.variant.empty()) {
      o.detail = errors.empty() ? "no eligible variant was measured" : errors;
    } else {
      o.variant = e.variant;
      o.tunables = e.tunables;
      o.gbps = e.gbps;
      table.set(std::move(e));
    }
    if (options.onOutcome) options.onOutcome(o);
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace wgk::harness

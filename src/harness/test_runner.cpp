#include "harness/test_runner.h"

#include <cmath>

#include "core/shape_text.h"
#include "reference/registry.h"
#include "runtime/attributes.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {
std::map<std::string, double> numericAttrs(const package::TestCase& c) {
  std::map<std::string, double> out;
  for (const auto& [k, v] : c.attrs) {
    if (v.isList()) continue;  // listAttrs
    if (!v.isNumber() && !v.isBool())
      throw Error(ErrorCode::Manifest, "attribute '" + k + "' of case '" + c.name +
                                           "' is not a number: the CPU reference takes numbers only");
    out[k] = v.isBool() ? (v.asBool() ? 1.0 : 0.0) : v.asNumber();
  }
  return out;
}

// Integer lists (Transpose's perm) go to the CPU reference as list attributes.
reference::ListAttrs listAttrs(const package::TestCase& c) {
  reference::ListAttrs out;
  for (const auto& [k, v] : c.attrs) {
    if (!v.isList()) continue;
    for (const auto& e : v.asList()) {
      if (!e.isNumber() || e.asNumber() != std::floor(e.asNumber()))
        throw Error(ErrorCode::Manifest,
                    "attribute '" + k + "' of case '" + c.name +
                        "' is a list of non-integers: the CPU reference takes integer lists only");
      out[k].push_back(static_cast<int64_t>(e.asNumber()));
    }
    out[k];  // an empty list is a list too
  }
  return out;
}

std::string describeInputs(const std::map<std::string, HostTensor>& inputs) {
  if (inputs.empty()) return "";
  const auto& [name, t] = *inputs.begin();
  return name + ":" + std::string(dtypeName(t.dtype())) + "[" + joinDims(t.shape(), "x") + "]";
}
}  // namespace

Tolerance toleranceOf(const package::ExpectedOutput& o) {
  Tolerance t;
  t.abs = o.tolerance.abs;
  t.rel = o.tolerance.rel;
  if (o.tolerance.ulp) t.ulp = static_cast<double>(*o.tolerance.ulp);
  t.allowNaN = o.allowNaN;
  return t;
}

nlohmann::json TestOutcome::toJson() const {
  auto num = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(std::to_string(v));
  };
  return {{"case", caseName},
          {"variant", variant},
          {"selectedBy", selectedBy},
          {"status", status},
          {"detail", detail},
          {"maxAbsError", num(maxAbsError)},
          {"maxUlpError", num(maxUlpError)},
          {"gpuUs", gpuUs},
          {"inputs", shapes}};
}

PreparedCase prepareCase(const std::string& opId, const package::TestCase& c) {
  PreparedCase p;
  p.inputs = package::materializeInputs(c);
  std::map<std::string, HostTensor> reference;
  bool needReference = false;
  for (const auto& [name, o] : c.outputs) needReference = needReference || !o.data;
  if (needReference) reference = reference::runReference(opId, p.inputs, numericAttrs(c), listAttrs(c));
  for (const auto& [name, o] : c.outputs) {
    if (auto given = package::materializeExpected(o)) {
      p.expected.emplace(name, std::move(*given));
    } else {
      auto it = reference.find(name);
      if (it == reference.end())
        throw Error(ErrorCode::Manifest, "case '" + c.name + "' expects output '" + name +
                                             "', which the CPU reference does not produce");
      p.expected.emplace(name, it->second);
    }
  }
  return p;
}

namespace {

// A forced variant runs without the device's tuning table (runtime/tuning.h), while the plan that
// listed the variants applied it: a variant that only the table's tunables make eligible (say,
// longrow_split with a larger LONGROW_SPLIT_MAX_ROWS) would then fail as "not eligible". Such a
// variant is left out here, with the reason, as an ineligible one is. Only asked when the plan
// applied a table (Plan::tuningSource): otherwise its verdicts are already the forced calls' ones.
bool eligibleWhenForced(Kernel& kernel, const plan::PlanRequest& request, const std::string& id,
                        std::string* skipReason) {
  plan::PlanRequest forced = request;
  forced.forcedVariant = id;
  try {
    (void)wgk::introspect::plan(kernel, forced, /*renderShaders=*/false);
    return true;
  } catch (const Error& e) {
    if (e.code() != ErrorCode::NoVariant) throw;
    *skipReason = "variant " + id +
                  " is eligible only with the tuning table's tunables (a forced variant runs "
                  "without the table)";
    return false;
  }
}

}  // namespace

std::vector<std::string> selectVariants(Kernel& kernel, const plan::PlanRequest& request,
                                        const std::string& variant, bool allVariants,
                                        std::string* skipReason) {
  if (!allVariants && variant.empty()) return {""};
  plan::Plan p;
  try {
    p = wgk::introspect::plan(kernel, request, /*renderShaders=*/false);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::NoVariant) throw;
    *skipReason = "no variant is eligible";
    return {};
  }
  const bool tuned = !p.tuningSource.empty();
  std::vector<std::string> out;
  for (const auto& v : p.variants) {
    if (!v.eligible) {
      if (v.id == variant) *skipReason = "variant " + v.id + " is not eligible: " + v.reason;
      continue;
    }
    if ((allVariants || v.id == variant) && (!tuned || eligibleWhenForced(kernel, request, v.id, skipReason)))
      out.push_back(v.id);
  }
  if (!allVariants && out.empty() && skipReason->empty())
    *skipReason = "the package has no variant '" + variant + "'";
  return out;
}

std::vector<std::string> variantsForCase(Kernel& kernel, const package::TestCase& c, const TestSelection& sel,
                                         std::string* skipReason) {
  plan::PlanRequest req;
  for (const auto& [name, t] : c.inputs) req.inputs[name] = {t.dtype, t.shape};
  req.attrs = c.attrs;
  return selectVariants(kernel, req, sel.variant, sel.allVariants, skipReason);
}

TestOutcome runTestCase(Kernel& kernel, const package::TestCase& c, const PreparedCase& prepared,
                        const std::string& variant) {
  TestOutcome out;
  out.caseName = c.name;
  out.variant = variant;
  out.shapes = describeInputs(prepared.inputs);
  try {
    std::map<std::string, TensorRef> refs;
    for (const auto& [k, v] : prepared.inputs) refs.emplace(k, TensorRef(v));
    CallOptions o;
    o.attrs = runtime::fromValues(c.attrs);
    o.variant = variant;
    o.placement = OutputPlacement::Host;
    o.timestamps = true;
    CallResult r = kernel.call(refs, o);
    out.variant = r.variant;
    out.selectedBy = r.selectedBy;
    out.gpuUs = r.timings.gpuUs;
    out.status = "pass";
    for (const auto& [name, want] : prepared.expected) {
      auto it = r.host.find(name);
      if (it == r.host.end()) {
        out.status = "fail";
        out.detail += name + ": not produced; ";
        continue;
      }
      CompareResult cr = compareTensors(it->second, want, toleranceOf(c.outputs.at(name)));
      out.maxAbsError = std::max(out.maxAbsError, cr.maxAbsError);
      out.maxUlpError = std::max(out.maxUlpError, cr.maxUlpError);
      if (!cr.pass) {
        out.status = "fail";
        out.detail += name + ": " + cr.summary() + "; ";
      }
    }
  } catch (const Error& e) {
    out.status = "error";
    out.detail = e.what();
    out.deviceLost = e.code() == ErrorCode::DeviceLost;
  }
  return out;
}

std::vector<std::string> testCaseNames(Kernel& kernel) {
  const auto& pkg = wgk::introspect::package(kernel);
  package::TestFile file = withContext("while reading test.json of " + pkg.manifest().id(), [&] {
    return package::loadTestFile((pkg.webgpuDir() / "test.json").string());
  });
  std::vector<std::string> names;
  for (const auto& c : file.cases) names.push_back(c.name);
  return names;
}

TestSummary runTests(Kernel& kernel, const TestSelection& sel,
                     const std::function<void(const TestOutcome&)>& onOutcome,
                     const std::function<void(size_t, size_t, const std::string&)>& onCase) {
  const auto& pkg = wgk::introspect::package(kernel);
  const std::string opId = pkg.manifest().id();
  package::TestFile file = withContext("while reading test.json of " + opId, [&] {
    return package::loadTestFile((pkg.webgpuDir() / "test.json").string());
  });
  if (!sel.caseName.empty() && !file.findCase(sel.caseName))
    throw Error(ErrorCode::NotFound, "test.json of " + opId + " has no case '" + sel.caseName + "'");
  TestSummary summary;
  std::string lostIn;  // non-empty after a case lost the device: why the rest are not run
  auto record = [&](TestOutcome o) {
    if (o.deviceLost && lostIn.empty())
      lostIn = "not run: case " + o.caseName + (o.variant.empty() ? "" : " (variant " + o.variant + ")") +
               " lost the device (" + o.detail.substr(0, o.detail.find('\n')) +
               "); wgk test runs no more of this package's cases, each of which would wait for the GPU again";
    if (o.status == "pass")
      ++summary.passed;
    else if (o.status == "skip")
      ++summary.skipped;
    else
      ++summary.failed;
    if (onOutcome) onOutcome(o);
    summary.outcomes.push_back(std::move(o));
  };
  const size_t total = sel.caseName.empty() ? file.cases.size() : 1;
  size_t index = 0;
  for (const auto& c : file.cases) {
    if (!sel.caseName.empty() && c.name != sel.caseName) continue;
    if (onCase) onCase(index++, total, c.name);
    if (!lostIn.empty()) {
      record({c.name, sel.variant, "", "skip", lostIn});
      continue;
    }
    if (c.skipGpu) {
      record({c.name, "", "", "skip", c.skipGpu->category + ": " + c.skipGpu->reason});
      continue;
    }
    std::string skipReason;
    std::vector<std::string> variants;
    PreparedCase prepared;
    try {
      variants = variantsForCase(kernel, c, sel, &skipReason);
      if (!variants.empty()) prepared = prepareCase(opId, c);
    } catch (const Error& e) {
      record({c.name, "", "", "error", e.what()});
      continue;
    }
    if (variants.empty()) {
      record({c.name, sel.variant, "", "skip", skipReason});
      continue;
    }
    for (const auto& v : variants)
      record(lostIn.empty() ? runTestCase(kernel, c, prepared, v)
                            : TestOutcome{c.name, v, "", "skip", lostIn});
  }
  return summary;
}

}  // namespace wgk::harness

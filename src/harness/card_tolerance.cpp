// The tolerances test.json applies, summarised per output dtype and input dtypes: the card's
// tolerance table and the tolerance `wgk demo` checks its sample inputs with.
#include <algorithm>
#include <cstdio>

#include "harness/card.h"

namespace wgk::harness {
namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

bool sameTolerance(const package::Tolerance& a, const package::Tolerance& b) {
  return a.abs == b.abs && a.rel == b.rel && a.ulp == b.ulp;
}

}  // namespace

std::string toleranceText(const package::Tolerance& t) {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  if (t.ulp) add("ulp: " + std::to_string(*t.ulp));
  if (t.abs) add("abs: " + number(*t.abs));
  if (t.rel) add("rel: " + number(*t.rel));
  return out.empty() ? "exact" : out;
}

std::string inputDtypesText(const package::Manifest& m, const std::map<std::string, DType>& inputs) {
  std::string out;
  for (const package::PortSpec* p : m.inputs()) {
    auto it = inputs.find(p->name);
    if (it == inputs.end()) continue;
    out += (out.empty() ? "" : ", ") + p->name + " " + std::string(dtypeName(it->second));
  }
  return out;
}

std::vector<ToleranceUse> toleranceUses(const package::Manifest& m, const package::TestFile& file) {
  std::vector<ToleranceUse> uses;
  for (const auto& c : file.cases) {
    if (c.skipGpu) continue;  // not run on a device, so it applies no tolerance there
    std::map<std::string, DType> dtypes;
    for (const auto& [name, t] : c.inputs) dtypes[name] = t.dtype;
    const std::string inputs = inputDtypesText(m, dtypes);
    std::vector<size_t> counted;  // rows this case already counts for
    for (const auto& [name, o] : c.outputs) {
      const std::string out(dtypeName(o.dtype));
      size_t row = uses.size();
      for (size_t i = 0; i < uses.size(); ++i)
        if (uses[i].outputDtype == out && uses[i].inputDtypes == inputs &&
            sameTolerance(uses[i].tolerance, o.tolerance))
          row = i;
      if (row == uses.size()) uses.push_back({out, inputs, o.tolerance, 0});
      if (std::find(counted.begin(), counted.end(), row) == counted.end()) {
        ++uses[row].cases;
        counted.push_back(row);
      }
    }
  }
  return uses;
}

std::optional<package::Tolerance> typicalTolerance(const package::Manifest& m, const package::TestFile& file,
                                                   const std::string& outputDtype,
                                                   const std::string& inputDtypes) {
  const ToleranceUse* best = nullptr;
  const auto uses = toleranceUses(m, file);
  for (const auto& u : uses)
    if (u.outputDtype == outputDtype && u.inputDtypes == inputDtypes && (!best || u.cases > best->cases))
      best = &u;
  if (!best) return std::nullopt;
  return best->tolerance;
}

}  // namespace wgk::harness

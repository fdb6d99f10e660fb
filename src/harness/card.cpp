// The kernel card (README.md) of a package, in the form of the seed card
// (../shared/seeds/com.microsoft.GemmaRotaryEmbedding.README.md), generated from the manifest,
// test.json, the build/webgpu file list and card.json. Variant and device sections:
// card_variants.cpp; usage snippets: card_usage.cpp; tolerance tables: card_tolerance.cpp.
#include "harness/card.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <tuple>

#include "wgk/error.h"

namespace wgk::harness {
namespace {

using package::Manifest;

std::string code(const std::string& text) {
  std::string out = "`";
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out + "`";
}

// A table cell: no line breaks, no bare pipes.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '\n' ? std::string(" ") : c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string frontMatterAndTitle(const Manifest& m) {
  std::ostringstream s;
  s << "---\nlibrary_name: kernels\nlicense: apache-2.0\ntags:\n- kernel\n- webgpu\n- wgsl\n---\n# " << m.id()
    << "\n\n\n";
  if (m.domain == "com.microsoft")
    s << code(m.domain) << " · ONNX Runtime contrib operator · contrib since_version " << m.sinceVersion;
  else if (m.domain == "ai.onnx" || m.domain.empty())
    s << code("ai.onnx") << " · ONNX operator · opset " << m.sinceVersion;
  else
    s << code(m.domain) << " operator · since_version " << m.sinceVersion;
  return s.str() + "\n\n";
}

std::string descriptionSection(const Manifest& m, const CardNotes& notes) {
  std::string s =
      "## Description\n\n" + (m.description.empty() ? notes.description : m.description) + "\n\n\n";
  if (!notes.specUrl.empty())
    s += "See the [" + notes.specTitle + "](" + notes.specUrl + ") for the reference semantics.\n\n\n";
  return s;
}

// "same as `qT`" for `ranks.qT` / `shapes.qT`, else the expression itself.
std::string sameAsOr(const std::string& expr, const std::string& prefix) {
  if (expr.rfind(prefix, 0) == 0 && expr.find_first_of(" ()[]+-*/", prefix.size()) == std::string::npos)
    return "same as " + code(expr.substr(prefix.size()));
  return code(expr);
}

std::string tensorsSection(const Manifest& m) {
  std::ostringstream s;
  s << "## Inputs\n\n\n| Name | Upstream name | Logical dtype | WebGPU storage | Rank | Shape | Description "
       "| "
       "Presence |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const package::PortSpec* p : m.inputs()) {
    const std::string storage = p->fixedDtype ? code(std::string(dtypeName(*p->fixedDtype)))
                                : p->storage  ? code(std::string(dtypeName(*p->storage)))
                                              : "same as logical dtype";
    s << "| " << code(p->name) << " | " << (p->onnx.empty() ? "—" : code(p->onnx)) << " | "
      << (p->dtype.empty() ? "—" : code(p->dtype)) << " | " << storage << " | "
      << (p->rank ? code(p->rank->text()) : "—") << " | — | " << cell(p->description) << " | "
      << (p->optional ? "optional" : "required") << " |\n";
  }
  s << "\n\n## Outputs\n\n\n| Name | Upstream name | Logical dtype | Rank | Shape | Description | Presence "
       "|\n"
       "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const package::PortSpec* p : m.outputs()) {
    s << "| " << code(p->name) << " | " << (p->onnx.empty() ? "—" : code(p->onnx)) << " | "
      << (p->dtype.empty() ? "—" : code(p->dtype)) << " | "
      << (p->rank ? sameAsOr(p->rank->text(), "ranks.") : "—") << " | "
      << (p->shape ? sameAsOr(p->shape->text(), "shapes.") : "—") << " | " << cell(p->description)
      << " | required |\n";
  }
  return s.str() + "\n\n";
}

std::string attributesSection(const Manifest& m) {
  if (m.attributes.empty()) return "";
  std::ostringstream s;
  s << "## Attributes\n\n\n| Name | Default | Allowed values | Description |\n| --- | --- | --- | --- |\n";
  for (const auto& a : m.attributes) {
    std::string allowed = "any";
    if (auto it = m.attributeConstraints.find(a.name); it != m.attributeConstraints.end()) {
      std::vector<std::string> parts;
      for (const auto& v : it->second.values) parts.push_back(code(v.toJson().dump()));
      if (it->second.min) parts.push_back("≥ " + code(nlohmann::json(*it->second.min).dump()));
      if (it->second.max) parts.push_back("≤ " + code(nlohmann::json(*it->second.max).dump()));
      if (!parts.empty()) {
        allowed.clear();
        for (const auto& p : parts) allowed += (allowed.empty() ? "" : ", ") + p;
      }
    }
    s << "| " << code(a.name) << " | " << (a.defaultValue ? code(a.defaultValue->repr()) : "—") << " | "
      << allowed << " | " << cell(a.description) << " |\n";
  }
  return s.str() + "\n\n";
}

std::string typeConstraintsSection(const Manifest& m) {
  std::ostringstream s;
  s << "## Type constraints\n\n\n| Variable | Allowed dtypes |\n| --- | --- |\n";
  for (const auto& [var, dtypes] : m.typeConstraints) {
    std::string list;
    for (const auto& d : dtypes) list += (list.empty() ? "" : ", ") + code(d);
    s << "| " << code(var) << " | " << list << " |\n";
  }
  return s.str() + "\n\n";
}

std::string filesSection(const package::Package& pkg) {
  const Manifest& m = pkg.manifest();
  const std::vector<std::pair<std::string, std::string>> known = {
      {"metadata.json", "kernel metadata (id, digests, per-variant templates, provenance)"},
      {"manifest.json", "the op contract (source of truth)"},
      {"test.json", "correctness cases"},
      {"bench.json", "benchmark cases"}};
  std::set<std::string> present;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(pkg.webgpuDir(), ec))
    if (e.is_regular_file()) present.insert(e.path().filename().string());
  if (ec) throw Error(ErrorCode::Io, "cannot list " + pkg.webgpuDir().string() + ": " + ec.message());
  std::ostringstream s;
  s << "## Files\n\n\n";
  auto link = [&](const std::string& f) { return "[" + code(f) + "](build/webgpu/" + f + ")"; };
  for (const auto& [file, what] : known)
    if (present.erase(file)) s << "- " << link(file) << " — " << what << "\n";
  for (const auto& file : present) {
    std::vector<std::string> users;
    for (const auto& v : m.variants)
      for (const auto* p : v.flatPasses())
        if (p->shader == file && std::find(users.begin(), users.end(), v.id) == users.end())
          users.push_back(v.id);
    s << "- " << link(file);
    if (!users.empty()) {
      s << " — WGSL template of variant" << (users.size() > 1 ? "s " : " ");
      for (size_t i = 0; i < users.size(); ++i) s << (i ? ", " : "") << code(users[i]);
    }
    s << "\n";
  }
  return s.str() + "\n\n";
}

std::string tolerancesSection(const Manifest& m, const package::TestFile& tests, const CardNotes& notes) {
  auto uses = toleranceUses(m, tests);
  // Grouped by output dtype, then input dtypes; the most used tolerance first within a group.
  std::stable_sort(uses.begin(), uses.end(), [](const ToleranceUse& a, const ToleranceUse& b) {
    return std::tie(a.outputDtype, a.inputDtypes, b.cases) < std::tie(b.outputDtype, b.inputDtypes, a.cases);
  });
  std::ostringstream s;
  s << "## Tolerances\n\n\n"
    << "`wgk test` compares every output of every `test.json` case with the case's data or, when it has "
       "none, with the CPU reference (double precision, exact float16 rounding). An element passes when "
       "`|got - want| <= abs + rel * |want|` (abs or rel given) or when it lies at most `ulp` representable "
       "steps of the output dtype away (ulp given); NaN passes only where the reference is NaN and the case "
       "allows it.\n\n\n"
    << "| Output dtype | Input dtypes | Tolerance | Cases |\n| --- | --- | --- | --- |\n";
  std::vector<std::string> dtypes;
  for (const auto& u : uses) {
    s << "| " << code(u.outputDtype) << " | " << cell(u.inputDtypes) << " | "
      << code(toleranceText(u.tolerance)) << " | " << u.cases << " |\n";
    if (std::find(dtypes.begin(), dtypes.end(), u.outputDtype) == dtypes.end())
      dtypes.push_back(u.outputDtype);
  }
  s << "\n\n";
  if (!notes.present) {
    s << "This package has no `card.json`, so these tolerances come without a justification.\n\n\n";
    return s.str();
  }
  for (const auto& d : dtypes) {
    auto it = notes.tolerances.find(d);
    if (it == notes.tolerances.end())
      throw Error(ErrorCode::Manifest, "card.json of " + m.id() + " has no tolerances." + d +
                                           " note, but test.json checks " + d + " outputs");
    s << "- **" << d << " outputs.** " << it->second << "\n";
  }
  for (const auto& [d, text] : notes.tolerances)
    if (std::find(dtypes.begin(), dtypes.end(), d) == dtypes.end())
      throw Error(ErrorCode::Manifest, "card.json of " + m.id() + " explains " + d +
                                           " tolerances, but no test.json case checks a " + d + " output");
  return s.str() + "\n\n";
}

// The repo id the package is published under: metadata.json's id, else <parent folder>/<op id>.
std::string repoIdOf(const package::Package& pkg) {
  if (pkg.hasFile("metadata.json")) {
    auto j = wgk::parseOrderedJson(pkg.readFile("metadata.json"), "metadata.json");
    if (j.is_object() && j.contains("id") && j["id"].is_string()) return j["id"].get<std::string>();
  }
  return pkg.rootDir().parent_path().filename().string() + "/" + pkg.manifest().id();
}

}  // namespace

CardNotes loadCardNotes(const package::Package& pkg) {
  CardNotes notes;
  const auto file = pkg.rootDir() / "card.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return notes;
  return loadOrderedJsonFile(file.string(), [&](const package::Json& j) {
    package::ObjectReader r(j, "");
    notes.present = true;
    if (const auto* spec = r.optional("operatorSpec")) {
      package::ObjectReader sr(*spec, r.path("operatorSpec"));
      notes.specTitle = package::readString(sr.required("title"), sr.path("title"));
      notes.specUrl = package::readString(sr.required("url"), sr.path("url"));
      sr.finish();
    }
    if (const auto* d = r.optional("description"))
      notes.description = package::readString(*d, r.path("description"));
    if (const auto* tol = r.optional("tolerances")) {
      const std::string path = r.path("tolerances");
      for (const auto& [dtype, text] : package::readObject(*tol, path).items()) {
        if (!dtypeFromName(dtype)) package::schemaError(package::jsonPath(path, dtype), "not a dtype name");
        notes.tolerances[dtype] = package::readString(text, package::jsonPath(path, dtype));
      }
    }
    r.finish();
    return notes;
  });
}

std::string generateCard(const package::Package& pkg) {
  const Manifest& m = pkg.manifest();
  return withContext("while generating the kernel card of " + m.id(), [&] {
    const CardNotes notes = loadCardNotes(pkg);
    const package::TestFile tests = pkg.hasFile("test.json")
                                        ? package::loadTestFile((pkg.webgpuDir() / "test.json").string())
                                        : package::TestFile{};
    std::string out = frontMatterAndTitle(m) + descriptionSection(m, notes) + tensorsSection(m) +
                      attributesSection(m) + typeConstraintsSection(m) + variantsSection(m) +
                      deviceRequirementsSection(m) + filesSection(pkg) + tolerancesSection(m, tests, notes) +
                      usageSection(m, repoIdOf(pkg), tests);
    out +=
        "<!-- Generated by `wgk card` from build/webgpu/manifest.json, build/webgpu/test.json and card.json; "
        "regenerate with `wgk card <package folder> --write`. -->\n";
    return out;
  });
}

}  // namespace wgk::harness

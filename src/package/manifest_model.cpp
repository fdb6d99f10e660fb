// The manifest model's look-ups, and the choice of reader.
#include <regex>
#include <set>

#include "package/manifest.h"
#include "wgk/error.h"

namespace wgk::package {

std::string_view dialectName(Dialect d) {
  return d == Dialect::Spec21 ? "2.1" : "seeds";
}

std::string_view resourceKindName(ResourceKind k) {
  switch (k) {
    case ResourceKind::Tensor:
      return "tensor";
    case ResourceKind::Intermediate:
      return "intermediate";
    case ResourceKind::Uniform:
      return "uniform";
  }
  return "?";
}

std::string_view bufferTypeName(BufferType t) {
  switch (t) {
    case BufferType::ReadOnlyStorage:
      return "read-only-storage";
    case BufferType::Storage:
      return "storage";
    case BufferType::Uniform:
      return "uniform";
  }
  return "?";
}

namespace {

template <class T, class F>
const T* findIn(const std::vector<T>& list, F&& key, std::string_view name) {
  for (const auto& x : list)
    if (key(x) == name) return &x;
  return nullptr;
}

void flatten(const std::vector<PassNode>& nodes, std::vector<const PassSpec*>& out) {
  for (const auto& n : nodes) {
    if (n.isGroup)
      flatten(n.children, out);
    else
      out.push_back(&n.pass);
  }
}

}  // namespace

std::vector<const PassSpec*> VariantSpec::flatPasses() const {
  std::vector<const PassSpec*> out;
  flatten(passes, out);
  return out;
}

const PortSpec* Manifest::findPort(std::string_view n) const {
  return findIn(ports, [](const PortSpec& p) -> const std::string& { return p.name; }, n);
}
const ScalarArgSpec* Manifest::findArg(std::string_view n) const {
  return findIn(args, [](const ScalarArgSpec& a) -> const std::string& { return a.name; }, n);
}
const AttributeSpec* Manifest::findAttribute(std::string_view n) const {
  return findIn(attributes, [](const AttributeSpec& a) -> const std::string& { return a.name; }, n);
}
const VariantSpec* Manifest::findVariant(std::string_view id) const {
  return findIn(variants, [](const VariantSpec& v) -> const std::string& { return v.id; }, id);
}
const TunableSpec* Manifest::findTunable(std::string_view n) const {
  return findIn(tunables, [](const TunableSpec& t) -> const std::string& { return t.name; }, n);
}

const expr::Value* Manifest::attributeDefault(std::string_view n) const {
  const AttributeSpec* a = findAttribute(n);
  return a && a->defaultValue ? &*a->defaultValue : nullptr;
}

std::vector<const PortSpec*> Manifest::inputs() const {
  std::vector<const PortSpec*> out;
  for (const auto& p : ports)
    if (p.isInput()) out.push_back(&p);
  return out;
}

std::vector<const PortSpec*> Manifest::outputs() const {
  std::vector<const PortSpec*> out;
  for (const auto& p : ports)
    if (p.isOutput()) out.push_back(&p);
  return out;
}

std::vector<std::string> Manifest::shaderFiles(const VariantSpec& v) const {
  std::set<std::string> files;
  for (const PassSpec* p : v.flatPasses()) files.insert(p->shader);
  return {files.begin(), files.end()};
}

std::vector<std::string> Manifest::shaderFiles() const {
  std::set<std::string> files;
  for (const auto& v : variants)
    for (const auto& f : shaderFiles(v)) files.insert(f);
  return {files.begin(), files.end()};
}

Dialect detectDialect(const Json& j) {
  if (!j.is_object()) return Dialect::Spec21;
  const auto inputs = j.find("inputs");
  if (j.contains("bindingSets") || (inputs != j.end() && inputs->is_array())) return Dialect::Seeds;
  return Dialect::Spec21;
}

Manifest parseManifest(const Json& j, std::optional<std::string> spec) {
  if (!spec) return detectDialect(j) == Dialect::Seeds ? readSeedsManifest(j) : readSpec21Manifest(j);
  static const std::regex version(R"(^\d+\.\d+$)");
  if (!std::regex_match(*spec, version))
    throw Error(ErrorCode::Unsupported, "manifest spec \"" + spec->substr(0, 40) +
                                            "\" is not a <major>.<minor> version (metadata.json webgpu.manifestSpec)");
  if (*spec != "2.1")
    throw Error(ErrorCode::Unsupported,
                "manifest spec " + *spec + " is not supported: wgk reads manifest spec 2.1 and the seeds' dialect");
  return readSpec21Manifest(j);
}

Manifest readManifest(const std::string& text, const std::string& what, std::optional<std::string> spec) {
  return withContext("while reading " + what, [&] { return parseManifest(parseOrderedJson(text, what), spec); });
}

Manifest loadManifest(const std::string& file, std::optional<std::string> spec) {
  return loadOrderedJsonFile(file, [&](const Json& j) { return parseManifest(j, spec); });
}

}  // namespace wgk::package

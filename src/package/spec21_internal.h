// Private pieces of the manifest spec 2.1 reader (spec21_*.cpp). Facts about the format come
// from ../shared/hub-spec-2.1/README.md and the Hub loader's behaviour it summarises.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "package/manifest.h"

namespace wgk::package::spec21 {

// Names a derive may not take: every scope namespace, builtin and literal (and the type variables).
const std::set<std::string>& reservedScopeNames();
// The seven features and the canonical GPUSupportedLimits names `requires` may name.
const std::set<std::string>& knownFeatures();
const std::set<std::string>& knownLimits();

// Unknown-key check with the migration hints the spec gives for seeds-dialect keys:
// "unknown field 'bindingSets' (spec 2.1: ...)".
void finishObject(const ObjectReader& r, const std::map<std::string, std::string>& hints = {});

// A derive map: identifiers that do not shadow reserved names; values read deep.
std::vector<NamedValue> readDerive(const Json& j, const std::string& path, const std::set<std::string>& reserved);
Requirements readRequires(const Json& j, const std::string& path);
// Top-level requires merged into a variant's: features united, limits maximised.
Requirements mergeRequires(const Requirements& top, const Requirements& variant, const std::string& path);
std::vector<ExprOrValue> readWhenList(const Json& j, const std::string& path, const char* key);
std::vector<TunableSpec> readTunables(const Json& j, const std::string& path);

// One binding entry as written: a top-level handle, or an inline entry of a pass.
struct BindingEntry {
  std::string name;  // WGSL name
  std::optional<std::string> arg, scratch;
  std::optional<BufferType> buffer;
  std::optional<std::string> elementType;  // as written (may be "$name")
  std::optional<ExprOrValue> length;
  std::optional<UniformStruct> uniform;
  std::string path;
};
BindingEntry readBindingEntry(const Json& j, const std::optional<std::string>& handle, const std::string& path);

// Families expanded: every plain variant's JSON with its path and family label.
struct ExpandedVariant {
  Json json;
  std::string path;    // "/variants/2" or, for a family, "/variants/2/variants/0"
  std::string family;  // "" or "variants[2] case 1"
};
std::vector<ExpandedVariant> expandFamilies(const Json& variants);

// The context a variant reader needs from the top level.
struct TopLevel {
  const Manifest* manifest = nullptr;  // ports, type constraints
  std::map<std::string, BindingEntry> handles;
  std::vector<ExprOrValue> when;
  Requirements requirements;
  std::set<std::string> reserved;
};
VariantSpec readVariant(const ExpandedVariant& ev, size_t index, const TopLevel& top);

// JavaScript's String(number), used where a family substitutes a number into a string.
std::string jsNumberText(double d);

}  // namespace wgk::package::spec21

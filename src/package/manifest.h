// The manifest of a kernel package as one model, whichever dialect the file is written in: the
// seeds' dialect (SPEC.md §3: `args`, `bindingSets`, `constants`, `source`) or manifest spec 2.1
// (../shared/hub-spec-2.1: port maps, named binding handles, per-pass bindings, families, repeat
// groups). Each dialect has a reader that produces this model; the planner, runtime, harness and
// cards only ever see the model. Where the two dialects give a construct different meanings, the
// reader writes the meaning into the model (an evaluation phase, a dispatch form), not a flag.
//
//   wgk::package::Manifest m = wgk::package::parseManifest(json);      // either dialect
//   for (const auto& v : m.variants) std::cout << v.id << " " << v.priority << "\n";
//   for (const auto& p : m.ports) std::cout << p.name << (p.isInput() ? " in" : " out") << "\n";
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "package/manifest_value.h"
#include "wgk/dtype.h"

namespace wgk::package {

enum class Dialect { Seeds, Spec21 };
std::string_view dialectName(Dialect d);  // "seeds", "2.1"

// ---- the op contract ---------------------------------------------------------------------

enum class PortDirection { Input, Output, InOut };
enum class Narrowing { None, Checked, Saturating };  // int64 inputs projected to 32-bit storage

// A tensor the kernel reads or writes: the seeds' tensor `args` joined with their inputs[] /
// outputs[] entries, or a spec 2.1 port (a name in both `inputs` and `outputs` is one InOut port).
struct PortSpec {
  std::string name;  // what callers name the tensor (seeds: the args key; 2.1: the port name)
  std::string onnx;  // the upstream ONNX name (seeds: role / semantic; 2.1: `onnx`, may be empty)
  PortDirection direction = PortDirection::Input;
  std::string dtype;                // a typeConstraints variable or a dtype name; empty: any dtype
  std::optional<DType> fixedDtype;  // seeds' args.<name>.dtype
  std::optional<ExprOrValue> rank;  // inputs: an integer the request must match; outputs: checked
  bool rankChecked = true;          // false: informational only (spec 2.1, as the Hub loader)
  std::optional<ExprOrValue> shape;  // outputs: the derived shape (a list expression or a list)
  bool optional = false;
  std::optional<DType> storage;  // storage projection of a logical int64 (int32, uint32, int64)
  Narrowing narrowing = Narrowing::None;
  bool packed = false;  // layout "packed": uint8 elements four to a u32 word
  // The keys under which shapes/ranks/tensorDtypes/present hold this tensor (seeds: the args key
  // and the semantic; 2.1: the port name).
  std::vector<std::string> scopeNames;
  std::string description;
  std::string path;  // JSON path of its declaration, for messages

  bool isInput() const { return direction != PortDirection::Output; }
  bool isOutput() const { return direction != PortDirection::Input; }
};

// A scalar parameter a caller passes by value (spec 2.1 `args`).
struct ScalarArgSpec {
  std::string name;
  std::string kind;  // "u32", "i32", "f32", "bool", "string"
  bool required = true;
  std::vector<std::string> oneOf;  // string args only; empty: any string
  std::string onnx, description;
};

struct AttributeSpec {
  std::string name;
  std::optional<expr::Value> defaultValue;  // absent: the caller must pass it to use it
  std::string description;
};

struct AttributeConstraint {
  bool required = false;
  std::vector<expr::Value> values;  // empty: any value; numbers compare as float32
  std::optional<double> min, max;
};

struct TunableSpec {
  std::string name;
  expr::Value value;  // number, string or bool
  std::string description;
};

// ---- variants ----------------------------------------------------------------------------

struct SubgroupMatrixConfig {
  std::optional<std::string> componentType, resultComponentType;  // f32 f16 u32 i32 u8 i8
  std::optional<int64_t> M, N, K;
};

struct Requirements {
  std::vector<std::string> features;
  std::map<std::string, double> limits;  // GPUSupportedLimits name -> minimum
  std::optional<int64_t> subgroupMinSize;
  std::vector<SubgroupMatrixConfig> subgroupMatrixConfigs;  // any one must match
  bool empty() const {
    return features.empty() && limits.empty() && !subgroupMinSize && subgroupMatrixConfigs.empty();
  }
};

// How a binding is declared in WGSL; the runtime turns it into the device layer's binding kind in
// one place (runtime/binding_layout.h).
enum class BufferType { ReadOnlyStorage, Storage, Uniform };
std::string_view bufferTypeName(BufferType t);  // "read-only-storage", "storage", "uniform"

// What a binding binds: a port's tensor, an intermediate, or the pass's uniforms. The manifest's
// and the plan's (plan::PlannedBinding::kind) one enum.
enum class ResourceKind { Tensor, Intermediate, Uniform };
std::string_view resourceKindName(ResourceKind k);  // "tensor", "intermediate", "uniform"

struct UniformField {
  std::string name;
  std::string type;                  // "u32", "i32", "f32"
  std::optional<ExprOrValue> value;  // absent: the scalar arg of the same name, then `defaultValue`
  bool required = true;              // a value must come from somewhere (spec 2.1 fields)
  bool internal = false;             // padding and the like: never required
  std::optional<double> defaultValue;
};

struct UniformStruct {
  std::string name;  // "Params"
  std::vector<UniformField> fields;
};

// One @binding of a pass, resolved from whatever the dialect wrote (a binding set entry, a named
// handle, a port or intermediate name, an inline entry).
struct BindingSpec {
  std::string name;  // the WGSL variable name
  ResourceKind kind = ResourceKind::Tensor;
  std::string resource;  // the port name (Tensor) or intermediate id (Intermediate)
  BufferType type = BufferType::ReadOnlyStorage;
  std::string elementType;            // a WGSL type, or "$name": the string value of `name` in scope
  std::optional<ExprOrValue> length;  // array<T, N>; absent: a runtime-sized array
  std::optional<UniformStruct> uniform;  // BufferType::Uniform
  std::string path;                      // JSON path of the entry the reader resolved it from
};

struct Dispatch {
  // Threads: ceil(threads / workgroupSize) workgroups, folded balanced into y above the limit.
  // Workgroups: `workgroups` (and `z`), folded into y with the spec's row stride above the limit.
  // Grid: exactly {x, y, z}; a count above the device limit is an error (spec 2.1 writes the
  // fold itself, and its shorthands are read into this form).
  enum class Form { Threads, Workgroups, Grid };
  Form form = Form::Grid;
  std::optional<ExprOrValue> threads, workgroupSize, workgroups, x, y, z;
};

struct ViewAlias {
  std::string input, output;  // binding names: the pass is skipped when both view the same bytes
};

struct PassSpec {
  std::string id;
  std::string name;
  std::string shader;  // template file
  std::vector<NamedValue> derive;
  std::vector<BindingSpec> bindings;  // @binding(i) = position
  Dispatch dispatch;
  std::optional<std::string> subgroupCollectivesWidth;  // "portable" or a power of two
  bool submitAfter = false;  // the work so far is submitted after this pass
  std::vector<ViewAlias> viewAlias;
  std::vector<NamedValue> profile;  // informational values (bytesMoved, ...)
  std::string path;
};

// A pass, or a repeat group: `count` copies of `children`, each seeing repeat.<index>.
struct PassNode {
  PassSpec pass;  // when !isGroup
  bool isGroup = false;
  std::string groupId, index;
  ExprOrValue count;
  std::vector<PassNode> children;
};

struct IntermediateSpec {
  std::string id;
  std::string dtype;  // a dtype name or type variable
  ExprOrValue shape;  // a list of integers
  bool zeroInit = false;
  std::string path;
};

// Evaluation order, for one request: requires and the storage-buffer budget; `derive`; `when`
// (each exactly true); `supersededBy`; `constants`; `demoteWhen`. Then, for the chosen variant
// only: `tunables` overrides, `selectedDerive`, intermediates and passes. The seeds' dialect
// fills `derive` and `constants`; spec 2.1 fills `tunables` and `selectedDerive` (its variant
// derive is not visible to `when`, as in the Hub loader).
struct VariantSpec {
  std::string id;
  std::string name;
  std::string description;
  double priority = 0;
  Requirements requirements;
  std::vector<NamedValue> derive;
  std::vector<ExprOrValue> when;  // all must be exactly true
  std::vector<std::string> supersededBy;  // higher-ranked ids; eligible and undemoted wins
  std::vector<NamedValue> constants;  // bare and as constants.<name>
  std::vector<ExprOrValue> demoteWhen;  // any true demotes
  std::vector<NamedValue> tunables;
  std::vector<NamedValue> selectedDerive;
  std::vector<IntermediateSpec> intermediates;
  std::vector<PassNode> passes;
  std::string family;  // for an expanded spec 2.1 family: "variants[2] case 1"; else empty
  std::string path;

  // Every pass, groups flattened (each pass once, however often a group repeats it).
  std::vector<const PassSpec*> flatPasses() const;
};

struct Manifest {
  Dialect dialect = Dialect::Seeds;
  std::string domain, name, description;
  int64_t sinceVersion = 1;
  std::vector<PortSpec> ports;  // inputs in file order, then outputs; an InOut port appears once
  std::vector<ScalarArgSpec> args;
  std::vector<AttributeSpec> attributes;
  std::map<std::string, AttributeConstraint> attributeConstraints;
  std::map<std::string, std::vector<std::string>> typeConstraints;  // T -> dtype names
  std::set<std::string> freeTypeVars;  // type variables without constraints (spec 2.1): any dtype
  std::vector<TunableSpec> tunables;
  std::vector<NamedValue> derive;
  std::vector<VariantSpec> variants;  // families expanded, declaration order
  Json source;                        // the manifest as read (for `wgk convert` and `wgk info`)

  std::string id() const { return domain + "." + name; }  // "ai.onnx.RMSNormalization"
  const PortSpec* findPort(std::string_view name) const;
  const ScalarArgSpec* findArg(std::string_view name) const;
  const AttributeSpec* findAttribute(std::string_view name) const;
  const VariantSpec* findVariant(std::string_view id) const;
  const TunableSpec* findTunable(std::string_view name) const;
  const expr::Value* attributeDefault(std::string_view name) const;
  std::vector<const PortSpec*> inputs() const;   // Input and InOut ports
  std::vector<const PortSpec*> outputs() const;  // Output and InOut ports
  // Every template file a pass names, sorted, without duplicates.
  std::vector<std::string> shaderFiles() const;
  std::vector<std::string> shaderFiles(const VariantSpec& v) const;
};

// Reads either dialect: spec 2.1 when `spec` says "2.1" (metadata.json's webgpu.manifestSpec) or,
// without one, when the file has the shape of one (port maps, named bindings, no bindingSets);
// the seeds' dialect otherwise. Another spec version is Error(Unsupported). Errors are
// Error(Manifest) naming the JSON path, with "in manifest <domain.name>" context.
Manifest parseManifest(const Json& j, std::optional<std::string> spec = std::nullopt);
// The one manifest reader of wgk (package folders, the hub's downloads and digests): manifest.json's
// text, or the file, read as parseManifest says, every error with "while reading <what>" context.
Manifest readManifest(const std::string& text, const std::string& what, std::optional<std::string> spec = std::nullopt);
Manifest loadManifest(const std::string& file, std::optional<std::string> spec = std::nullopt);
// The dialect a manifest without metadata is written in, by its shape.
Dialect detectDialect(const Json& j);

// The dialect readers (parseManifest picks one).
Manifest readSeedsManifest(const Json& j);
Manifest readSpec21Manifest(const Json& j);

}  // namespace wgk::package

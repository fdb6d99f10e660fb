// The manifest of a kernel package (manifest.json, the seeds' dialect, SPEC.md §3) as typed data.
// Every expression is parsed once, at load, so a bad expression fails with its JSON path and
// planning only evaluates. Object order of `derive` and `constants` is kept (file order).
//
//   wgk::package::Manifest m = wgk::package::parseManifest(json);       // or loadManifest(file)
//   for (const auto& v : m.variants) std::cout << v.id << " " << v.priority << "\n";
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "expr/expression.h"
#include "expr/value.h"
#include "package/json_reader.h"

namespace wgk::package {

// A manifest value that is either an expression (a JSON string) or a literal (number, bool, list,
// object: `"writeStats": false`, `"hiddenVec": 1`). Strings are always expressions, so a string
// constant is written as an expression literal: "\"tanh\"".
class ExprOrValue {
 public:
  ExprOrValue() = default;
  static ExprOrValue parse(const Json& j, const std::string& path);    // Error(Manifest) naming path
  static ExprOrValue literal(const Json& j, const std::string& path);  // never an expression
  expr::Value evaluate(const expr::Scope& scope) const;
  bool isExpression() const { return expr_.has_value(); }
  const expr::Value* literalValue() const { return expr_ ? nullptr : &literal_; }
  const expr::Expression* expression() const { return expr_ ? &*expr_ : nullptr; }
  std::string text() const;  // the expression source, or the literal as JSON
  const std::string& path() const { return path_; }

 private:
  std::optional<expr::Expression> expr_;
  expr::Value literal_;
  std::string path_;
};

struct NamedValue {
  std::string name;
  ExprOrValue value;
};

struct InputSpec {
  std::string role;   // upstream ONNX name
  std::string dtype;  // a type variable of typeConstraints, or a dtype name
  std::optional<int64_t> rank;
  bool optional = false;
  std::string description;
};

struct OutputSpec {
  std::string role;
  std::string dtype;  // type variable or dtype name
  std::optional<ExprOrValue> rank;
  ExprOrValue shape;  // evaluates to a list of integers
  std::string description;
};

struct AttributeConstraint {
  std::vector<expr::Value> values;  // empty: any value
  std::optional<double> min, max;
};

enum class ArgRole { Input, Output };

struct ArgSpec {
  std::string name;      // the args key: what callers name the tensor
  std::string kind;      // "tensor"
  std::string semantic;  // inputs[].role / outputs[].role it stands for
  ArgRole role = ArgRole::Input;
  std::optional<std::string> dtype;  // a fixed dtype name ("float32")
  bool required = true;              // inputs only; false for optional inputs
};

enum class BufferType { ReadOnlyStorage, Storage, Uniform };
std::string_view bufferTypeName(BufferType t);  // "read-only-storage", "storage", "uniform"

struct UniformField {
  std::string name;
  std::string type;  // "u32", "i32", "f32"
  ExprOrValue value;
};

struct UniformStruct {
  std::string name;  // "Params"
  std::vector<UniformField> fields;
};

struct BindingSpec {
  std::string name;                // the WGSL variable name
  std::optional<std::string> arg;  // a tensor arg bound here
  std::string semantic;            // arg semantic, intermediate id, or "kernel.params"
  BufferType type = BufferType::ReadOnlyStorage;
  std::string elementType;  // WGSL type, or "$constName"
  // array length: "$constName", a literal number or an expression (absent: runtime-sized array)
  std::optional<std::string> lengthConstant;
  std::optional<ExprOrValue> length;
  std::optional<UniformStruct> uniform;  // for BufferType::Uniform
};

struct Dispatch {
  // Exactly one form: {threads, workgroupSize} or {workgroups, z?}.
  std::optional<ExprOrValue> threads, workgroupSize, workgroups, z;
};

struct PassSpec {
  std::string id;
  std::string name;
  std::string shader;                    // template file
  bool hasSource = false;                // written as source: {shader, inputs}
  std::vector<NamedValue> sourceInputs;  // evaluated into `source.<name>` for the template
  std::optional<std::string> subgroupCollectivesWidth;
  std::string bindings;  // binding set name
  Dispatch dispatch;
  std::vector<NamedValue> derive;  // pass-level derive (after the variant's)
};

struct IntermediateSpec {
  std::string id;
  std::string dtype;  // dtype name or type variable
  ExprOrValue shape;  // a list of integers
};

struct VariantSpec {
  std::string id;
  std::string name;
  std::string description;
  double priority = 0;
  std::vector<std::string> requiredFeatures;
  std::vector<ExprOrValue> when;        // all must be exactly true
  std::vector<ExprOrValue> demoteWhen;  // any true demotes
  std::vector<NamedValue> derive;
  std::vector<NamedValue> constants;
  std::vector<IntermediateSpec> intermediates;
  std::vector<PassSpec> passes;
};

struct Manifest {
  std::string domain, name, description;
  int64_t sinceVersion = 1;
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
  std::vector<NamedValue> attributes;  // defaults, literals
  std::map<std::string, std::string> attributeDescriptions;
  std::map<std::string, AttributeConstraint> attributeConstraints;
  std::map<std::string, std::vector<std::string>> typeConstraints;  // T -> dtype names
  std::vector<ArgSpec> args;                                        // file order
  std::vector<NamedValue> tunables;                                 // literals
  std::vector<NamedValue> derive;
  std::vector<NamedValue> constants;
  std::map<std::string, std::vector<BindingSpec>> bindingSets;
  std::vector<VariantSpec> variants;

  std::string id() const { return domain + "." + name; }  // "ai.onnx.RMSNormalization"
  const ArgSpec* findArg(std::string_view name) const;
  const InputSpec* findInput(std::string_view role) const;
  const OutputSpec* findOutput(std::string_view role) const;
  const VariantSpec* findVariant(std::string_view id) const;
  const expr::Value* attributeDefault(std::string_view name) const;
  // Every template file a pass names, sorted, without duplicates.
  std::vector<std::string> shaderFiles() const;
};

// Validates the schema and the cross references (pass bindings -> bindingSets, binding args ->
// args, args semantics -> inputs/outputs roles, "$const" element types -> constants, unique ids).
// Errors are Error(Manifest) naming the JSON path, with "in manifest <domain.name>" context.
Manifest parseManifest(const Json& j);
// A JSON value as an expression-language literal (objects become maps, arrays lists).
expr::Value literalValueFromJson(const Json& j);
Manifest loadManifest(const std::string& file);

}  // namespace wgk::package

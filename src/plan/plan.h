// Planning: a request (tensor dtypes and shapes by arg name, attributes) + a device profile ->
// a Plan: the chosen variant, every variant's verdict, output shapes and dtypes, intermediates and
// per pass the dispatch size, bindings, uniform bytes and (optionally) rendered WGSL. SPEC.md §3.
//
//   wgk::plan::Planner planner(wgk::package::Package::open(folder));
//   wgk::plan::PlanRequest req;
//   req.inputs["X"] = {wgk::DType::Float16, {2, 8}};
//   wgk::plan::Plan p = planner.plan(req, profile);            // throws Error(Contract/NoVariant)
//   std::cout << p.toJson(false).dump(2) << "\n" << p.toText(false);
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/device_profile.h"
#include "expr/value.h"
#include "package/package.h"
#include "wgk/dtype.h"
#include "wgk/plan.h"

namespace wgk::plan {

// A request's tensor and a variant's verdict are the public types (include/wgk/plan.h), so that
// Kernel::plan() hands them out as the planner made them.
using TensorDesc = wgk::TensorSpec;
using VariantVerdict = wgk::PlanVariant;

struct PlanRequest {
  std::map<std::string, TensorDesc> inputs;  // by args key; outputs are derived, never passed
  std::set<std::string> absent;  // optional inputs left out explicitly (unlisted ones are absent too)
  std::map<std::string, expr::Value> attrs;  // defaults fill the rest
  std::map<std::string, expr::Value> args;   // scalar args (spec 2.1 `args`) by name
  // Caller-given destinations: the shape of an output whose port declares none.
  std::map<std::string, TensorDesc> outputs;
  std::string forcedVariant;     // must be eligible, else Error(NoVariant)
  std::string preferredVariant;  // tuning table hint: used when eligible, ignored otherwise
  // Which table the preference came from, for the plan's explanation ("nvidia-h200 table").
  std::string tuningSource;
  // Overrides of the manifest's `tunables`, applied before anything is evaluated (so eligibility
  // sees them). A name the manifest lacks, or a value of another type (number / string / bool /
  // list / map), is Error(InvalidArgument). With a preferredVariant (and no forcedVariant) they
  // belong to the preference: when the preferred variant is not eligible with them, the request
  // is planned without both (static priority), so a tuned (variant, tunables) pair either runs
  // as tuned or not at all.
  std::map<std::string, expr::Value> tunables;
};

struct PlanOptions {
  bool renderShaders = true;  // render each pass's template (needs the package's .wgsl.jinja files)
};

// Stable cache key of (dtypes, shapes, absent, attrs, args, forced/preferred variant, tunables,
// device id).
std::string requestKey(const PlanRequest& request, const std::string& deviceId);

struct PlannedOutput {
  std::string name;  // arg name
  DType dtype = DType::Float32;
  Shape shape;
};

struct PlannedIntermediate {
  std::string id;
  DType dtype = DType::Float32;
  Shape shape;
  uint64_t bytes = 0;     // device bytes (storage sizes); may be 0: the runtime allocates at least 4
  bool zeroInit = false;  // cleared before the first pass that uses it
};

struct PlannedBinding {
  uint32_t binding = 0;  // @binding(i), i = position in the binding set
  std::string name;      // WGSL variable name
  package::ResourceKind kind = package::ResourceKind::Tensor;
  std::string resource;  // the arg name (Tensor) or intermediate id (Intermediate)
  package::BufferType type = package::BufferType::ReadOnlyStorage;
  std::string elementType;                                    // resolved WGSL element type (storage)
  std::optional<int64_t> length;                              // fixed array length (storage)
  std::string structName;                                     // uniform struct name
  std::vector<std::pair<std::string, expr::Value>> uniforms;  // field -> value (uniform)
  std::vector<std::string> uniformTypes;                      // field WGSL types, same order
  std::vector<uint8_t> uniformBytes;                          // packed, padded to 16 (uniform)
};

struct PlannedPass {
  std::string id, name, shader;                 // a repeated pass's id is "<group>[<i>].<pass>"
  std::array<uint64_t, 3> workgroups{0, 0, 0};  // as the manifest asks, before folding
  std::array<uint32_t, 3> dispatch{0, 0, 0};    // what to dispatch (folded into y above the limit)
  bool folded = false;
  bool skipped = false;                       // a zero count: nothing to run
  bool submitAfter = false;                   // the work recorded so far is submitted after this pass
  std::vector<package::ViewAlias> viewAlias;  // skipped at run time when each pair views the same bytes
  std::optional<std::string> subgroupCollectivesWidth;
  std::vector<std::pair<std::string, expr::Value>> profile;  // informational (bytesMoved, ...)
  std::vector<PlannedBinding> bindings;
  std::string declarations;  // generated WGSL resource declarations
  std::string wgsl;          // rendered shader (empty when not rendered)
};

struct Plan {
  std::string package;  // "ai.onnx.RMSNormalization"
  std::string dialect;  // "seeds" or "2.1": the manifest's dialect (informational)
  std::string variant;
  std::string selectedBy;  // "priority", "forced" or "tuning"
  // The tunables this plan used that differ from the manifest's (PlanRequest::tunables that were
  // applied); empty when it used the manifest's values.
  std::map<std::string, expr::Value> tunables;
  // Why a preferred variant (with its tunables) was not followed; empty when it was or none was given.
  std::string preferenceIgnored;
  // The tuning table behind selectedBy "tuning" or preferenceIgnored ("nvidia-h200 table").
  std::string tuningSource;
  std::vector<VariantVerdict> variants;
  std::vector<PlannedOutput> outputs;
  std::vector<PlannedIntermediate> intermediates;
  std::vector<PlannedPass> passes;

  const PlannedOutput* findOutput(std::string_view name) const;
  package::Json toJson(bool withWgsl = false) const;
  std::string toText(bool withWgsl = false) const;
};

// Holds a package and plans requests against it; thread-safe (plan() is const; templates are
// cached by the package).
class Planner {
 public:
  explicit Planner(std::shared_ptr<const package::Package> package);
  const package::Package& package() const { return *package_; }
  Plan plan(const PlanRequest& request, const DeviceProfile& device, const PlanOptions& options = {}) const;

 private:
  std::shared_ptr<const package::Package> package_;
};

// Every input is bound whole as storage, in its port's storage layout: Error(Contract) "input 'X' has
// N bytes, more than the device's maxStorageBufferBindingSize (M)" for one that cannot be. Planner::plan
// applies it (and the same rule to outputs) after choosing a variant, so that a request no variant
// takes says that first, as the Hub's loader does; the runtime applies it before planning a call,
// where it is the most direct answer.
void checkInputBindingLimits(const package::Manifest& m, const PlanRequest& request,
                             const DeviceProfile& device);

// WGSL declarations of one pass's bindings (exposed for tests and docs): every uniform struct
// first (padded with u32 `_padN` fields to a multiple of four; one declaration per struct name),
// then one `@group(0) @binding(i) var<...> name: type;` line per binding.
std::string resourceDeclarations(const std::vector<PlannedBinding>& bindings);
// Packs 4-byte u32/i32/f32 fields in order, zero-padded to a multiple of 16 bytes. A u32 must be
// an integer in [0, 2^32), an i32 in [-2^31, 2^31), an f32 a finite number within float range;
// otherwise Error(Contract).
std::vector<uint8_t> packUniforms(const std::vector<package::UniformField>& fields,
                                  const std::vector<expr::Value>& values, const std::string& structName);
// Folding of one dispatch: returns {x, y, z}; Error(Unsupported) when it cannot fit. Above
// maxPerDimension workgroups in x, y = ceil(x / max) and x becomes max (the spec's rowStride, for
// `workgroups` dispatches whose manifests pass min(count, max) as a uniform) or, when `balanced`
// (`threads` dispatches, whose shaders read num_workgroups.x), ceil(x / y): fewer idle workgroups.
std::array<uint32_t, 3> foldDispatch(uint64_t x, uint64_t z, uint64_t maxPerDimension, bool* folded = nullptr,
                                     bool balanced = false);

}  // namespace wgk::plan

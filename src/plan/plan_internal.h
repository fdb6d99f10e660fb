// Private pieces of the planner shared by its .cpp files.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/shape_text.h"
#include "expr/scope.h"
#include "plan/plan.h"

namespace wgk::plan::detail {

expr::Value shapeValue(const Shape& s);
// A list of non-negative integers (integral floats accepted); Error(Expression) naming `what`.
Shape valueToShape(const expr::Value& v, const std::string& what);
int64_t valueToInt(const expr::Value& v, const std::string& what);  // integral, else Error(Expression)
std::string shortRepr(const expr::Value& v);                        // repr, cut at ~80 chars

// The request frame of the scope (SPEC.md §3 and hub-spec-2.1 "Expression scope"): shapes, ranks,
// tensorDtypes and present by each port's scope names; dtypes and logicalDtypes by type variable;
// args, attrs, tunables, device, DISPATCH_FOLD_WIDTH, repeat; then the manifest's derive (in
// order). A derive entry that fails is left out of scope and recorded in deriveErrors, so only the
// variants that read it become ineligible.
struct RequestScope {
  expr::Scope scope{&expr::builtins()};
  std::map<std::string, std::string> deriveErrors;
  std::map<std::string, DType> typeVars;         // type variable -> storage dtype bound by the request
  std::map<std::string, DType> logicalTypeVars;  // type variable -> logical dtype (int64 projections)
  std::vector<PlannedOutput> outputs;
  expr::Map derived;  // the manifest derive's values (the `derive` namespace)
};

// The manifest's tunables with the request's overrides applied; Error(InvalidArgument) naming the
// tunable and the package for an unknown name or a value of another kind (number/string/bool/...).
expr::Map effectiveTunables(const package::Manifest& m, const PlanRequest& req);

// Contract checks (Error(Contract)), output derivation, scope construction.
void buildRequestScope(const package::Manifest& m, const PlanRequest& req, const DeviceProfile& device,
                       RequestScope& out);

// Evaluates `derive` entries into `scope` in order, each also into `derived` (the `derive`
// namespace, republished after each entry); the first failure throws with the entry named.
void evaluateDerive(const std::vector<package::NamedValue>& derive, expr::Scope& scope, expr::Map& derived,
                    const std::string& where);

// The dtype a manifest dtype field names: a type variable bound by the request, or a dtype name.
DType resolveDType(const std::string& name, const RequestScope& rs, const std::string& what);

// The device as expressions see it (the Hub loader's normalisation: default limits filled in,
// maxComputeWorkgroupsPerDimension at most 65535, vendor and architecture lower-case).
expr::Value deviceValue(const DeviceProfile& d);

// A limit as the Hub loader reads it: the profile's value, else the WebGPU default it fills in.
uint64_t deviceLimit(const DeviceProfile& d, const std::string& name);

// adapterInfo.subgroupMatrixConfigs as the Hub loader keeps them: entries whose component types
// are not f32, f16, u32, i32, u8 or i8 dropped, the rest sorted by "<componentType>-
// <resultComponentType>-<M>x<N>x<K>" (what `device.adapterInfo.subgroupMatrixConfigs` lists and
// `requires.subgroupMatrixConfigs` matches against).
std::vector<SubgroupMatrixConfig> hubSubgroupMatrixConfigs(const DeviceProfile& d);

// One pass of the chosen variant, planned: bindings, uniforms, dispatch and (optionally) WGSL.
// `repeat` is the repeat frame ({} outside groups); `id` the pass's (expanded) id.
PlannedPass planPass(const package::Package& pkg, const package::PassSpec& ps, const std::string& id,
                     const expr::Scope& variantScope, const expr::Map& derived, const expr::Value& repeat,
                     const RequestScope& rs, const PlanRequest& req, const DeviceProfile& device,
                     const PlanOptions& options);

// The chosen variant's passes, repeat groups expanded (at most 65,535 repeats a group and 131,072
// passes in all).
std::vector<PlannedPass> planPasses(const package::Package& pkg, const package::VariantSpec& v,
                                    const expr::Scope& variantScope, const expr::Map& derived,
                                    const RequestScope& rs, const PlanRequest& req, const DeviceProfile& device,
                                    const PlanOptions& options);

}  // namespace wgk::plan::detail

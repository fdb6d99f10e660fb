// Private pieces of the planner shared by its .cpp files.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "expr/scope.h"
#include "plan/plan.h"

namespace wgk::plan::detail {

expr::Value shapeValue(const Shape& s);
// A list of non-negative integers (integral floats accepted); Error(Expression) naming `what`.
Shape valueToShape(const expr::Value& v, const std::string& what);
int64_t valueToInt(const expr::Value& v, const std::string& what);  // integral, else Error(Expression)
std::string shortRepr(const expr::Value& v);                        // repr, cut at ~80 chars
std::string shapeText(const Shape& s);                              // "[2, 8]"

// The request frame of the scope: tensors, dtypes, present, attrs, tunables, device, then the
// manifest's derive (in order). A derive entry that fails is left out of scope and recorded in
// deriveErrors, so only the variants that read it become ineligible.
struct RequestScope {
  expr::Scope scope{&expr::builtins()};
  std::map<std::string, std::string> deriveErrors;
  std::map<std::string, DType> typeVars;  // type variable -> dtype bound by the request
  std::vector<PlannedOutput> outputs;
};

// The manifest's tunables with the request's overrides applied; Error(InvalidArgument) naming the
// tunable and the package for an unknown name or a value of another kind (number/string/bool/...).
expr::Map effectiveTunables(const package::Manifest& m, const PlanRequest& req);

// Contract checks (Error(Contract)), output derivation, scope construction.
void buildRequestScope(const package::Manifest& m, const PlanRequest& req, const DeviceProfile& device,
                       RequestScope& out);

// Evaluates `derive` entries into `scope` in order; the first failure throws with the entry named.
void evaluateDerive(const std::vector<package::NamedValue>& derive, expr::Scope& scope,
                    const std::string& where);

// The dtype a manifest dtype field names: a type variable bound by the request, or a dtype name.
DType resolveDType(const std::string& name, const RequestScope& rs, const std::string& what);

}  // namespace wgk::plan::detail

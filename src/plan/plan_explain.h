// Explanations of variant verdicts (planner.cpp): which clause failed, why, with the values read.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "plan/plan_internal.h"

namespace wgk::plan::detail {

// Derived names visible to a variant (its own derive shadows the manifest's), for explanations.
using DeriveIndex = std::map<std::string, const expr::Expression*>;

// "normalizedRows=512, tunables.SPLIT_MAX_ROWS=256": the names an expression read, with values.
std::string namesAndValues(const expr::Expression& e, const expr::Scope& scope, const RequestScope& rs);

// Evaluates a clause to exactly true/false; a non-bool or an evaluation error gives `reason` and
// nullopt. With `derives`, a false clause's reason also names the innermost failing conjunct.
std::optional<bool> evaluateClause(const package::ExprOrValue& c, const expr::Scope& scope, const RequestScope& rs,
                                   const std::string& label, std::string& reason,
                                   const DeriveIndex* derives = nullptr);

}  // namespace wgk::plan::detail

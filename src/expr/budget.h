// expr/budget.h — bounds on the work and memory that expressions and templates may spend.
//
// Limits on constructs (range length, loop iterations, output size) do not bound work: a loop of a
// million `replace()` calls on a 16 MB string builds 16 TB of text while every single result stays
// small. So every operation that builds a string or a list charges the bytes it builds to the
// budget of the thread's current evaluation, and one result is also capped on its own.
//
//   expr::WorkBudget budget(64 << 20, "RenderLimits::maxBuiltBytes");  // for one render
//   ...  // expressions evaluated meanwhile charge this budget; nested budgets share the outermost
//
// An Expression::evaluate() outside any budget opens one of kMaxBuiltBytes for itself.
#pragma once

#include <cstddef>
#include <string>

namespace wgk::expr {

// One string or list built by one operation (concatenation, join, replace, split, ...).
inline constexpr size_t kMaxResultBytes = size_t{1} << 24;
// Everything built by one evaluation (or one template render, or one plan).
inline constexpr size_t kMaxBuiltBytes = size_t{1} << 28;

class WorkBudget {
 public:
  // Opens a budget for this thread unless one is open already (then this one is inert and the
  // outer budget keeps counting, so a render and its expressions share one).
  WorkBudget(size_t bytes, std::string name);
  ~WorkBudget();
  WorkBudget(const WorkBudget&) = delete;
  WorkBudget& operator=(const WorkBudget&) = delete;

 private:
  bool active_ = false;
};

// Charges `bytes` about to be built; Error(Expression) "work limit exceeded: ..." when the open
// budget is spent. `what` names the operation ("replace", "join", "concatenation", ...).
void chargeWork(size_t bytes, const char* what);

// Checks one result of `bytes` against kMaxResultBytes and charges it.
void chargeResult(size_t bytes, const char* what);

}  // namespace wgk::expr

// Name lookup for expressions and templates: a chain of frames, innermost first. The root of every
// chain used by wgk is builtins() (dim, numel, min, ...); callers push frames on top.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "expr/value.h"

namespace wgk::expr {

class Scope {
 public:
  explicit Scope(const Scope* parent = nullptr) : parent_(parent) {}
  Scope(const Scope&) = delete;  // frames point at their parents: never copy one
  Scope& operator=(const Scope&) = delete;

  void set(std::string name, Value value);
  const Value* lookup(std::string_view name) const;  // nullptr when no frame has it
  const Scope* parent() const { return parent_; }
  // Every visible name, sorted, without duplicates; builtins last-but-listed (for error messages).
  std::vector<std::string> names() const;

 private:
  const Scope* parent_;
  Map vars_;
};

// The builtin functions of SPEC.md §4: dim, numel, outer, inner, sameShape, broadcastable, f16Ok,
// has, min, max, floor, ceil, pow2ceil, ceilDiv, onnxDtypeCode, dtypeBytes (and range, len, abs,
// int, float, str, round for templates). f16Ok reads `device.features` from the calling scope.
const Scope& builtins();

}  // namespace wgk::expr

namespace wgk::expr {
// range() refuses to build a longer list (templates iterate `for i in range(n)` lazily instead,
// bounded by RenderLimits::maxLoopIterations).
inline constexpr int64_t kMaxRangeLength = 1'000'000;
}  // namespace wgk::expr

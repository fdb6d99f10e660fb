// Expression parser + evaluator (src/expr): the first line is an expression, evaluated against a
// scope shaped like the planner's (shapes, dtypes, attrs, device); the rest is ignored.
#include "expr/expression.h"
#include "fuzz_common.h"

using namespace wgk::expr;

namespace {
const Scope& planLikeScope() {
  static Scope* s = [] {
    auto* scope = new Scope(&builtins());
    scope->set("shapes", Map{{"X", List{2, 8, 64}}, {"W", List{64}}, {"E", List{}}});
    scope->set("dtypes", Map{{"X", "float16"}, {"W", "float32"}});
    scope->set("attrs", Map{{"axis", -1}, {"epsilon", 1e-5}, {"name", "rms"}, {"flag", true}});
    scope->set("device", Map{{"features", List{"shader-f16", "subgroups"}},
                             {"limits", Map{{"maxComputeWorkgroupsPerDimension", 65535},
                                            {"maxStorageBufferBindingSize", int64_t{1} << 31}}}});
    scope->set("n", 12);
    scope->set("xs", List{1, 2.5, "s", List{3}, Map{{"k", 1}}});
    return scope;
  }();
  return *s;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view src = wgk::fuzz::text(data, size);
  if (size_t nl = src.find('\n'); nl != std::string_view::npos) src = src.substr(0, nl);
  wgk::fuzz::expectOnlyWgkErrors([&] {
    Expression e = Expression::parse(src);
    (void)e.referencedNames();
    Value v = e.evaluate(planLikeScope());
    (void)v.repr();
  });
  return 0;
}

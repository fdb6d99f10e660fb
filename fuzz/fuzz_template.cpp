// Template renderer (src/templates): the input is a template; includes resolve to a small fixed
// set (one of which includes itself) and are refused otherwise, as a package's resolver would.
#include "expr/expression.h"
#include "fuzz_common.h"
#include "templates/template.h"

using namespace wgk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static expr::Scope* scope = [] {
    auto* s = new expr::Scope(&expr::builtins());
    s->set("shapes", expr::Map{{"X", expr::List{2, 8, 64}}});
    s->set("dtype", "f16");
    s->set("wg", 64);
    s->set("names", expr::List{"a", "b", "c"});
    s->set("attrs", expr::Map{{"epsilon", 1e-5}, {"axis", -1}});
    return s;
  }();
  templates::IncludeResolver includes = [](const std::string& name) -> std::string {
    if (name == "common.wgsl") return "fn f(x: {{ dtype }}) -> {{ dtype }} { return x; }\n";
    if (name == "self.wgsl") return "{% include \"self.wgsl\" %}";
    throw Error(ErrorCode::NotFound, "no include '" + name + "'");
  };
  templates::RenderLimits limits;
  limits.maxOutputBytes = 1u << 20;  // keep each input cheap; the limit itself is under test
  limits.maxLoopIterations = 100'000;
  fuzz::expectOnlyWgkErrors([&] {
    auto t = templates::Template::parse(fuzz::text(data, size), "fuzz.wgsl.jinja");
    std::string out = t.render(*scope, includes, limits);
    (void)templates::addEnableDirectives(out);
  });
  return 0;
}

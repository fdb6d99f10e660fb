// RenderLimits: every limit gives an Error(Template) naming the limit and the template, quickly.
#include <chrono>

#include "support/time_limit.h"
#include "template_util.h"

namespace wgk::templates {
namespace {

using expr::Scope;
using testing::expectError;
using testing::render;

TEST(Limits, HugeRangeHitsTheIterationLimitQuickly) {
  auto start = std::chrono::steady_clock::now();
  expectError([] { render("{% for i in range(10 ** 12) %}{% endfor %}"); }, ErrorCode::Template,
              {"template t.wgsl.jinja: more than 1000000 loop iterations (RenderLimits::maxLoopIterations)"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, test_support::timeLimit(std::chrono::seconds(5)));
  expectError([] { render("{% for i in range(-9223372036854775807, 9223372036854775807) %}{% endfor %}"); },
              ErrorCode::Template, {"loop iterations"});
}

TEST(Limits, IterationsCountAcrossNestedLoops) {
  RenderLimits limits;
  limits.maxLoopIterations = 100;
  Scope s(&expr::builtins());
  EXPECT_EQ(
      render("{% for i in range(10) %}{% for j in range(9) %}{% endfor %}{% endfor %}", s, nullptr, limits),
      "");
  expectError(
      [&] {
        render("{% for i in range(10) %}{% for j in range(10) %}{% endfor %}{% endfor %}", s, nullptr,
               limits);
      },
      ErrorCode::Template, {"more than 100 loop iterations"});
  expectError([&] { render("{% for x in range(200) | list %}{% endfor %}", s, nullptr, limits); },
              ErrorCode::Template, {"more than 100 loop iterations"});  // materialised lists count too
}

TEST(Limits, OutputSize) {
  RenderLimits limits;
  limits.maxOutputBytes = 1000;
  Scope s(&expr::builtins());
  EXPECT_EQ(render("{% for i in range(100) %}0123456789{% endfor %}", s, nullptr, limits).size(), 1000u);
  expectError([&] { render("{% for i in range(101) %}0123456789{% endfor %}", s, nullptr, limits); },
              ErrorCode::Template,
              {"output exceeds 1000 bytes (RenderLimits::maxOutputBytes)", "t.wgsl.jinja"});
  // Doubling a string in `set`s outputs nothing, but must not exhaust memory either.
  std::string doubling = "{% set s = 'x' %}";
  for (int i = 0; i < 40; ++i) doubling += "{% set s = s ~ s %}";
  expectError([&] { render(doubling, s, nullptr, limits); }, ErrorCode::Expression,
              {"concatenation result of 33554432 bytes exceeds the limit", "in `s ~ s`", "line 1"});
}

TEST(Limits, NestingDepth) {
  RenderLimits limits;
  limits.maxNestingDepth = 3;
  Scope s(&expr::builtins());
  EXPECT_EQ(
      render("{% if 1 %}{% if 1 %}{% for i in [1] %}x{% endfor %}{% endif %}{% endif %}", s, nullptr, limits),
      "x");
  expectError(
      [&] {
        render("{% if 1 %}{% if 1 %}{% if 1 %}{% if 1 %}x{% endif %}{% endif %}{% endif %}{% endif %}", s,
               nullptr, limits);
      },
      ErrorCode::Template, {"nest deeper than 3 (RenderLimits::maxNestingDepth)"});
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "{% if 1 %}";
  for (int i = 0; i < 300; ++i) deep += "{% endif %}";
  expectError([&] { Template::parse(deep, "deep"); }, ErrorCode::Parse,
              {"blocks nest deeper than 256 levels"});
}

TEST(Limits, RecursiveIncludeStops) {
  auto files = testing::mapResolver({{"a", "{% include 'b' %}"}, {"b", "{% include 'a' %}"}});
  Scope s(&expr::builtins());
  expectError([&] { render("{% include 'a' %}", s, files); }, ErrorCode::Template,
              {"includes nest deeper than 16"});
  RenderLimits limits;
  limits.maxIncludeDepth = 100;
  limits.maxNestingDepth = 10;  // nesting counts includes as well
  expectError([&] { render("{% include 'a' %}", s, files, limits); }, ErrorCode::Template,
              {"nest deeper than 10 (RenderLimits::maxNestingDepth)"});
}

}  // namespace
}  // namespace wgk::templates

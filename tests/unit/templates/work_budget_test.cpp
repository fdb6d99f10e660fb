// Work and memory budgets of rendering, and a lexer linear in the template's size (issue 15):
// each case here hung or ran for tens of seconds before.
#include <chrono>

#include "support/time_limit.h"
#include "template_util.h"

namespace wgk::templates {
namespace {

using expr::Scope;
using testing::expectError;
using testing::render;

auto elapsed(std::chrono::steady_clock::time_point since) {
  return std::chrono::steady_clock::now() - since;
}

// {% set s %} to 16 MiB by doubling (24 concatenations).
std::string sixteenMegabytes() {
  std::string t = "{% set s = 'x' %}";
  for (int i = 0; i < 24; ++i) t += "{% set s = s ~ s %}";
  return t;
}

TEST(WorkBudget, MillionReplaceCallsOnSixteenMegabytesFailFast) {
  const auto start = std::chrono::steady_clock::now();
  expectError(
      [] {
        render(sixteenMegabytes() +
               "{% for i in range(1000000) %}{% set s = s.replace('y', 'z') %}{% endfor %}");
      },
      ErrorCode::Expression,
      {"work limit exceeded", "bytes of strings and lists in total (RenderLimits::maxBuiltBytes)",
       "t.wgsl.jinja"});
  EXPECT_LT(elapsed(start), test_support::timeLimit(std::chrono::seconds(3)));
}

TEST(WorkBudget, ReadingABigStringInALoopCountsToo) {
  // No string is built, but each read copies 16 MiB.
  expectError(
      [] { render(sixteenMegabytes() + "{% for i in range(1000000) %}{% if s %}{% endif %}{% endfor %}"); },
      ErrorCode::Expression, {"work limit exceeded: copying a string"});
}

TEST(WorkBudget, OneResultIsCappedOnItsOwn) {
  std::string s4k = "{% set s = 'x' %}";  // 4096 bytes
  for (int i = 0; i < 12; ++i) s4k += "{% set s = s ~ s %}";
  // replace() that multiplies the string, join and fill of many copies: refused before building.
  expectError([&] { render(s4k + "{{ s | replace('x', s ~ s) }}"); }, ErrorCode::Expression,
              {"replace result of 33554432 bytes exceeds the limit of 16777216 bytes"});
  expectError([&] { render(s4k + "{{ fill(s, 5000) | join(',') }}"); }, ErrorCode::Expression,
              {"join result of"});
  expectError([&] { render(s4k + "{{ fill(s, 1000000) | length }}"); }, ErrorCode::Expression,
              {"work limit exceeded: fill"});
}

TEST(WorkBudget, TheLimitIsARenderLimit) {
  RenderLimits limits;
  limits.maxBuiltBytes = 1000;
  Scope s(&expr::builtins());
  EXPECT_EQ(render("{{ 'a' ~ 'b' }}", s, nullptr, limits), "ab");
  // Each result is small; together they pass the render's limit.
  expectError(
      [&] {
        render("{% for i in range(200) %}{% set t = 'abcdefghij' ~ i %}{% endfor %}", s, nullptr, limits);
      },
      ErrorCode::Expression, {"work limit exceeded: concatenation", "more than 1000 bytes"});
}

TEST(Lexer, FortyThousandTagsSplitInLinearTime) {
  std::string t;
  for (int i = 0; i < 40000; ++i) t += "line {{ 1 }}\n";
  t += "{{ 1 +* }}";  // the error still names the right line and column
  const auto start = std::chrono::steady_clock::now();
  expectError([&] { Template::parse(t, "big"); }, ErrorCode::Parse, {"big", "line 40001"});
  std::string ok;
  for (int i = 0; i < 40000; ++i) ok += "{% if 1 %}a{% endif %}";
  ok += "\n{{ 'end' }}";
  EXPECT_EQ(render(ok), std::string(40000, 'a') + "end");                       // trim_blocks ate the newline
  EXPECT_LT(elapsed(start), test_support::timeLimit(std::chrono::seconds(2)));  // 36 s before
}

}  // namespace
}  // namespace wgk::templates

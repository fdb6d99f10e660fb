// Whitespace control, exactly: {%- -%}, {{- -}}, {#- -#}, trim_blocks, lstrip_blocks, {%+,
// the dropped final newline.
#include "template_util.h"

namespace wgk::templates {
namespace {

using testing::render;

TEST(Whitespace, TrimBlocksRemovesTheNewlineAfterABlockTag) {
  EXPECT_EQ(render("a\n{% if true %}\nb\n{% endif %}\nc"), "a\nb\nc");
  EXPECT_EQ(render("{% for i in range(2) %}\n{{ i }}\n{% endfor %}\n"), "0\n1\n");
  EXPECT_EQ(render("{% set x = 1 %}\n{{ x }}"), "1");
  EXPECT_EQ(render("{# c #}\nx"), "x");
  EXPECT_EQ(render("{{ 1 }}\n{{ 2 }}"), "1\n2");              // not after expression tags
  EXPECT_EQ(render("{% if true %}\n\nb{% endif %}"), "\nb");  // only the first newline
  EXPECT_EQ(render("a\r\n{% if true %}\r\nb{% endif %}"), "a\r\nb");
}

TEST(Whitespace, LstripBlocksRemovesIndentBeforeABlockTagOnItsOwnLine) {
  EXPECT_EQ(render("fn f() {\n    {% if true %}\n    let y = 1;\n    {% endif %}\n}"),
            "fn f() {\n    let y = 1;\n}");
  EXPECT_EQ(render("\t \t{% if true %}x{% endif %}"), "x");
  EXPECT_EQ(render("x  {% if true %}y{% endif %}  z"), "x  y  z");     // not first on its line
  EXPECT_EQ(render("  {{ 1 }}"), "  1");                               // expression tags keep indent
  EXPECT_EQ(render("  {# c #}\nx"), "x");                              // comments are lstripped too
  EXPECT_EQ(render("a\n    {%+ if true %}b{% endif %}"), "a\n    b");  // {%+ disables it
  EXPECT_EQ(render("A\n  {% if false %}\n  B\n  {% else %}\n  C\n  {% endif %}\nD"), "A\n  C\nD");
}

TEST(Whitespace, DashStripsAllAdjacentWhitespace) {
  EXPECT_EQ(render("a  \n\n  {%- if true %}b{% endif %}"), "ab");
  EXPECT_EQ(render("{% if true -%}  \n\n  b{% endif %}"), "b");
  EXPECT_EQ(render("a   {{- 1 -}}   b"), "a1b");
  EXPECT_EQ(render("a  {#- c -#}  b"), "ab");
  EXPECT_EQ(render("{%- for i in range(3) -%}\n  {{- i -}}\n{%- endfor -%}\n"), "012");
  EXPECT_EQ(render("a\n{{- ' x ' -}}\nb"), "a x b");  // strips template text, never output
  EXPECT_EQ(render("{{ 5 -}} 3"), "53");
  EXPECT_EQ(render("{{ 5 - 3 }}"), "2");  // a spaced minus is an operator, not a modifier
}

TEST(Whitespace, FinalNewlineIsDroppedOnce) {
  EXPECT_EQ(render("a\n"), "a");
  EXPECT_EQ(render("a\n\n"), "a\n");
  EXPECT_EQ(render("{{ 1 }}\n"), "1");
  EXPECT_EQ(render(""), "");
  EXPECT_EQ(render("\n"), "");
}

TEST(Whitespace, DelimitersInsideStringsDoNotCloseTags) {
  EXPECT_EQ(render("{{ '}}' ~ \"%}\" }}"), "}}%}");
  EXPECT_EQ(render("{% if '%}' == '%}' %}ok{% endif %}"), "ok");
  EXPECT_EQ(render("{ x } {x} %} }}"), "{ x } {x} %} }}");  // lone braces are text
}

}  // namespace
}  // namespace wgk::templates

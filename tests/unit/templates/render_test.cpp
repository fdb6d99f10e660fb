// Template constructs: output, if/elif/else, for (loop variables, else, unpacking, lazy range),
// set scoping, include, comments, errors with template positions.
#include "template_util.h"

#include <functional>

namespace wgk::templates {
namespace {

using expr::List;
using expr::Map;
using expr::Scope;
using testing::expectError;
using testing::render;

TEST(Render, OutputUsesStrAndHidesNone) {
  Scope s(&expr::builtins());
  s.set("scalar", "f16");
  s.set("eps", 1e-05);
  s.set("n", 4);
  s.set("flag", true);
  s.set("nothing", expr::Value());
  EXPECT_EQ(render("{{ scalar }} {{ eps }} {{ n }}u {{ flag }} [{{ nothing }}] {{ 2.0 }}", s),
            "f16 1e-05 4u true [] 2.0");
}

TEST(Render, IfElifElse) {
  const char* t = "{% if n > 2 %}big{% elif n == 2 %}two{% else %}small{% endif %}";
  for (auto [n, want] : {std::pair{1, "small"}, {2, "two"}, {3, "big"}}) {
    Scope s(&expr::builtins());
    s.set("n", n);
    EXPECT_EQ(render(t, s), want);
  }
  EXPECT_EQ(render("{% if false %}x{% endif %}"), "");
  EXPECT_EQ(render("{% if [] %}x{% elif 'a' %}y{% endif %}"), "y");
}

TEST(Render, ForLoopVariables) {
  Scope s(&expr::builtins());
  s.set("xs", List{"a", "b", "c"});
  EXPECT_EQ(render("{% for x in xs %}{{ loop.index0 }}{{ loop.index }}{{ x }}{{ loop.first }}{{ loop.last }}"
                   "{{ loop.length }}{{ loop.revindex }}{{ loop.revindex0 }} {% endfor %}",
                   s),
            "01atruefalse332 12bfalsefalse321 23cfalsetrue310 ");
  EXPECT_EQ(render("{% for x in [] %}{{ x }}{% else %}none{% endfor %}"), "none");
  EXPECT_EQ(render("{% for c in 'ab' %}{{ c }}.{% endfor %}"), "a.b.");
  s.set("m", Map{{"b", 2}, {"a", 1}});
  EXPECT_EQ(render("{% for k in m %}{{ k }}{% endfor %}", s), "ab");
  EXPECT_EQ(render("{% for k, v in m.items() %}{{ k }}={{ v }};{% endfor %}", s), "a=1;b=2;");
  EXPECT_EQ(render("{% for a, b in [[1, 2], [3, 4]] %}{{ a + b }} {% endfor %}"), "3 7 ");
  EXPECT_EQ(render("{% for i in range(3) %}{% for j in range(2) %}{{ i }}{{ j }}{{ loop.index }} {% endfor %}"
                   "{{ loop.index }}|{% endfor %}"),
            "001 012 1|101 112 2|201 212 3|");
  EXPECT_EQ(render("{% for i in range(10, 0, -4) %}{{ i }}{{ loop.last }} {% endfor %}"),
            "10false 6false 2true ");
  EXPECT_EQ(render("{% for i in range(0) %}x{% else %}empty{% endfor %}"), "empty");
  expectError([] { render("{% for a, b in [1] %}{% endfor %}"); }, ErrorCode::Template,
              {"cannot unpack 1 into 2 loop variables", "in template t.wgsl.jinja line 1"});
  expectError([] { render("{% for x in 5 %}{% endfor %}"); }, ErrorCode::Template,
              {"cannot iterate over int 5"});
  expectError([] { render("{% for i in range(1, 2, 0) %}{% endfor %}"); }, ErrorCode::Expression,
              {"step must not be zero"});
}

TEST(Render, ShadowedRangeIsNotTreatedAsBuiltin) {
  Scope s(&expr::builtins());
  s.set("range", expr::Value::function("range", [](std::span<const expr::Value>, const Scope&) {
          return expr::Value(List{"x", "y"});
        }));
  EXPECT_EQ(render("{% for i in range(100) %}{{ i }}{% endfor %}", s), "xy");
}

TEST(Render, SetScoping) {
  EXPECT_EQ(render("{% set n = 3 * 4 %}{{ n }}"), "12");
  // Jinja: a set inside a for body is local to that iteration; the outer value is untouched.
  EXPECT_EQ(render("{% set t = 0 %}{% for x in [1, 2, 3] %}{% set t = t + x %}{{ t }} {% endfor %}{{ t }}"),
            "1 2 3 0");
  EXPECT_EQ(render("{% if true %}{% set y = 5 %}{% endif %}{{ y }}"), "5");  // if makes no scope
  Scope caller(&expr::builtins());
  caller.set("k", 1);
  EXPECT_EQ(render("{% set k = 2 %}{{ k }}", caller), "2");
  EXPECT_EQ(caller.lookup("k")->asInt(), 1);  // the caller's scope is never written
}

TEST(Render, Include) {
  Scope s(&expr::builtins());
  s.set("scalar", "f32");
  auto files = testing::mapResolver({{"common.wgsl.jinja", "alias T = {{ scalar }};\n{% set local = 1 %}"},
                                     {"outer.wgsl.jinja", "[{% include 'common.wgsl.jinja' %}]"},
                                     {"self.wgsl.jinja", "{% include 'self.wgsl.jinja' %}"},
                                     {"bad.wgsl.jinja", "{{ 1 +  }}"},
                                     {"err.wgsl.jinja", "line1\n{{ missingName }}"}});
  EXPECT_EQ(render("{% include 'common.wgsl.jinja' %}fn main() {}", s, files),
            "alias T = f32;\nfn main() {}");
  EXPECT_EQ(render("{% include 'outer.wgsl.jinja' %}", s, files), "[alias T = f32;\n]");
  EXPECT_EQ(render("{% set f = 'common' %}{% include f ~ '.wgsl.jinja' %}{{ local is defined }}", s, files),
            "alias T = f32;\nfalse");
  expectError([&] { render("{% include '../x.wgsl.jinja' %}", s, files); }, ErrorCode::NotFound,
              {"outside the package", "in template t.wgsl.jinja line 1"});
  expectError([&] { render("{% include '/etc/passwd' %}", s, files); }, ErrorCode::NotFound,
              {"outside the package"});
  expectError([&] { render("{% include 'nope' %}", s, files); }, ErrorCode::NotFound, {"no file 'nope'"});
  expectError([&] { render("\n{% include 'common.wgsl.jinja' %}", s); }, ErrorCode::Template,
              {"cannot include 'common.wgsl.jinja': no include resolver", "line 2"});
  expectError([&] { render("{% include 3 %}", s, files); }, ErrorCode::Template,
              {"include needs a file name"});
  expectError([&] { render("{% include 'self.wgsl.jinja' %}", s, files); }, ErrorCode::Template,
              {"includes nest deeper than 16 (RenderLimits::maxIncludeDepth)"});
  expectError([&] { render("{% include 'bad.wgsl.jinja' %}", s, files); }, ErrorCode::Parse,
              {"cannot parse `1 +` at column 3"});
  expectError(
      [&] { render("x\n\n{% include 'err.wgsl.jinja' %}", s, files); }, ErrorCode::Expression,
      {"unknown name 'missingName'", "in template err.wgsl.jinja line 2", "in template t.wgsl.jinja line 3"});
}

TEST(Render, Comments) {
  EXPECT_EQ(render("a{# {{ not rendered }} {% if %} #}b"), "ab");
  EXPECT_EQ(render("a{#\nmulti\nline\n#}b"), "ab");
}

TEST(Render, EvaluationErrorsNameTemplateAndLine) {
  Scope s(&expr::builtins());
  s.set("shapes", Map{{"X", List{2, 3}}});
  expectError(
      [&] { render("ok\nok\n{{ dim(shapes.X, 5) }}", s); }, ErrorCode::Expression,
      {"dim(): index 5 out of range", "in `dim(shapes.X, 5)`", "in template t.wgsl.jinja line 3"});
  expectError([&] { render("{% for i in range(2) %}\n{% if i / 0 %}{% endif %}{% endfor %}", s); },
              ErrorCode::Expression, {"division by zero in `i / 0`", "line 2"});
  expectError([&] { render("{{ foo }}", s); }, ErrorCode::Expression,
              {"unknown name 'foo'", "(in scope: shapes, "});
}

// The position is also a field of the error (Error::location()), set where the engine knows it:
// the innermost statement's template, line and column, an included template's own.
TEST(Render, ErrorsCarryTheirLocationAsFields) {
  auto located = [](const std::function<void()>& fn) -> wgk::SourceLocation {
    try {
      fn();
    } catch (const Error& e) {
      if (e.location()) return *e.location();
      ADD_FAILURE() << "no location: " << e.what();
      return {};
    }
    ADD_FAILURE() << "no error";
    return {};
  };
  auto is = [](const wgk::SourceLocation& l, const std::string& file, int line, int column) {
    EXPECT_EQ(l.file, file);
    EXPECT_EQ(l.line, line);
    EXPECT_EQ(l.column, column);
  };
  is(located([] { Template::parse("a\n  {{ 1 + }}", "k.wgsl.jinja"); }), "k.wgsl.jinja", 2, 6);
  is(located([] { Template::parse("a\n{% if x %}", "k.wgsl.jinja"); }), "k.wgsl.jinja", 2, 3);
  Scope s(&expr::builtins());
  is(located([&] { render("ok\n  {{ nope }}", s); }), "t.wgsl.jinja", 2, 5);
  auto files = testing::mapResolver({{"err.wgsl.jinja", "a\n{{ missingName }}"}});
  is(located([&] { render("x\n\n{% include 'err.wgsl.jinja' %}", s, files); }), "err.wgsl.jinja", 2, 3);
}

TEST(Render, ParseErrorsNameLineAndColumn) {
  expectError([] { Template::parse("a\n  {{ 1 + }}", "k.wgsl.jinja"); }, ErrorCode::Parse,
              {"cannot parse `1 +`", "in template k.wgsl.jinja line 2 column 6"});
  expectError([] { Template::parse("a\n{% if x %}", "k.wgsl.jinja"); }, ErrorCode::Parse,
              {"cannot parse template k.wgsl.jinja at line 2 column 3: 'if' block is never closed (missing "
               "'endif')"});
  expectError([] { Template::parse("{% endif %}", "k"); }, ErrorCode::Parse,
              {"'endif' without an open block"});
  expectError([] { Template::parse("{% for x in y %}{% endif %}", "k"); }, ErrorCode::Parse,
              {"'endif' inside an open 'for' block (expected 'endfor')"});
  expectError([] { Template::parse("{% if a %}{% else %}{% else %}{% endif %}", "k"); }, ErrorCode::Parse,
              {"second 'else'"});
  expectError([] { Template::parse("{% if a %}{% else %}{% elif b %}{% endif %}", "k"); }, ErrorCode::Parse,
              {"'elif' after 'else'"});
  expectError([] { Template::parse("{% macro m() %}{% endmacro %}", "k"); }, ErrorCode::Parse,
              {"unknown statement 'macro'"});
  expectError([] { Template::parse("{% for in xs %}{% endfor %}", "k"); }, ErrorCode::Parse,
              {"expected a loop variable name"});
  expectError([] { Template::parse("{% for x xs %}{% endfor %}", "k"); }, ErrorCode::Parse,
              {"expected 'in'"});
  expectError([] { Template::parse("{% set = 3 %}", "k"); }, ErrorCode::Parse,
              {"expected `set name = expression`"});
  expectError([] { Template::parse("{% set x %}", "k"); }, ErrorCode::Parse,
              {"expected `set name = expression`"});
  expectError([] { Template::parse("{% include %}", "k"); }, ErrorCode::Parse,
              {"expected `include \"file\"`"});
  expectError([] { Template::parse("{% endif extra %}", "k"); }, ErrorCode::Parse,
              {"unexpected text after 'endif'"});
  expectError([] { Template::parse("{%  %}", "k"); }, ErrorCode::Parse, {"expected a statement keyword"});
  expectError([] { Template::parse("ab\n {{ x ", "k"); }, ErrorCode::Parse,
              {"at line 2 column 2: unterminated expression tag (missing '}}')"});
  expectError([] { Template::parse("{% if x ", "k"); }, ErrorCode::Parse, {"unterminated statement tag"});
  expectError([] { Template::parse("{# open", "k"); }, ErrorCode::Parse, {"unterminated comment"});
  expectError([] { Template::parse("{{ 'abc }}", "k"); }, ErrorCode::Parse, {"unterminated"});
  expectError([] { Template::parse("{% if $ %}{% endif %}", "k"); }, ErrorCode::Parse,
              {"unexpected character '$'", "in template k line 1 column 3"});
}

TEST(Render, ParseOnceRenderMany) {
  auto t = Template::parse("{% for i in range(n) %}{{ i * k }},{% endfor %}", "loop");
  EXPECT_EQ(t.name(), "loop");
  for (int n = 0; n < 5; ++n) {
    Scope s(&expr::builtins());
    s.set("n", n);
    s.set("k", 2);
    std::string want;
    for (int i = 0; i < n; ++i) want += std::to_string(i * 2) + ",";
    EXPECT_EQ(t.render(s), want);
  }
}

}  // namespace
}  // namespace wgk::templates

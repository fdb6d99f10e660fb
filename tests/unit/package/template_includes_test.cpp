// Include expansion as text (the Hub loader's rule), with each line's origin kept for errors.
#include <gtest/gtest.h>

#include <map>

#include "package/template_includes.h"
#include "support/expect_error.h"

using namespace wgk;
using namespace wgk::package;

namespace {
ReadTemplate files(std::map<std::string, std::string> m) {
  return [m](const std::string& f) {
    auto it = m.find(f);
    if (it == m.end()) throw Error(ErrorCode::NotFound, "no file " + f);
    return it->second;
  };
}
}  // namespace

TEST(TemplateIncludes, TagAloneOnItsLineIsReplacedLineAndAll) {
  auto r = files({{"main.wgsl.jinja", "a\n  {% include \"lib/f.wgsl\" %}\nb\n"}, {"lib/f.wgsl", "f1\nf2\n"}});
  const ExpandedTemplate e = expandIncludes("main.wgsl.jinja", r);
  EXPECT_EQ(e.text, "a\nf1\nf2\nb\n");
  ASSERT_EQ(e.lineOrigin.size(), 4u);
  EXPECT_EQ(e.lineOrigin[1], (std::pair<std::string, int>{"lib/f.wgsl", 1}));
  EXPECT_EQ(e.lineOrigin[3], (std::pair<std::string, int>{"main.wgsl.jinja", 3}));
}

TEST(TemplateIncludes, InlineTagKeepsItsSurroundings) {
  auto r = files({{"m", "x = {% include 'v' %};\n"}, {"v", "42"}});
  EXPECT_EQ(expandIncludes("m", r).text, "x = 42;\n");
}

TEST(TemplateIncludes, RelativePathsNestingAndErrors) {
  auto r = files({{"k/main", "{% include \"./part\" %}\n"}, {"k/part", "{% include \"../top\" %}\n"}, {"top", "T\n"}});
  EXPECT_EQ(expandIncludes("k/main", r).text, "T\n");
  test_support::expectError([&] { expandIncludes("a", files({{"a", "{% include \"b\" %}\n"}, {"b", "{% include \"a\" %}\n"}})); },
                            ErrorCode::Template, {"circular template include: a -> b -> a"});
  test_support::expectError([&] { expandIncludes("a", files({{"a", "{% include \"../../etc/passwd\" %}\n"}})); },
                            ErrorCode::InvalidArgument, {"escapes the package"});
}

// An error the template engine located in the expanded text moves to the file and line it came
// from, as fields and as a context line; an error without a location is left alone, whatever its
// text says.
TEST(TemplateIncludes, ErrorsNameTheSourceLine) {
  auto r = files({{"m", "one\n{% include \"p\" %}\nthree\n"}, {"p", "p1\np2\n"}});
  const ExpandedTemplate e = expandIncludes("m", r);
  try {
    withSourceLines(e, [] { throw Error(ErrorCode::Template, "bad thing").at({"m", 3, 5}); });
    ADD_FAILURE() << "no error";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("where template line 3 is p line 2"), std::string::npos)
        << err.what();
    ASSERT_TRUE(err.location());
    EXPECT_EQ(err.location()->file, "p");
    EXPECT_EQ(err.location()->line, 2);
    EXPECT_EQ(err.location()->column, 5);
  }
  try {
    withSourceLines(e, [] { throw Error(ErrorCode::Template, "bad thing at line 3"); });
  } catch (const Error& err) {
    EXPECT_EQ(std::string(err.what()), "bad thing at line 3");
    EXPECT_FALSE(err.location());
  }
  try {  // line 4 of the expansion is m's line 3, after the include
    withSourceLines(e, [] { throw Error(ErrorCode::Template, "bad").at({"m", 4, 1}); });
  } catch (const Error& err) {
    EXPECT_EQ(std::string(err.what()), "bad\n  where template line 4 is m line 3");
    EXPECT_EQ(err.location()->line, 3);
  }
  try {  // line 1 is m's own line 1: nothing to add
    withSourceLines(e, [] { throw Error(ErrorCode::Template, "bad").at({"m", 1, 2}); });
  } catch (const Error& err) {
    EXPECT_EQ(std::string(err.what()), "bad");
    EXPECT_EQ(err.location()->line, 1);
  }
}

// The one include grammar: whitespace control as the engine applies it to every tag, comments
// hold no tags, anything but a literal name is no include.
TEST(TemplateIncludes, OneGrammarForEveryReader) {
  const auto tags = findIncludeTags(
      "{%- include 'a' -%}{% include \"b\" %}{%+ include 'c' %}{# {% include 'd' %} #}"
      "{% include name %}{% include 'e' with context %}{% include '' %}{%include 'f'%}");
  ASSERT_EQ(tags.size(), 4u);
  EXPECT_EQ(tags[0].name, "a");
  EXPECT_TRUE(tags[0].trimBefore && tags[0].trimAfter);
  EXPECT_EQ(tags[1].name, "b");
  EXPECT_EQ(tags[2].name, "c");
  EXPECT_TRUE(tags[2].keepIndent);
  EXPECT_EQ(tags[3].name, "f");  // no spaces needed: Jinja's tokens
  EXPECT_TRUE(findIncludeTags("{% includes 'x' %}{% include_x 'y' %}").empty());
}

TEST(TemplateIncludes, WhitespaceControlTrimsTheIncludersText) {
  auto r = files({{"m", "a  \n  {%- include 'v' -%}  \n b\n"}, {"v", "V"}});
  EXPECT_EQ(expandIncludes("m", r).text, "aVb\n");
  auto kept = files({{"m", "a\n  {%+ include 'v' %}\nb\n"}, {"v", "V\n"}});
  EXPECT_EQ(expandIncludes("m", kept).text, "a\n  V\nb\n");
  auto commented = files({{"m", "{# {% include 'missing' %} #}x\n"}});
  EXPECT_EQ(expandIncludes("m", commented).text, "{# {% include 'missing' %} #}x\n");
}

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

TEST(TemplateIncludes, ErrorsNameTheSourceLine) {
  auto r = files({{"m", "one\n{% include \"p\" %}\nthree\n"}, {"p", "p1\np2\n"}});
  const ExpandedTemplate e = expandIncludes("m", r);
  const std::string text = test_support::expectError(
      [&] { withSourceLines(e, [] { throw Error(ErrorCode::Template, "bad thing at line 3"); }); }, ErrorCode::Template,
      {"where template line 3 is p line 2"});
  EXPECT_FALSE(text.empty());
}

// Parsing: precedence, literals, error positions, nesting limits, referencedNames.
#include "expr/parser.h"
#include "test_util.h"

namespace wgk::expr {
namespace {

using testing::eval;
using testing::expectParseError;

TEST(Parse, Literals) {
  EXPECT_EQ(eval("42").asInt(), 42);
  EXPECT_TRUE(eval("2.5").isFloat());
  EXPECT_DOUBLE_EQ(eval("1e-05").asNumber(), 1e-05);
  EXPECT_DOUBLE_EQ(eval("2E3").asNumber(), 2000.0);
  EXPECT_TRUE(eval("2E3").isFloat());
  EXPECT_EQ(eval("'a\\'b'").asString(), "a'b");
  EXPECT_EQ(eval("\"tab\\there\"").asString(), "tab\there");
  EXPECT_TRUE(eval("true").asBool());
  EXPECT_TRUE(eval("True").asBool());
  EXPECT_FALSE(eval("False").asBool());
  EXPECT_TRUE(eval("none").isNone());
  EXPECT_TRUE(eval("None").isNone());
  EXPECT_EQ(eval("[1, 'a', [2]]").repr(), "[1, 'a', [2]]");
  EXPECT_EQ(eval("[]").repr(), "[]");
  EXPECT_EQ(eval("[1, 2,]").repr(), "[1, 2]");
  EXPECT_EQ(eval("9223372036854775807").asInt(), INT64_MAX);
}

TEST(Parse, Precedence) {
  EXPECT_EQ(eval("1 + 2 * 3").asInt(), 7);
  EXPECT_EQ(eval("(1 + 2) * 3").asInt(), 9);
  EXPECT_EQ(eval("2 ** 3 ** 2").asInt(), 64);  // left-associative, like Jinja
  EXPECT_EQ(eval("-2 ** 2").asInt(), 4);       // unary binds tighter than **, like Jinja
  EXPECT_EQ(eval("10 - 4 - 3").asInt(), 3);
  EXPECT_EQ(eval("1 + 2 ~ 'a'").asString(), "3a");  // ~ shares the level of + (@huggingface/jinja)
  testing::expectEvalError("'a' ~ 1 + 2", {"cannot apply '+' to string and int"});  // ('a' ~ 1) + 2
  EXPECT_TRUE(eval("not 1 == 2").asBool());
  EXPECT_FALSE(eval("not 1 in [1]").asBool());
  EXPECT_TRUE(eval("1 not in [2]").asBool());
  EXPECT_EQ(eval("1 or 0 and 0").asInt(), 1);
  EXPECT_EQ(eval("1 if 0 else 2 if 1 else 3").asInt(), 2);
  EXPECT_EQ(eval("-3 | abs").asInt(), 3);
  EXPECT_EQ(eval("1 + -3 | abs").asInt(), 4);
  EXPECT_TRUE(eval("not x is defined").asBool());
}

TEST(Parse, ErrorsNameExpressionAndColumn) {
  expectParseError("1 +", {"cannot parse `1 +` at column 3: unexpected end of expression"});
  expectParseError("(1 + 2", {"cannot parse `(1 + 2` at column 6: expected ')'"});
  expectParseError("a b", {"at column 2: unexpected 'b'"});
  expectParseError("1 $ 2", {"at column 2: unexpected character '$'"});
  expectParseError("'abc", {"at column 0: unterminated string literal"});
  expectParseError("", {"empty expression"});
  expectParseError("   ", {"empty expression"});
  expectParseError("1e", {"malformed exponent"});
  expectParseError("12abc", {"unexpected 'a' after number"});
  expectParseError("99999999999999999999", {"does not fit in 64 bits"});
  expectParseError("1e999", {"out of range"});
  expectParseError("f(x=1)", {"keyword arguments are not supported"});
  expectParseError("a.", {"expected an attribute name"});
  expectParseError("a[]", {"at column 2: unexpected ']'"});
  expectParseError("x | ", {"expected a filter name"});
  expectParseError("x is 3", {"expected a test name"});
  expectParseError("1 and", {"unexpected end"});
  expectParseError("if", {"unexpected keyword 'if'"});
  expectParseError("a = 1", {"unexpected '='"});
  expectParseError(".5", {"a number must start with a digit"});
}

TEST(Parse, DeepNestingIsAnErrorNotACrash) {
  std::string deep(5000, '(');
  deep += "1" + std::string(5000, ')');
  expectParseError(deep, {"nesting deeper than 256 levels"});
  std::string minus(5000, '-');
  expectParseError(minus + "1", {"nesting deeper than"});
  std::string nots;
  for (int i = 0; i < 1000; ++i) nots += "not ";
  expectParseError(nots + "1", {"nesting deeper than"});
  std::string chain = "1";
  for (int i = 0; i < 3000; ++i) chain += "+1";
  expectParseError(chain, {"nests deeper than 1024 levels"});
  std::string ok(200, '(');
  ok += "1" + std::string(200, ')');
  EXPECT_EQ(eval(ok).asInt(), 1);
  std::string okChain = "1";
  for (int i = 0; i < 500; ++i) okChain += "+1";
  EXPECT_EQ(eval(okChain).asInt(), 501);
}

TEST(Parse, ReferencedNames) {
  auto names = [](std::string_view src) { return Expression::parse(src).referencedNames(); };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("attrs.axis if attrs.axis >= 0 else attrs.axis + ranks.X"), (V{"attrs.axis", "ranks.X"}));
  EXPECT_EQ(names("dim(shapes.X, -1) % 4 == 0"), (V{"shapes.X"}));
  EXPECT_EQ(names("device.features.has(\"subgroups\") and hasSubgroupId"),
            (V{"device.features", "hasSubgroupId"}));
  EXPECT_EQ(names("min(device.limits.maxComputeWorkgroupsPerDimension, normalizedRows)"),
            (V{"device.limits.maxComputeWorkgroupsPerDimension", "normalizedRows"}));
  EXPECT_EQ(names("xs[0].y + m['k']"), (V{"xs", "m"}));
  EXPECT_EQ(names("[a, b, a] | join(sep)"), (V{"a", "b", "sep"}));
  EXPECT_EQ(names("x is defined and 1"), (V{"x"}));
  EXPECT_TRUE(names("1 + 2").empty());
  EXPECT_TRUE(names("numel([1, 2])").empty());
}

TEST(Parse, ParseOnceEvaluateMany) {
  auto e = Expression::parse("dim(shapes.X, -1) * k");
  EXPECT_EQ(e.source(), "dim(shapes.X, -1) * k");
  for (int k = 0; k < 100; ++k) {
    Scope s(&builtins());
    s.set("shapes", Map{{"X", List{2, k}}});
    s.set("k", 3);
    EXPECT_EQ(e.evaluate(s).asInt(), 3 * k);
  }
}

}  // namespace
}  // namespace wgk::expr

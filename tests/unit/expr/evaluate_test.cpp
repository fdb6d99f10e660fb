// Evaluation: Jinja/Python arithmetic, comparisons, logic, access, methods, filters, tests, errors.
#include "test_util.h"

namespace wgk::expr {
namespace {

using testing::eval;
using testing::expectError;
using testing::expectEvalError;

TEST(Evaluate, IntegerArithmeticStaysInteger) {
  EXPECT_TRUE(eval("7 + 2").isInt());
  EXPECT_EQ(eval("7 * -2").asInt(), -14);
  EXPECT_TRUE(eval("7 / 7").isFloat());
  EXPECT_DOUBLE_EQ(eval("7 / 2").asNumber(), 3.5);
  EXPECT_EQ(eval("2 ** 10").asInt(), 1024);
  EXPECT_TRUE(eval("2 ** -1").isFloat());
  EXPECT_DOUBLE_EQ(eval("2 ** -1").asNumber(), 0.5);
  EXPECT_TRUE(eval("1 + 1.0").isFloat());
  EXPECT_EQ(eval("+5").asInt(), 5);
  EXPECT_EQ(eval("-(-5)").asInt(), 5);
}

TEST(Evaluate, FloorDivisionAndModuloFollowPython) {
  EXPECT_EQ(eval("7 // 2").asInt(), 3);
  EXPECT_EQ(eval("-7 // 2").asInt(), -4);
  EXPECT_EQ(eval("7 // -2").asInt(), -4);
  EXPECT_EQ(eval("-7 // -2").asInt(), 3);
  EXPECT_EQ(eval("-7 % 3").asInt(), 2);
  EXPECT_EQ(eval("7 % -3").asInt(), -2);
  EXPECT_EQ(eval("-7 % -3").asInt(), -1);
  EXPECT_EQ(eval("6 % 3").asInt(), 0);
  EXPECT_TRUE(eval("7.0 // 2").isFloat());
  EXPECT_DOUBLE_EQ(eval("7.0 // 2").asNumber(), 3.0);
  EXPECT_DOUBLE_EQ(eval("-7.5 // 2").asNumber(), -4.0);
  EXPECT_DOUBLE_EQ(eval("-7.5 % 2").asNumber(), 0.5);
  EXPECT_DOUBLE_EQ(eval("7.5 % -2").asNumber(), -0.5);
  EXPECT_EQ(eval("-9223372036854775807 - 1").asInt(), INT64_MIN);
  EXPECT_EQ(eval("(-9223372036854775807 - 1) % -1").asInt(), 0);
}

TEST(Evaluate, DivisionByZeroIsAnError) {
  expectEvalError("1 / 0", {"division by zero in `1 / 0`"});
  expectEvalError("1 // 0", {"division by zero in `1 // 0`"});
  expectEvalError("5 % 0", {"division by zero", "`5 % 0`"});
  expectEvalError("1.5 / 0.0", {"division by zero"});
  expectEvalError("1.5 // 0", {"division by zero"});
  expectEvalError("1.5 % 0", {"division by zero"});
  expectEvalError("0.0 ** -1", {"division by zero"});
}

TEST(Evaluate, IntegerOverflowIsAnError) {
  expectEvalError("9223372036854775807 + 1", {"integer overflow", "in `9223372036854775807 + 1`"});
  expectEvalError("-9223372036854775807 - 2", {"integer overflow"});
  expectEvalError("4294967296 * 4294967296", {"integer overflow"});
  expectEvalError("2 ** 63", {"integer overflow"});
  expectEvalError("10 ** 20", {"integer overflow"});
  expectEvalError("-(-9223372036854775807 - 1)", {"integer overflow"});
  expectEvalError("(-9223372036854775807 - 1) // -1", {"integer overflow"});
  EXPECT_EQ(eval("2 ** 62").asInt(), int64_t{1} << 62);
  EXPECT_EQ(eval("(-2) ** 63").asInt(), INT64_MIN);
}

TEST(Evaluate, StringsAndConcatenation) {
  EXPECT_EQ(eval("'vec4<' ~ 'f16' ~ '>'").asString(), "vec4<f16>");
  EXPECT_EQ(eval("'n' ~ 3 ~ 2.0 ~ true").asString(), "n32.0true");
  EXPECT_EQ(eval("'ab' + 'cd'").asString(), "abcd");
  EXPECT_EQ(eval("[1] + [2]").repr(), "[1, 2]");
  expectEvalError("'a' + 1", {"cannot apply '+' to string and int", "in `'a' + 1`"});
  expectEvalError("'a' * 2", {"cannot apply '*' to string and int"});
  expectEvalError("true + 1", {"cannot apply '+' to bool and int"});
  expectEvalError("-'a'", {"cannot apply unary '-' to string"});
  expectEvalError("none + 1", {"cannot apply '+' to none and int"});
}

TEST(Evaluate, Comparisons) {
  EXPECT_TRUE(eval("1 == 1.0").asBool());
  EXPECT_TRUE(eval("1 != 2").asBool());
  EXPECT_TRUE(eval("1 < 1.5").asBool());
  EXPECT_TRUE(eval("2 <= 2").asBool());
  EXPECT_FALSE(eval("2 > 2").asBool());
  EXPECT_TRUE(eval("3 >= 2.5").asBool());
  EXPECT_TRUE(eval("'abc' < 'abd'").asBool());
  EXPECT_TRUE(eval("'f16' == \"f16\"").asBool());
  EXPECT_FALSE(eval("'1' == 1").asBool());
  EXPECT_TRUE(eval("[1, 2] == [1, 2.0]").asBool());
  EXPECT_TRUE(eval("none == none").asBool());
  expectEvalError("1 < 'a'", {"cannot order int 1 and string 'a'"});
  expectEvalError("[1] < [2]", {"cannot order list"});
  expectEvalError("1 < 2 < 3", {"cannot order bool"});  // not chained: (1 < 2) < 3
}

TEST(Evaluate, Membership) {
  EXPECT_TRUE(eval("2 in [1, 2.0]").asBool());
  EXPECT_TRUE(eval("'a' in 'cat'").asBool());
  EXPECT_TRUE(eval("'ell' in 'hello'").asBool());
  EXPECT_TRUE(eval("'z' not in 'hello'").asBool());
  expectEvalError("1 in 5", {"cannot apply 'in' to int and int"});
  expectEvalError("1 in 'abc'", {"cannot apply 'in' to int and string"});
  Scope s(&builtins());
  s.set("m", Map{{"k", 1}});
  EXPECT_TRUE(testing::eval("'k' in m", s).asBool());
  EXPECT_FALSE(testing::eval("'q' in m", s).asBool());
}

TEST(Evaluate, AndOrShortCircuitAndReturnOperands) {
  EXPECT_EQ(eval("0 or 'x'").asString(), "x");
  EXPECT_EQ(eval("1 and []").repr(), "[]");
  EXPECT_EQ(eval("0 and undefinedName").asInt(), 0);
  EXPECT_EQ(eval("1 or 1 / 0").asInt(), 1);
  EXPECT_EQ(eval("none or 0 or ''").repr(), "''");
  EXPECT_TRUE(eval("not []").asBool());
  EXPECT_TRUE(eval("1 if [] else 2") == Value(2));
  EXPECT_TRUE(eval("1 if false").isNone());
  EXPECT_EQ(eval("'a' if true else 1 / 0").asString(), "a");
}

TEST(Evaluate, AttributeAndIndexAccess) {
  Scope s(&builtins());
  s.set("device", Map{{"limits", Map{{"maxBufferSize", 1024}}}, {"features", List{"shader-f16"}}});
  s.set("xs", List{10, 20, 30});
  EXPECT_EQ(testing::eval("device.limits.maxBufferSize", s).asInt(), 1024);
  EXPECT_EQ(testing::eval("device['limits']['maxBufferSize']", s).asInt(), 1024);
  EXPECT_EQ(testing::eval("xs[0] + xs[-1]", s).asInt(), 40);
  EXPECT_EQ(testing::eval("xs[1.0]", s).asInt(), 20);
  EXPECT_EQ(testing::eval("'abc'[-1]", s).asString(), "c");
  EXPECT_EQ(testing::eval("xs[1:]", s).repr(), "[20, 30]");
  EXPECT_EQ(testing::eval("xs[:-1]", s).repr(), "[10, 20]");
  EXPECT_EQ(testing::eval("xs[::-1]", s).repr(), "[30, 20, 10]");
  EXPECT_EQ(testing::eval("xs[5:9]", s).repr(), "[]");
  EXPECT_EQ(testing::eval("'hello'[1:3]", s).asString(), "el");
  expectError([&] { testing::eval("device.limits.maxFoo", s); }, ErrorCode::Expression,
              {"`device.limits` has no key 'maxFoo' (keys: maxBufferSize)", "in `device.limits.maxFoo`"});
  expectError([&] { testing::eval("device['nope']", s); }, ErrorCode::Expression,
              {"`device` has no key 'nope' (keys: features, limits)"});
  expectError([&] { testing::eval("xs[3]", s); }, ErrorCode::Expression,
              {"index 3 out of range for list of length 3"});
  expectError([&] { testing::eval("xs[-4]", s); }, ErrorCode::Expression, {"index -4 out of range"});
  expectError([&] { testing::eval("xs[0.5]", s); }, ErrorCode::Expression, {"expected an integer"});
  expectError([&] { testing::eval("xs.foo", s); }, ErrorCode::Expression,
              {"cannot read attribute 'foo' of list"});
  expectError([&] { testing::eval("device[0]", s); }, ErrorCode::Expression, {"map keys are strings"});
  expectError([&] { testing::eval("(5)[0]", s); }, ErrorCode::Expression, {"cannot index int 5"});
  expectError([&] { testing::eval("xs[::0]", s); }, ErrorCode::Expression, {"slice step cannot be zero"});
}

TEST(Evaluate, UnknownNameListsTheScope) {
  Scope outer(&builtins());
  outer.set("shapes", Map{});
  outer.set("attrs", Map{});
  Scope inner(&outer);
  inner.set("axisNorm", 1);
  try {
    testing::eval("foo + 1", inner);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Expression);
    std::string m = e.message();
    EXPECT_NE(m.find("unknown name 'foo' in `foo + 1` (in scope: attrs, axisNorm, shapes, "),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("dim"), std::string::npos) << m;  // builtins are listed after the caller's names
    EXPECT_EQ(m.find("in `foo + 1`", m.find("in `foo + 1`") + 1), std::string::npos)
        << "expression named once: " << m;
  }
}

TEST(Evaluate, MethodCalls) {
  Scope s(&builtins());
  s.set("device",
        Map{{"features", List{"shader-f16", "subgroups"}}, {"adapterInfo", Map{{"vendor", "nvidia"}}}});
  EXPECT_TRUE(testing::eval("device.features.has('subgroups')", s).asBool());
  EXPECT_FALSE(testing::eval("device.features.has('x')", s).asBool());
  EXPECT_TRUE(testing::eval("device.adapterInfo.has('vendor')", s).asBool());
  EXPECT_FALSE(testing::eval("device.adapterInfo.has('subgroupMinSize')", s).asBool());
  EXPECT_EQ(testing::eval("device.adapterInfo.get('subgroupMinSize', 0)", s).asInt(), 0);
  EXPECT_TRUE(testing::eval("device.adapterInfo.get('nope')", s).isNone());
  EXPECT_EQ(testing::eval("device.adapterInfo.items()", s).repr(), "[['vendor', 'nvidia']]");
  EXPECT_EQ(testing::eval("device.adapterInfo.keys()", s).repr(), "['vendor']");
  EXPECT_EQ(testing::eval("device.adapterInfo.values()", s).repr(), "['nvidia']");
  EXPECT_TRUE(testing::eval("'vec4<f16>'.startswith('vec4')", s).asBool());
  EXPECT_TRUE(testing::eval("'vec4<f16>'.endswith('>')", s).asBool());
  EXPECT_TRUE(testing::eval("'vec4<f16>'.has('f16')", s).asBool());
  EXPECT_EQ(testing::eval("'a,b'.split(',')", s).repr(), "['a', 'b']");
  EXPECT_EQ(testing::eval("' x '.strip().upper()", s).asString(), "X");
  EXPECT_EQ(testing::eval("'F16'.lower()", s).asString(), "f16");
  EXPECT_EQ(testing::eval("'aXa'.replace('a', 'b')", s).asString(), "bXb");
  EXPECT_EQ(testing::eval("[3, 4].index(4)", s).asInt(), 1);
  EXPECT_EQ(testing::eval("[3, 4, 4].count(4)", s).asInt(), 2);
  expectError([&] { testing::eval("device.features.frobnicate()", s); }, ErrorCode::Expression,
              {"`device.features` list has no method 'frobnicate'"});
  expectError([&] { testing::eval("(3).has(1)", s); }, ErrorCode::Expression, {"int has no method 'has'"});
  expectError([&] { testing::eval("device.features.has()", s); }, ErrorCode::Expression,
              {"has() takes 1 argument, got 0"});
  expectError([&] { testing::eval("[1].index(2)", s); }, ErrorCode::Expression, {"2 is not in the list"});
}

TEST(Evaluate, CallingANonFunctionIsAnError) {
  Scope s(&builtins());
  s.set("n", 3);
  s.set("f", Value::function("twice",
                             [](std::span<const Value> a, const Scope&) { return Value(a[0].asInt() * 2); }));
  s.set("m", Map{{"g", Value::function("g", [](std::span<const Value>, const Scope&) { return Value(7); })}});
  EXPECT_EQ(testing::eval("f(21)", s).asInt(), 42);
  EXPECT_EQ(testing::eval("m.g()", s).asInt(), 7);  // a function stored in a map is called, not a method
  expectError([&] { testing::eval("n(1)", s); }, ErrorCode::Expression, {"`n` is int 3, not a function"});
}

TEST(Evaluate, Filters) {
  Scope s(&builtins());
  s.set("xs", List{1, 2, 3});
  auto ev = [&](std::string_view src) { return testing::eval(src, s); };
  EXPECT_EQ(ev("xs | join(', ')").asString(), "1, 2, 3");
  EXPECT_EQ(ev("xs | join").asString(), "123");
  EXPECT_EQ(ev("xs | length").asInt(), 3);
  EXPECT_EQ(ev("'abcd' | length").asInt(), 4);
  EXPECT_EQ(ev("xs | count").asInt(), 3);
  EXPECT_EQ(ev("missing | default(5)").asInt(), 5);
  EXPECT_EQ(ev("xs.nope | default('d')").asString(), "d");
  EXPECT_EQ(ev("xs[7] | default(0)").asInt(), 0);
  EXPECT_EQ(ev("xs | default(0) | length").asInt(), 3);
  EXPECT_EQ(ev("'' | default('e', true)").asString(), "e");
  EXPECT_EQ(ev("'' | default('e')").asString(), "");
  EXPECT_EQ(ev("missing | d").asString(), "");
  EXPECT_EQ(ev("2.7 | int").asInt(), 2);
  EXPECT_EQ(ev("-2.7 | int").asInt(), -2);
  EXPECT_EQ(ev("'12' | int").asInt(), 12);
  EXPECT_EQ(ev("'2.5' | int").asInt(), 2);
  EXPECT_EQ(ev("true | int").asInt(), 1);
  EXPECT_TRUE(ev("3 | float").isFloat());
  EXPECT_DOUBLE_EQ(ev("'1e-05' | float").asNumber(), 1e-05);
  EXPECT_EQ(ev("3 | string ~ 'x'").asString(), "3x");
  EXPECT_EQ(ev("1.0 | string").asString(), "1.0");
  EXPECT_EQ(ev("'AbC' | lower").asString(), "abc");
  EXPECT_EQ(ev("'AbC' | upper").asString(), "ABC");
  EXPECT_EQ(ev("'a-b-c' | replace('-', '_')").asString(), "a_b_c");
  EXPECT_EQ(ev("-4 | abs").asInt(), 4);
  EXPECT_DOUBLE_EQ(ev("-4.5 | abs").asNumber(), 4.5);
  EXPECT_DOUBLE_EQ(ev("2.5 | round").asNumber(), 3.0);
  EXPECT_DOUBLE_EQ(ev("-2.5 | round").asNumber(), -3.0);
  EXPECT_DOUBLE_EQ(ev("2.567 | round(2)").asNumber(), 2.57);
  EXPECT_DOUBLE_EQ(ev("2.5 | round(0, 'floor')").asNumber(), 2.0);
  EXPECT_DOUBLE_EQ(ev("2.1 | round(0, 'ceil')").asNumber(), 3.0);
  EXPECT_EQ(ev("xs | first").asInt(), 1);
  EXPECT_EQ(ev("xs | last").asInt(), 3);
  EXPECT_EQ(ev("'  pad \\n' | trim").asString(), "pad");
  EXPECT_EQ(ev("xs | reverse").repr(), "[3, 2, 1]");
  EXPECT_EQ(ev("xs | sum").asInt(), 6);
  EXPECT_EQ(ev("xs | max").asInt(), 3);
  EXPECT_EQ(ev("xs | min").asInt(), 1);
  EXPECT_EQ(ev("'ab' | list").repr(), "['a', 'b']");
  EXPECT_EQ(ev("xs | tojson").asString(), "[1,2,3]");
  expectError([&] { ev("xs | frob"); }, ErrorCode::Expression, {"unknown filter 'frob'", "in `xs | frob`"});
  expectError([&] { ev("'x' | int"); }, ErrorCode::Expression, {"cannot convert string 'x' to an integer"});
  expectError([&] { ev("'x' | float"); }, ErrorCode::Expression, {"cannot convert string 'x' to a number"});
  expectError([&] { ev("[] | first"); }, ErrorCode::Expression, {"the list is empty"});
  expectError([&] { ev("3 | join"); }, ErrorCode::Expression, {"filter 'join' needs a list"});
  expectError([&] { ev("3 | length"); }, ErrorCode::Expression, {"needs a list, map or string"});
  expectError([&] { ev("'a' | replace('a')"); }, ErrorCode::Expression,
              {"filter replace() takes 2 arguments, got 1"});
  expectError([&] { ev("1.5 | round(0, 'up')"); }, ErrorCode::Expression,
              {"method must be common, floor or ceil"});
}

TEST(Evaluate, Tests) {
  Scope s(&builtins());
  s.set("m", Map{{"a", 1}});
  auto ev = [&](std::string_view src) { return testing::eval(src, s).asBool(); };
  EXPECT_TRUE(ev("m is defined"));
  EXPECT_TRUE(ev("m.a is defined"));
  EXPECT_FALSE(ev("m.b is defined"));
  EXPECT_TRUE(ev("m.b is not defined"));
  EXPECT_TRUE(ev("m.b.c is undefined"));
  EXPECT_TRUE(ev("nothing is undefined"));
  EXPECT_TRUE(ev("none is none"));
  EXPECT_TRUE(ev("3 is number and 3 is integer and 3.0 is float and 3.0 is not integer"));
  EXPECT_TRUE(ev("'s' is string and true is boolean and m is mapping and [1] is sequence"));
  EXPECT_TRUE(ev("4 is even and 3 is odd and 9 is divisibleby(3)"));
  EXPECT_TRUE(ev("3 is eq(3.0) and 3 is ne(4) and 3 is lt(4) and 3 is gt(2) and 3 is le(3) and 3 is ge(3)"));
  EXPECT_TRUE(ev("2 is in([1, 2])"));
  EXPECT_TRUE(ev("true is true and false is false and 1 is not true"));
  EXPECT_TRUE(ev("dim is callable"));
  expectError([&] { ev("1 is frob"); }, ErrorCode::Expression, {"unknown test 'frob'"});
  expectError([&] { ev("1 is divisibleby(0)"); }, ErrorCode::Expression, {"division by zero"});
  expectError([&] { ev("1 is divisibleby"); }, ErrorCode::Expression, {"takes 1 argument(s), got 0"});
}

TEST(Evaluate, LookupPath) {
  Scope s(&builtins());
  s.set("device", Map{{"limits", Map{{"maxBufferSize", 64}}}});
  const Value* v = lookupPath(s, "device.limits.maxBufferSize");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->asInt(), 64);
  EXPECT_NE(lookupPath(s, "device"), nullptr);
  EXPECT_EQ(lookupPath(s, "device.limits.nope"), nullptr);
  EXPECT_EQ(lookupPath(s, "device.limits.maxBufferSize.x"), nullptr);
  EXPECT_EQ(lookupPath(s, "nope.x"), nullptr);
}

TEST(Evaluate, ScopeFramesShadowAndListNames) {
  Scope root(&builtins());
  root.set("a", 1);
  root.set("b", 2);
  Scope child(&root);
  child.set("a", 10);
  EXPECT_EQ(child.lookup("a")->asInt(), 10);
  EXPECT_EQ(child.lookup("b")->asInt(), 2);
  EXPECT_EQ(child.lookup("zzz"), nullptr);
  EXPECT_EQ(child.parent(), &root);
  auto names = child.names();
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names[0], "a");
  EXPECT_EQ(names[1], "b");
  EXPECT_EQ(std::count(names.begin(), names.end(), "a"), 1);
  EXPECT_NE(std::find(names.begin(), names.end(), "pow2ceil"), names.end());
  child.set("dim", 5);  // a caller's name may shadow a builtin; it is listed once, with the caller's
  names = child.names();
  EXPECT_EQ(std::count(names.begin(), names.end(), "dim"), 1);
  EXPECT_EQ(testing::eval("dim + 1", child).asInt(), 6);
}

}  // namespace
}  // namespace wgk::expr

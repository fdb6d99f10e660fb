// Value: kinds, accessors, truthiness, repr/str, equality, JSON round trips.
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace wgk::expr {
namespace {

using testing::expectError;

TEST(Value, KindsAndNames) {
  EXPECT_EQ(Value().kindName(), "none");
  EXPECT_EQ(Value(true).kindName(), "bool");
  EXPECT_EQ(Value(3).kindName(), "int");
  EXPECT_EQ(Value(uint32_t{7}).asInt(), 7);
  EXPECT_EQ(Value(2.5).kindName(), "float");
  EXPECT_EQ(Value("x").kindName(), "string");
  EXPECT_EQ(Value(List{1, 2}).kindName(), "list");
  EXPECT_EQ(Value(Map{{"a", 1}}).kindName(), "map");
  EXPECT_EQ(builtins().lookup("dim")->kindName(), "function");
}

TEST(Value, AsIntAcceptsOnlyIntegralNumbers) {
  EXPECT_EQ(Value(4.0).asInt(), 4);
  EXPECT_EQ(Value(-2.0).asInt(), -2);
  expectError([] { Value(2.5).asInt(); }, ErrorCode::Expression, {"expected an integer", "2.5"});
  expectError([] { Value(1e300).asInt(); }, ErrorCode::Expression, {"integer"});
  expectError([] { Value(std::nan("")).asInt(); }, ErrorCode::Expression, {"nan"});
  expectError([] { Value("3").asInt(); }, ErrorCode::Expression, {"expected an integer, got string '3'"});
  expectError([] { Value(true).asInt(); }, ErrorCode::Expression, {"got bool true"});
}

TEST(Value, OtherAccessorsNameWhatWasExpected) {
  expectError([] { Value(1).asBool(); }, ErrorCode::Expression, {"expected a bool, got int 1"});
  expectError([] { Value(true).asNumber(); }, ErrorCode::Expression, {"expected a number"});
  expectError([] { Value(1).asString(); }, ErrorCode::Expression, {"expected a string"});
  expectError([] { Value(1).asList(); }, ErrorCode::Expression, {"expected a list"});
  expectError([] { Value(1).asMap(); }, ErrorCode::Expression, {"expected a map"});
  expectError([] { Value(1).asFunction(); }, ErrorCode::Expression, {"expected a function"});
  EXPECT_DOUBLE_EQ(Value(3).asNumber(), 3.0);
}

TEST(Value, Truthiness) {
  for (const Value& v : {Value(), Value(false), Value(0), Value(0.0), Value(""), Value(List{}), Value(Map{})})
    EXPECT_FALSE(v.truthy()) << v.repr();
  for (const Value& v :
       {Value(true), Value(-1), Value(0.5), Value("a"), Value(List{0}), Value(Map{{"a", 0}})})
    EXPECT_TRUE(v.truthy()) << v.repr();
}

TEST(Value, FloatReprIsPythonShortestRoundTrip) {
  EXPECT_EQ(Value(1.0).repr(), "1.0");
  EXPECT_EQ(Value(2.5).repr(), "2.5");
  EXPECT_EQ(Value(1e-05).repr(), "1e-05");
  EXPECT_EQ(Value(0.0001).repr(), "0.0001");
  EXPECT_EQ(Value(0.1 + 0.2).repr(), "0.30000000000000004");
  EXPECT_EQ(Value(1e16).repr(), "1e+16");
  EXPECT_EQ(Value(1234567890123456.0).repr(), "1234567890123456.0");
  EXPECT_EQ(Value(1.5e-7).repr(), "1.5e-07");
  EXPECT_EQ(Value(-0.0).repr(), "-0.0");
  EXPECT_EQ(Value(123456789.123).repr(), "123456789.123");
  EXPECT_EQ(Value(1e300 * 10).repr(), "1e+301");
  EXPECT_EQ(Value(std::numeric_limits<double>::infinity()).repr(), "inf");
  EXPECT_EQ(Value(-std::numeric_limits<double>::infinity()).repr(), "-inf");
  EXPECT_EQ(Value(std::nan("")).repr(), "nan");
  EXPECT_EQ(Value(0.7978845608).repr(), "0.7978845608");
}

TEST(Value, ReprAndStr) {
  EXPECT_EQ(Value("f16").repr(), "'f16'");
  EXPECT_EQ(Value("f16").str(), "f16");
  EXPECT_EQ(Value("it's").repr(), "\"it's\"");
  EXPECT_EQ(Value("a\nb").repr(), "'a\\nb'");
  EXPECT_EQ(Value(List{1, 2.0, "x", Value()}).repr(), "[1, 2.0, 'x', none]");
  EXPECT_EQ(Value(Map{{"b", true}, {"a", List{}}}).repr(), "{'a': [], 'b': true}");
  EXPECT_EQ(Value(false).str(), "false");
  EXPECT_EQ(Value(-42).str(), "-42");
}

TEST(Value, EqualityIsNumericAcrossKindsAndDeep) {
  EXPECT_TRUE(Value(1) == Value(1.0));
  EXPECT_FALSE(Value(1) == Value(1.5));
  EXPECT_FALSE(Value(int64_t{9007199254740993}) == Value(9007199254740992.0));
  EXPECT_FALSE(Value(1) == Value(true));
  EXPECT_FALSE(Value(1) == Value("1"));
  EXPECT_TRUE(Value() == Value());
  EXPECT_TRUE(Value(List{1, List{2, 3}}) == Value(List{1.0, List{2, 3.0}}));
  EXPECT_FALSE(Value(List{1, 2}) == Value(List{1, 2, 3}));
  EXPECT_TRUE(Value(Map{{"a", 1}}) == Value(Map{{"a", 1.0}}));
  EXPECT_FALSE(Value(Map{{"a", 1}}) == Value(Map{{"b", 1}}));
}

TEST(Value, JsonRoundTrip) {
  auto j = nlohmann::json::parse(
      R"({"i": 3, "f": 1.5, "s": "x", "b": true, "n": null, "l": [1, [2]], "m": {"k": 0}})");
  Value v = Value::fromJson(j);
  EXPECT_TRUE(v.find("i")->isInt());
  EXPECT_TRUE(v.find("f")->isFloat());
  EXPECT_TRUE(v.find("n")->isNone());
  EXPECT_EQ(v.find("l")->asList()[1].asList()[0].asInt(), 2);
  EXPECT_EQ(v.toJson(), j);
  EXPECT_EQ(Value::fromJson(nlohmann::json(uint64_t{5})).asInt(), 5);
  expectError([] { Value::fromJson(nlohmann::json(uint64_t{1} << 63)); }, ErrorCode::Expression,
              {"9223372036854775808 does not fit in 64 signed bits"});
  // Ordered JSON (what package files are read as) goes through the same conversion: same refusal.
  expectError([] { Value::fromJson(nlohmann::ordered_json(uint64_t{1} << 63)); }, ErrorCode::Expression,
              {"9223372036854775808 does not fit in 64 signed bits"});
  const Value ordered = Value::fromJson(nlohmann::ordered_json::parse(j.dump()));
  EXPECT_EQ(ordered.toJson(), j);
  EXPECT_EQ(Value::fromJson(nlohmann::ordered_json(int64_t{INT64_MAX})).asInt(), INT64_MAX);
  EXPECT_EQ(builtins().lookup("numel")->toJson(), "numel");
}

TEST(Value, FindOnlyOnMaps) {
  Value m(Map{{"a", 1}});
  ASSERT_NE(m.find("a"), nullptr);
  EXPECT_EQ(m.find("b"), nullptr);
  EXPECT_EQ(Value(List{1}).find("a"), nullptr);
}

}  // namespace
}  // namespace wgk::expr

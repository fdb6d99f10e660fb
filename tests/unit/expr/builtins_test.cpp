// Every builtin of SPEC.md §4, with its error paths.
#include <fmt/format.h>

#include "test_util.h"

namespace wgk::expr {
namespace {

using testing::eval;
using testing::expectEvalError;

TEST(Builtins, Dim) {
  EXPECT_EQ(eval("dim([2, 3, 4], 0)").asInt(), 2);
  EXPECT_EQ(eval("dim([2, 3, 4], -1)").asInt(), 4);
  EXPECT_EQ(eval("dim([2, 3, 4], -3)").asInt(), 2);
  EXPECT_EQ(eval("dim([2, 3, 4], 1.0)").asInt(), 3);
  expectEvalError("dim([2, 3], 2)",
                  {"dim(): index 2 out of range for shape [2, 3] (rank 2)", "in `dim([2, 3], 2)`"});
  expectEvalError("dim([2, 3], -3)", {"index -3 out of range"});
  expectEvalError("dim([], 0)", {"out of range for shape [] (rank 0)"});
  expectEvalError("dim([2], 0.5)", {"expected an integer"});
  expectEvalError("dim(5, 0)", {"dim(): expected a shape (list of integers), got int 5"});
  expectEvalError("dim(['a'], 0)", {"holds a string"});
  expectEvalError("dim([-1], 0)", {"negative dimension"});
  expectEvalError("dim([2])", {"dim() takes 2 arguments, got 1"});
}

TEST(Builtins, NumelOuterInner) {
  EXPECT_EQ(eval("numel([2, 3, 4])").asInt(), 24);
  EXPECT_EQ(eval("numel([])").asInt(), 1);
  EXPECT_EQ(eval("numel([2, 0, 4])").asInt(), 0);
  EXPECT_EQ(eval("numel([2.0, 3])").asInt(), 6);
  expectEvalError("numel([4294967296, 4294967296])",
                  {"numel(): product of [4294967296, 4294967296] overflows"});
  EXPECT_EQ(eval("outer([2, 3, 4], 2)").asInt(), 6);
  EXPECT_EQ(eval("outer([2, 3, 4], 0)").asInt(), 1);
  EXPECT_EQ(eval("outer([2, 3, 4], -1)").asInt(), 6);
  EXPECT_EQ(eval("outer([2, 3, 4], 3)").asInt(), 24);
  EXPECT_EQ(eval("inner([2, 3, 4], 0)").asInt(), 12);
  EXPECT_EQ(eval("inner([2, 3, 4], 1)").asInt(), 4);
  EXPECT_EQ(eval("inner([2, 3, 4], 2)").asInt(), 1);
  EXPECT_EQ(eval("inner([2, 3, 4], -2)").asInt(), 4);
  EXPECT_EQ(eval("inner([2, 3, 4], 3)").asInt(), 1);
  expectEvalError("outer([2, 3], 3)", {"outer(): axis 3 out of range for shape [2, 3] (rank 2)"});
  expectEvalError("inner([2, 3], -3)", {"inner(): axis -3 out of range"});
}

TEST(Builtins, SameShapeAndBroadcastable) {
  EXPECT_TRUE(eval("sameShape([2, 3], [2, 3.0])").asBool());
  EXPECT_FALSE(eval("sameShape([2, 3], [3, 2])").asBool());
  EXPECT_FALSE(eval("sameShape([2, 3], [2, 3, 1])").asBool());
  EXPECT_TRUE(eval("sameShape([], [])").asBool());
  EXPECT_TRUE(eval("broadcastable([4], [2, 3, 4])").asBool());
  EXPECT_TRUE(eval("broadcastable([1, 4], [2, 3, 4])").asBool());
  EXPECT_TRUE(eval("broadcastable([3, 1], [2, 3, 4])").asBool());
  EXPECT_TRUE(eval("broadcastable([], [2, 3])").asBool());
  EXPECT_TRUE(eval("broadcastable([2, 3], [2, 3])").asBool());
  EXPECT_FALSE(eval("broadcastable([3], [2, 3, 4])").asBool());
  EXPECT_FALSE(eval("broadcastable([2, 3, 4], [3, 4])").asBool());  // unidirectional: rank(a) <= rank(b)
  EXPECT_FALSE(eval("broadcastable([4], [1])").asBool());
  expectEvalError("sameShape([1], 'x')", {"sameShape(): expected a shape"});
}

TEST(Builtins, F16OkReadsDeviceFromTheCallersScope) {
  Scope withF16(&builtins());
  withF16.set("device", Map{{"features", List{"shader-f16"}}});
  Scope without(&builtins());
  without.set("device", Map{{"features", List{"subgroups"}}});
  for (const char* t : {"f16", "float16", "vec4<f16>"}) {
    EXPECT_TRUE(testing::eval(fmt::format("f16Ok('{}')", t), withF16).asBool()) << t;
    EXPECT_FALSE(testing::eval(fmt::format("f16Ok('{}')", t), without).asBool()) << t;
  }
  for (const char* t : {"f32", "float32", "i32", "u32"})
    EXPECT_TRUE(testing::eval(fmt::format("f16Ok('{}')", t), without).asBool());
  Scope inner(&without);  // found through parent frames too
  EXPECT_FALSE(testing::eval("f16Ok('f16')", inner).asBool());
  expectEvalError("f16Ok('f16')", {"f16Ok() needs `device` in scope"});
  EXPECT_TRUE(eval("f16Ok('f32')").asBool());  // only f16 needs the device
  Scope noFeatures(&builtins());
  noFeatures.set("device", Map{{"limits", Map{}}});
  testing::expectError([&] { testing::eval("f16Ok('f16')", noFeatures); }, ErrorCode::Expression,
                       {"`device` has no `features`"});
  Scope badFeatures(&builtins());
  badFeatures.set("device", Map{{"features", 3}});
  testing::expectError([&] { testing::eval("f16Ok('f16')", badFeatures); }, ErrorCode::Expression,
                       {"not a list"});
  expectEvalError("f16Ok(16)", {"expected a string"});
}

TEST(Builtins, Has) {
  EXPECT_TRUE(eval("has([1, 2], 2)").asBool());
  EXPECT_FALSE(eval("has([1, 2], 3)").asBool());
  EXPECT_TRUE(eval("has('abc', 'b')").asBool());
  Scope s(&builtins());
  s.set("info", Map{{"subgroupMinSize", 32}});
  EXPECT_TRUE(testing::eval("has(info, 'subgroupMinSize')", s).asBool());
  EXPECT_FALSE(testing::eval("has(info, 'subgroupMaxSize')", s).asBool());
  EXPECT_FALSE(testing::eval("has(info, 3)", s).asBool());
  expectEvalError("has(3, 1)", {"has() needs a map, list or string, got int 3"});
  expectEvalError("has([1])", {"has() takes 2 arguments, got 1"});
}

TEST(Builtins, MinMax) {
  EXPECT_EQ(eval("min(3, 1, 2)").asInt(), 1);
  EXPECT_EQ(eval("max(3, 1, 2)").asInt(), 3);
  EXPECT_TRUE(eval("min(1, 2.5)").isInt());
  EXPECT_DOUBLE_EQ(eval("max(1, 2.5)").asNumber(), 2.5);
  EXPECT_EQ(eval("min([4, 2, 9])").asInt(), 2);
  EXPECT_EQ(eval("max(['a', 'c', 'b'])").asString(), "c");
  expectEvalError("min(5)", {"min() of one argument needs a list, got int 5"});
  expectEvalError("min()", {"min() takes a list or at least 2 arguments"});
  expectEvalError("max([])", {"max() of an empty list"});
  expectEvalError("min(1, 'a')", {"cannot order"});
}

TEST(Builtins, FloorCeilRound) {
  EXPECT_TRUE(eval("floor(2.7)").isInt());
  EXPECT_EQ(eval("floor(2.7)").asInt(), 2);
  EXPECT_EQ(eval("floor(-2.5)").asInt(), -3);
  EXPECT_EQ(eval("floor(5)").asInt(), 5);
  EXPECT_EQ(eval("ceil(2.1)").asInt(), 3);
  EXPECT_EQ(eval("ceil(-2.5)").asInt(), -2);
  EXPECT_TRUE(eval("floor(256) == 256").asBool());
  expectEvalError("floor(1e300 * 1e10)", {"floor(): cannot convert inf to an integer"});
  expectEvalError("ceil('a')", {"expected a number"});
  EXPECT_EQ(eval("round(2.5)").asInt(), 2);  // Python: half to even
  EXPECT_EQ(eval("round(3.5)").asInt(), 4);
  EXPECT_EQ(eval("round(-2.5)").asInt(), -2);
  EXPECT_TRUE(eval("round(7)").isInt());
  EXPECT_DOUBLE_EQ(eval("round(2.675, 1)").asNumber(), 2.7);
}

TEST(Builtins, Pow2CeilAndCeilDiv) {
  EXPECT_EQ(eval("pow2ceil(0)").asInt(), 1);
  EXPECT_EQ(eval("pow2ceil(-5)").asInt(), 1);
  EXPECT_EQ(eval("pow2ceil(1)").asInt(), 1);
  EXPECT_EQ(eval("pow2ceil(2)").asInt(), 2);
  EXPECT_EQ(eval("pow2ceil(3)").asInt(), 4);
  EXPECT_EQ(eval("pow2ceil(2.5)").asInt(), 4);
  EXPECT_EQ(eval("pow2ceil(1024)").asInt(), 1024);
  EXPECT_EQ(eval("pow2ceil(1025)").asInt(), 2048);
  EXPECT_EQ(eval("pow2ceil(4611686018427387904)").asInt(), int64_t{1} << 62);
  expectEvalError("pow2ceil(4611686018427387905.0 * 2)", {"does not fit"});
  EXPECT_EQ(eval("ceilDiv(10, 4)").asInt(), 3);
  EXPECT_EQ(eval("ceilDiv(8, 4)").asInt(), 2);
  EXPECT_EQ(eval("ceilDiv(0, 4)").asInt(), 0);
  EXPECT_EQ(eval("ceilDiv(-10, 4)").asInt(), -2);
  EXPECT_EQ(eval("ceilDiv(10, -4)").asInt(), -2);
  EXPECT_EQ(eval("ceilDiv(12.0, 5)").asInt(), 3);
  expectEvalError("ceilDiv(1, 0)", {"ceilDiv(1, 0): division by zero"});
  expectEvalError("ceilDiv(1.5, 2)", {"expected an integer"});
}

TEST(Builtins, DtypeTables) {
  const std::pair<const char*, int> codes[] = {{"float32", 1}, {"uint8", 2},    {"int8", 3},
                                               {"int16", 5},   {"int32", 6},    {"int64", 7},
                                               {"bool", 9},    {"float16", 10}, {"uint32", 12}};
  for (auto [name, code] : codes)
    EXPECT_EQ(eval(fmt::format("onnxDtypeCode('{}')", name)).asInt(), code) << name;
  expectEvalError("onnxDtypeCode('f16')", {"onnxDtypeCode(): unknown dtype 'f16'"});
  EXPECT_EQ(eval("dtypeBytes('float16')").asInt(), 2);
  EXPECT_EQ(eval("dtypeBytes('float32')").asInt(), 4);
  EXPECT_EQ(eval("dtypeBytes('int64')").asInt(), 8);
  // Device storage bytes (the Hub's ABI): uint8, int8, int16 and bool take a 4-byte word.
  EXPECT_EQ(eval("dtypeBytes('uint8')").asInt(), 4);
  EXPECT_EQ(eval("dtypeBytes('int16')").asInt(), 4);
  EXPECT_EQ(eval("dtypeBytes('bool')").asInt(), 4);
  EXPECT_EQ(eval("dtypeBytes('vec2<u32>')").asInt(), 8);
  EXPECT_EQ(eval("dtypeBytes('f16')").asInt(), 2);
  EXPECT_EQ(eval("dtypeBytes('f32')").asInt(), 4);
  EXPECT_EQ(eval("dtypeBytes('u32')").asInt(), 4);
  EXPECT_EQ(eval("dtypeBytes('vec4<f16>')").asInt(), 8);
  EXPECT_EQ(eval("dtypeBytes('vec2<f32>')").asInt(), 8);
  expectEvalError("dtypeBytes('f64')", {"dtypeBytes(): unknown type 'f64'"});
  expectEvalError("dtypeBytes('vec9<f32>')", {"unknown type"});
}

TEST(Builtins, GeneralHelpers) {
  EXPECT_EQ(eval("range(4)").repr(), "[0, 1, 2, 3]");
  EXPECT_EQ(eval("range(2, 5)").repr(), "[2, 3, 4]");
  EXPECT_EQ(eval("range(5, 0, -2)").repr(), "[5, 3, 1]");
  EXPECT_EQ(eval("range(0)").repr(), "[]");
  EXPECT_EQ(eval("range(3, 1)").repr(), "[]");
  expectEvalError("range(1, 2, 0)", {"step must not be zero"});
  expectEvalError("range(10 ** 12)", {"would have 1000000000000 elements; the limit is 1000000"});
  expectEvalError("range(-9223372036854775807, 9223372036854775807)", {"the limit is"});
  EXPECT_EQ(eval("len([1, 2])").asInt(), 2);
  EXPECT_EQ(eval("length('abc')").asInt(), 3);
  EXPECT_EQ(eval("abs(-3)").asInt(), 3);
  EXPECT_DOUBLE_EQ(eval("abs(-3.5)").asNumber(), 3.5);
  expectEvalError("abs(-9223372036854775807 - 1)", {"integer overflow"});
  EXPECT_EQ(eval("int(3.9)").asInt(), 3);
  EXPECT_EQ(eval("int('7')").asInt(), 7);
  EXPECT_TRUE(eval("float(3)").isFloat());
  EXPECT_EQ(eval("str(1.0)").asString(), "1.0");
  EXPECT_EQ(eval("str('x')").asString(), "x");
  expectEvalError("len(3)", {"needs a list, map or string"});
}

}  // namespace
}  // namespace wgk::expr

#include <gtest/gtest.h>

#include "wgk/dtype.h"
#include "wgk/error.h"

namespace wgk {
namespace {

TEST(DType, TableMatchesTheSpec) {
  struct Row {
    DType t;
    const char* name;
    size_t bytes;
    int onnx;
    const char* wgsl;
  };
  // SPEC.md §4: onnxDtypeCode float32 1, uint8 2, int8 3, int16 5, int32 6, int64 7, bool 9,
  // float16 10, uint32 12.
  const Row rows[] = {{DType::Float32, "float32", 4, 1, "f32"}, {DType::Float16, "float16", 2, 10, "f16"},
                      {DType::Int32, "int32", 4, 6, "i32"},     {DType::Uint32, "uint32", 4, 12, "u32"},
                      {DType::Int8, "int8", 1, 3, ""},          {DType::Uint8, "uint8", 1, 2, ""},
                      {DType::Int16, "int16", 2, 5, ""},        {DType::Int64, "int64", 8, 7, ""},
                      {DType::Bool, "bool", 1, 9, ""}};
  for (const auto& r : rows) {
    EXPECT_EQ(dtypeName(r.t), r.name);
    EXPECT_EQ(dtypeBytes(r.t), r.bytes) << r.name;
    EXPECT_EQ(onnxDtypeCode(r.t), r.onnx) << r.name;
    EXPECT_EQ(wgslScalar(r.t), r.wgsl) << r.name;
    EXPECT_EQ(parseDType(r.name), r.t);
    EXPECT_EQ(dtypeFromName(r.name), r.t);
  }
}

TEST(DType, UnknownNamesAreErrorsListingTheKnownOnes) {
  EXPECT_FALSE(dtypeFromName("float64").has_value());
  EXPECT_FALSE(dtypeFromName("Float32").has_value());  // names are case-sensitive ONNX names
  EXPECT_FALSE(dtypeFromName("").has_value());
  try {
    parseDType("bfloat16");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(e.message().find("bfloat16"), std::string::npos);
    EXPECT_NE(e.message().find("float16"), std::string::npos);
    EXPECT_NE(e.message().find("uint32"), std::string::npos);
  }
}

TEST(DType, Numel) {
  EXPECT_EQ(numel({}), 1);
  EXPECT_EQ(numel({0}), 0);
  EXPECT_EQ(numel({2, 3, 4}), 24);
  EXPECT_EQ(numel({7, 0, 9}), 0);
}

// fuzz_planner's first finding (2026-12-01): dims 2^53 x 2^56 overflowed int64 (undefined
// behaviour) while planning; an element count that 64 bits cannot hold is now an error.
TEST(DType, NumelOverflowIsAnError) {
  EXPECT_THROW(numel({int64_t{1} << 53, int64_t{1} << 56}), Error);
  EXPECT_EQ(numel({int64_t{1} << 31, int64_t{1} << 31}), int64_t{1} << 62);
}

}  // namespace
}  // namespace wgk

#include "core/shape_text.h"

namespace wgk {
namespace {

TEST(ShapeText, OneWayToWriteAShape) {
  EXPECT_EQ(shapeText({2, 8}), "[2, 8]");
  EXPECT_EQ(shapeText({}), "[]");
  EXPECT_EQ(joinDims({1, 128, 3072}), "1, 128, 3072");
  EXPECT_EQ(joinDims({1, 128, 3072}, "x"), "1x128x3072");
  EXPECT_EQ(joinDims({7}, "x"), "7");
}

}  // namespace
}  // namespace wgk

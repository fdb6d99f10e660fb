// Untrusted package files (issue 15): deep JSON, duplicate keys, huge test shapes and integers
// beyond 64 bits are refused with a clear error, before anything recurses or allocates.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "package/manifest.h"
#include "package/tensor_data.h"
#include "package/test_spec.h"
#include "support/expect_error.h"
#include "support/time_limit.h"

using namespace wgk;
using namespace wgk::package;
using test_support::expectError;

namespace {

std::string deepArray(int depth) {
  return std::string(depth, '[') + "1" + std::string(depth, ']');
}

std::string writeTemp(const std::string& name, const std::string& text) {
  const auto file = std::filesystem::path(::testing::TempDir()) / name;
  std::ofstream(file) << text;
  return file.string();
}

TEST(HostileInput, DeepManifestLiteralIsAParseErrorNotAStackOverflow) {
  // 50,000 levels in 100 KB overflowed the stack in literalFromJson before.
  const std::string text =
      R"({"domain": "ai.onnx", "name": "X", "constants": {"c": )" + deepArray(50000) + "}}";
  expectError([&] { loadManifest(writeTemp("deep_manifest.json", text)); }, ErrorCode::Parse,
              {"deep_manifest.json", "JSON nested deeper than 64 levels"});
}

TEST(HostileInput, DeepTestJsonIsAParseError) {
  const std::string text = R"({"cases": [{"name": "a", "inputs": )" + deepArray(50000) + "}]}";
  expectError([&] { loadTestFile(writeTemp("deep_test.json", text)); }, ErrorCode::Parse, {"nested deeper"});
  expectError([&] { loadBenchFile(writeTemp("deep_bench.json", text)); }, ErrorCode::Parse,
              {"nested deeper"});
}

TEST(HostileInput, SchemaErrorsNeverDumpAWholeValue) {
  // A wrong-typed value 60 levels deep and 20,000 wide: the message quotes only its start.
  std::string value = std::string(60, '[');
  for (int i = 0; i < 20000; ++i) value += "0,";
  value += "0" + std::string(60, ']');
  const std::string text = R"({"cases": [{"name": )" + value + "}]}";
  const std::string what =
      expectError([&] { parseTestFile(wgk::parseOrderedJson(text, "t")); }, ErrorCode::Manifest, {});
  EXPECT_LT(what.size(), 400u) << what;
}

TEST(HostileInput, DuplicateKeysAreRefused) {
  expectError([&] { loadManifest(writeTemp("dup.json", R"({"domain": "a", "domain": "b"})")); },
              ErrorCode::Parse, {"dup.json", "duplicate key 'domain'"});
  expectError([] { wgk::parseOrderedJson(R"({"cases": [{"name": "a", "name": "b"}]})", "test.json"); },
              ErrorCode::Parse, {"test.json: duplicate key 'name'"});
}

TEST(HostileInput, HugeTestShapeIsRefusedBeforeAllocating) {
  DataSpec fill;
  fill.kind = DataSpec::Kind::Fill;
  const auto start = std::chrono::steady_clock::now();
  // 30000 x 30000 float32 would be 3.6 GB on the host before any size check; float16 of the same
  // shape, 1.8 GB, is within the limit (so the limit is in bytes of the dtype, not elements).
  expectError(
      [&] {
        materialize(fill, DType::Float32, {30000, 30000});
      },
      ErrorCode::Manifest,
      {"tensor shape [30000, 30000] of float32 holds more than 2147483648 bytes", "nothing was allocated"});
  expectError(
      [&] {
        materialize(fill, DType::Float16, {40000, 30000});
      },
      ErrorCode::Manifest, {"[40000, 30000] of float16 holds more than 2147483648 bytes"});
  // Dimensions whose product overflows 64 bits are refused the same way.
  expectError(
      [&] {
        materialize(fill, DType::Float32, {int64_t{1} << 40, int64_t{1} << 40});
      },
      ErrorCode::Manifest, {"holds more than"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, test_support::timeLimit(std::chrono::seconds(1)));
  EXPECT_EQ(materialize(fill, DType::Float32, {0, int64_t{1} << 40}).shape().size(), 2u);  // empty is fine
}

TEST(HostileInput, IntegersBeyondInt64AreRefusedNotWrapped) {
  expectError([] { literalValueFromJson(wgk::parseOrderedJson("18446744073709551614", "x")); },
              ErrorCode::Manifest, {"18446744073709551614 does not fit in 64 signed bits"});
  EXPECT_EQ(literalValueFromJson(wgk::parseOrderedJson("9223372036854775807", "x")).asInt(), INT64_MAX);
}

}  // namespace

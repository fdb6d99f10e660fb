// The shared JSON parser: depth bounded at parse time, duplicate keys refused (issue 15).
#include "core/json_read.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/expect_error.h"

namespace wgk {
namespace {

using test_support::expectError;

std::string nested(int depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonRead, AcceptsNestingUpToTheLimit) {
  EXPECT_NO_THROW(parseJson(nested(kMaxJsonDepth), "x"));
  EXPECT_NO_THROW(parseOrderedJson(nested(kMaxJsonDepth), "x"));
}

TEST(JsonRead, RefusesNestingBeyondTheLimitWithoutRecursing) {
  expectError([] { parseJson(nested(kMaxJsonDepth + 1), "manifest.json"); }, ErrorCode::Parse,
              {"manifest.json: JSON nested deeper than 64 levels"});
  // 200,000 levels in 400 KB: the old parse + walk overflowed the stack here.
  expectError([] { parseOrderedJson(nested(200000), "test.json"); }, ErrorCode::Parse, {"nested deeper"});
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  objects += "1" + std::string(100000, '}');
  expectError([&] { parseJson(objects, "x"); }, ErrorCode::Parse, {"nested deeper"});
  // Not JSON at all is still a discarded value; deep JSON is still an error.
  EXPECT_TRUE(parseJsonOrDiscarded("tanh", "x").is_discarded());
  expectError([] { parseJsonOrDiscarded(nested(100000), "--attr a"); }, ErrorCode::Parse,
              {"--attr a: JSON nested"});
}

TEST(JsonRead, RefusesDuplicateKeysAtAnyDepth) {
  expectError([] { parseJson(R"({"a": 1, "a": 2})", "m"); }, ErrorCode::Parse, {"m: duplicate key 'a'"});
  expectError([] { parseOrderedJson(R"({"x": [{"b": 1, "c": {"d": 1, "d": 1}}]})", "m"); }, ErrorCode::Parse,
              {"duplicate key 'd'"});
  // The same key in sibling objects is fine.
  EXPECT_NO_THROW(parseJson(R"([{"a": 1}, {"a": 2}, {"b": {"a": 3}}])", "m"));
}

TEST(JsonRead, MalformedTextNamesWhat) {
  expectError([] { parseJson("{\"a\": ", "lock file"); }, ErrorCode::Parse, {"lock file is not valid JSON"});
  expectError([] { readJsonFile("/nonexistent/x.json"); }, ErrorCode::Io,
              {"cannot open '/nonexistent/x.json'"});
}

TEST(JsonRead, LoadJsonFileAddsOneReadingContextToEveryError) {
  const auto dir = std::filesystem::temp_directory_path() / ("wgk_json_read_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string good = (dir / "good.json").string(), bad = (dir / "bad.json").string();
  std::ofstream(good) << R"({"n": 3})";
  std::ofstream(bad) << "{";
  EXPECT_EQ(loadJsonFile(good, [](const nlohmann::json& j) { return j.at("n").get<int>(); }), 3);
  EXPECT_EQ(loadOrderedJsonFile(good, [](const nlohmann::ordered_json& j) { return j.size(); }), 1u);
  try {
    loadJsonFile(bad, [](const nlohmann::json&) { return 0; }, "tuning file " + bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Parse);
    EXPECT_EQ(e.context(), std::vector<std::string>{"while reading tuning file " + bad});
  }
  try {  // the reader's own error gets the same context, once
    loadOrderedJsonFile(good, [](const nlohmann::ordered_json&) -> int { throw Error(ErrorCode::Manifest, "no"); });
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Manifest);
    EXPECT_EQ(e.context(), std::vector<std::string>{"while reading " + good});
  }
  expectError([&] { loadJsonFile((dir / "missing.json").string(), [](const nlohmann::json&) { return 0; }); },
              ErrorCode::Io, {"missing.json"});
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace wgk

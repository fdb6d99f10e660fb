// The shared JSON parser: depth bounded at parse time, duplicate keys refused (issue 15); key count
// and text size budgeted, parsing linear in the number of keys (issue 28).
#include "core/json_read.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

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

// A digest map like metadata.json's: n keys "dir/fNNNNNNN.wgsl.jinja" -> a 44-character digest.
// {"dir/f0000000.wgsl.jinja": "AAA...=", ...}; asArray: the same strings as [["dir/...", "AAA...="], ...],
// the same bytes to scan with no key lookups (a linear baseline).
std::string digestMap(size_t n, bool asArray = false) {
  std::string s = asArray ? "[" : "{";
  s.reserve(n * 80);
  for (size_t i = 0; i < n; ++i) {
    char name[48];
    std::snprintf(name, sizeof name,
                  asArray ? "%s[\"dir/f%07zu.wgsl.jinja\", " : "%s\"dir/f%07zu.wgsl.jinja\": ", i ? ", " : "",
                  i);
    s += name;
    s += "\"" + std::string(43, 'A') + (asArray ? "=\"]" : "=\"");
  }
  return s + (asArray ? "]" : "}");
}

// Best of `reps` wall times of fn, in seconds (the minimum is the least disturbed by other load).
double bestSeconds(int reps, const std::function<void()>& fn) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

// Issue 28: ordered_json's parser looked every key up in the object being filled, so 100,000
// digests took 22 s and 400,000 hung `wgk info`. Only ratios are asserted, never a time: each
// object's parse time is divided by the parse time of the same strings as an array (no key lookups,
// linear by construction, and with the same cache and allocator effects), at 100k and at 400k keys.
// Linear keeps that quotient about level (measured 1.1x for json, 1.5x for ordered_json on the
// loaded 2-core machine, 2.5x once with two fuzzers and another suite beside it); quadratic would
// multiply it by 4 at least (the old parser: by far more, 100,000 keys took 22 s), so the bound is 3;
// it failed once more under ctest -j2 beside another suite, hence the retries below.
TEST(JsonRead, LargeObjectsParseInLinearTime) {
  for (bool ordered : {true, false}) {
    auto seconds = [&](const std::string& text, int reps) {
      return bestSeconds(reps, [&] {
        const size_t n =
            ordered ? parseOrderedJson(text, "metadata.json").size() : parseJson(text, "m").size();
        ASSERT_GT(n, 0u);
      });
    };
    auto quotient = [&](size_t keys, int reps) {
      const std::string object = digestMap(keys), array = digestMap(keys, true);
      return seconds(object, reps) / seconds(array, reps);
    };
    quotient(100000, 1);  // warm the allocator
    // Up to three measurements, the lowest ratio kept: other suites running beside this one (ctest
    // -j2) can slow one measurement, never all three; a quadratic parser fails each of them.
    double best = 1e9, q1 = 0, q4 = 0;
    for (int attempt = 0; attempt < 3 && best >= 3.0; ++attempt) {
      q1 = quotient(100000, 3);
      q4 = quotient(400000, 3);
      best = std::min(best, q4 / q1);
    }
    EXPECT_LT(best, 3.0) << (ordered ? "ordered_json" : "json") << ": object/array time " << q1
                         << " at 100k keys, " << q4 << " at 400k keys (the last of three tries)";
  }
  // Order and content survive the fast path.
  auto j = parseOrderedJson(digestMap(3), "m");
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j.begin().key(), "dir/f0000000.wgsl.jinja");
  EXPECT_EQ(std::prev(j.end()).key(), "dir/f0000002.wgsl.jinja");
  EXPECT_EQ(j["dir/f0000001.wgsl.jinja"], std::string(43, 'A') + "=");
  expectError([] { parseOrderedJson(R"({"b": 1, "a": 2, "b": 3})", "m"); }, ErrorCode::Parse,
              {"duplicate key 'b'"});
}

TEST(JsonRead, KeysPerObjectAndTextSizeAreBudgeted) {
  // One key over the budget is refused when that key arrives (nothing more is stored).
  std::string over = "{";
  for (size_t i = 0; i <= kMaxJsonObjectKeys; ++i) over += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
  over += "}";
  ASSERT_LE(over.size(), kMaxJsonBytes);
  expectError([&] { parseOrderedJson(over, "metadata.json"); }, ErrorCode::Parse,
              {"metadata.json: an object holds more than 1048576 keys"});
  expectError([&] { parseJson(over, "m"); }, ErrorCode::Parse, {"more than 1048576 keys"});
  // The same keys spread over two objects are fine: the budget is per object.
  const size_t half = over.size() / 2;
  std::string split =
      "[" + over.substr(0, over.find(',', half)) + "},{" + over.substr(over.find(',', half) + 1) + "]";
  EXPECT_EQ(parseJson(split, "m").size(), 2u);
  // Text over 64 MiB is refused before parsing, and a file before it is read.
  const std::string big(kMaxJsonBytes + 1, ' ');
  expectError([&] { parseJson(big, "test.json"); }, ErrorCode::Parse,
              {"test.json: JSON text of 67108865 bytes exceeds the limit of 67108864 bytes"});
  const auto file =
      std::filesystem::temp_directory_path() / ("wgk_json_big_" + std::to_string(::getpid()) + ".json");
  { std::ofstream out(file); }
  std::filesystem::resize_file(file, kMaxJsonBytes + 1);  // sparse: no 64 MiB written
  expectError([&] { readOrderedJsonFile(file.string()); }, ErrorCode::Parse,
              {"exceeds the limit of 67108864 bytes"});
  std::filesystem::remove(file);
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
    loadJsonFile(
        bad, [](const nlohmann::json&) { return 0; }, "tuning file " + bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Parse);
    EXPECT_EQ(e.context(), std::vector<std::string>{"while reading tuning file " + bad});
  }
  try {  // the reader's own error gets the same context, once
    loadOrderedJsonFile(good,
                        [](const nlohmann::ordered_json&) -> int { throw Error(ErrorCode::Manifest, "no"); });
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

// Issue 28 (hardening, round two): names a manifest gives that become paths and ids are checked at
// load; every derive expression is checked at load, used or not; test.json fixtures must agree
// with their declared shape.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/json_read.h"
#include "package/manifest.h"
#include "package/test_spec.h"
#include "support/expect_error.h"

using namespace wgk;
using namespace wgk::package;
using test_support::expectError;

namespace {

Json readJson(const std::string& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return parseOrderedJson(ss.str(), file);
}

const std::string kSeedsGelu = WGK_SEEDS_DIR "/com.microsoft.FastGelu.manifest.json";
const std::string kSpec21Add =
    WGK_SOURCE_DIR "/packages/webgpu-kernels/ai.onnx.Add/build/webgpu/manifest.json";

TEST(Hardening, OpNamesAndDomainsThatAreNotIdentifiersAreLoadErrors) {
  for (const std::string& file : {kSeedsGelu, kSpec21Add}) {
    const Json good = readJson(file);
    EXPECT_NO_THROW(parseManifest(good)) << file;
    for (const char* bad : {"Fast/../../Gelu", "a/b", "-x", "..", "Gelu Fast"}) {
      Json j = good;
      j["name"] = bad;
      expectError([&] { parseManifest(j); }, ErrorCode::Manifest, {"/name", "is not an identifier"});
    }
    Json j = good;
    j["name"] = "";
    expectError([&] { parseManifest(j); }, ErrorCode::Manifest, {"/name"});
    for (const char* bad : {"../evil", "com/microsoft", "Com.x", ""}) {
      Json d = good;
      d["domain"] = bad;
      expectError([&] { parseManifest(d); }, ErrorCode::Manifest, {"/domain"});
    }
  }
}

// Issue 28: an unknown function in a derive (or constant) that no variant reads loaded fine and
// failed only if a plan ever evaluated it. Every manifest expression is checked at load.
TEST(Hardening, UnknownFunctionsInUnusedDerivesAreLoadErrors) {
  Json seeds = readJson(kSeedsGelu);
  seeds["derive"]["unusedThing"] = "frobnicate(dim(shapes.X, -1))";
  expectError([&] { parseManifest(seeds); }, ErrorCode::Manifest,
              {"/derive/unusedThing", "calls unknown function 'frobnicate'", "functions: "});
  Json constants = readJson(kSeedsGelu);
  constants["constants"]["unused"] = "1 + nope(2)";
  expectError([&] { parseManifest(constants); }, ErrorCode::Manifest, {"unknown function 'nope'"});
  Json spec21 = readJson(kSpec21Add);
  spec21["derive"] = Json::object({{"unused", "frobnicate(1)"}});
  expectError([&] { parseManifest(spec21); }, ErrorCode::Manifest,
              {"/derive/unused", "unknown function 'frobnicate'"});
  // Builtins, methods and names the scope will hold are fine without being evaluated.
  Json fine = readJson(kSpec21Add);
  fine["derive"] =
      Json::object({{"a", "ceilDiv(numel(shapes.a), 4)"}, {"b", "'x,y'.split(',')"}, {"c", "undefinedYet"}});
  EXPECT_NO_THROW(parseManifest(fine));
}

// Issue 28: fixture data is checked against its tensor's shape and dtype when test.json loads: a
// count that disagrees with the shape, and integers that cannot be stored (which used to surface
// only when the case ran).
TEST(Hardening, TestJsonDataMustFitShapeAndDtype) {
  auto testFile = [](const std::string& dtype, const Json& shape, const Json& data) {
    Json input = {{"dtype", dtype}, {"shape", shape}, {"data", data}};
    Json c = {{"name", "c"},
              {"inputs", {{"X", input}}},
              {"outputs", {{"Y", {{"dtype", "float32"}, {"shape", {2}}}}}}};
    return Json{{"cases", Json::array({c})}};
  };
  auto values = [](Json v) { return Json{{"kind", "values"}, {"values", v}}; };
  auto random = [](double lo, double hi) {
    return Json{{"kind", "random"}, {"seed", 1}, {"min", lo}, {"max", hi}};
  };
  EXPECT_NO_THROW(parseTestFile(testFile("float16", {2}, values({1.5, 65504.0}))));
  EXPECT_NO_THROW(parseTestFile(testFile("float32", {2}, values({"NaN", "-Infinity"}))));
  // Floats beyond their range are infinities on purpose (FastGelu's *_infinite_inputs cases).
  EXPECT_NO_THROW(parseTestFile(testFile("float16", {2}, values({1, 70000}))));
  EXPECT_NO_THROW(parseTestFile(testFile("float32", {1}, values({1e39}))));
  EXPECT_NO_THROW(parseTestFile(testFile("uint8", {4}, random(0, 256))));
  expectError(
      [&] {
        parseTestFile(testFile("float32", {2, 2}, values({1, 2, 3})));
      },
      ErrorCode::Manifest, {"/cases/0/inputs/X/data", "3 values for shape of 4 elements"});
  expectError(
      [&] {
        parseTestFile(testFile("int32", {2}, values({1, 2.5})));
      },
      ErrorCode::Manifest, {"/cases/0/inputs/X/data", "value 1 = 2.5 does not fit int32"});
  expectError([&] { parseTestFile(testFile("int32", {1}, values({"NaN"}))); }, ErrorCode::Manifest,
              {"value 0 = nan does not fit int32"});
  expectError(
      [&] {
        parseTestFile(testFile("uint8", {1}, Json{{"kind", "fill"}, {"value", 300}}));
      },
      ErrorCode::Manifest, {"fill value = 300 does not fit uint8"});
  expectError([&] { parseTestFile(testFile("int8", {4}, random(0, 1000))); }, ErrorCode::Manifest,
              {"random max (largest value) = 999 does not fit int8"});
  // Expected outputs too.
  Json bad = testFile("float32", {2}, values({1, 2}));
  bad["cases"][0]["outputs"]["Y"] = {{"dtype", "int32"}, {"shape", {1}}, {"data", values({3e9})}};
  expectError([&] { parseTestFile(bad); }, ErrorCode::Manifest,
              {"/cases/0/outputs/Y/data", "does not fit int32"});
}

// Issue 28: a family of 2,000 x 2,000 axis entries (a 100 KB manifest) made `wgk info` allocate
// until std::bad_alloc aborted it, and 1M expanded variants kept it busy for minutes. A package's
// variants are budgeted (kMaxVariants), counted from the family's sizes before any is built.
TEST(Hardening, FamilyExpansionIsBudgetedBeforeAllocating) {
  const std::string scale = WGK_SOURCE_DIR "/tests/data/spec21/wgk.test.Scale/build/webgpu/manifest.json";
  const Json base = readJson(scale);
  auto withAxes = [&](int n0, int n1) {
    Json m = base;
    Json& fam = m["variants"][0];
    fam.erase("cases");
    Json a = Json::array(), b = Json::array();
    for (int i = 0; i < n0; ++i) a.push_back(Json{{"$key", "a" + std::to_string(i)}, {"ka", i}, {"w", 64}});
    for (int i = 0; i < n1; ++i) b.push_back(Json{{"$key", "b" + std::to_string(i)}, {"kb", i}, {"p", i}});
    fam["axes"] = Json{{"A", a}, {"B", b}};
    fam["variants"][0]["id"] = "v_{ka}_{kb}";
    return m;
  };
  EXPECT_EQ(parseManifest(withAxes(4, 8)).variants.size(), 33u);  // 32 cells + identity
  expectError(
      [&] { parseManifest(withAxes(2000, 2000)); }, ErrorCode::Manifest,
      {"/variants/0/axes", "4000000 variants (4000000 cases x 1 templates)", "package::kMaxVariants"});
  // Just past the budget (before the fix: 4,160 variants loaded).
  expectError([&] { parseManifest(withAxes(64, 65)); }, ErrorCode::Manifest,
              {"takes the package past 4096 variants"});
  Json cases = base;
  Json& list = cases["variants"][0]["cases"];
  for (int i = 0; i < 5000; ++i) list.push_back(Json{{"k", "c" + std::to_string(i)}, {"w", 64}, {"p", 1}});
  expectError([&] { parseManifest(cases); }, ErrorCode::Manifest,
              {"/variants/0/cases", "package::kMaxVariants"});
  Json plain = base;
  for (int i = 0; i < 4096; ++i) {
    Json v = base["variants"][1];
    v["id"] = "identity" + std::to_string(i);
    plain["variants"].push_back(v);
  }
  expectError([&] { parseManifest(plain); }, ErrorCode::Manifest, {"more than 4096 variants"});
}

}  // namespace

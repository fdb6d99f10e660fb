// Issue 28 (hardening, round two): names a manifest gives that become paths and ids are checked at
// load; every derive expression is checked at load, used or not; test.json fixtures must agree
// with their declared shape.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/json_read.h"
#include "package/manifest.h"
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

}  // namespace

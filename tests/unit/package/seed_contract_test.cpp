// The embedded packages honour the seeds (the user's contract): each embedded manifest holds its
// seed unchanged, and only adds to it — new variants, the derive names, binding sets and tunables
// those variants need, and constraints on attributes the seed leaves open (RMSNormalization's
// epsilon >= 0: issue 15). A change to anything the seed says fails here.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "package/manifest.h"

using namespace wgk::package;

namespace {
const std::string kSeeds = WGK_SEEDS_DIR;
const std::string kPackages = std::string(WGK_SOURCE_DIR) + "/packages/webgpu-kernels";

// Objects of the manifest where new keys may appear; everything else must equal the seed.
const std::set<std::string> kExtensible = {"/derive", "/bindingSets", "/tunables", "/attributeConstraints"};

void expectContains(const Json& seed, const Json& embedded, const std::string& path) {
  if (path == "/variants") {
    ASSERT_TRUE(embedded.is_array()) << path;
    for (const Json& v : seed) {
      const std::string id = v.at("id").get<std::string>();
      const Json* found = nullptr;
      for (const Json& e : embedded)
        if (e.value("id", "") == id) found = &e;
      ASSERT_NE(found, nullptr) << "the seed's variant '" << id << "' is missing";
      EXPECT_EQ(*found, v) << "the seed's variant '" << id << "' was changed";
    }
    return;
  }
  if (seed.is_object() && kExtensible.count(path)) {
    ASSERT_TRUE(embedded.is_object()) << path;
    for (const auto& [k, v] : seed.items()) {
      ASSERT_TRUE(embedded.contains(k)) << path << "/" << k << " of the seed is missing";
      EXPECT_EQ(embedded.at(k), v) << path << "/" << k << " differs from the seed";
    }
    return;
  }
  if (seed.is_object() && path.empty()) {
    for (const auto& [k, v] : seed.items()) {
      ASSERT_TRUE(embedded.contains(k)) << "/" << k << " of the seed is missing";
      expectContains(v, embedded.at(k), "/" + k);
    }
    for (const auto& [k, v] : embedded.items())
      EXPECT_TRUE(seed.contains(k)) << "/" << k << " is not in the seed";
    return;
  }
  EXPECT_EQ(embedded, seed) << path << " differs from the seed";
}

class SeedContract : public ::testing::TestWithParam<std::string> {};

TEST_P(SeedContract, EmbeddedManifestExtendsTheSeedUnchanged) {
  const Json seed = wgk::readOrderedJsonFile(kSeeds + "/" + GetParam() + ".manifest.json");
  const Json embedded = wgk::readOrderedJsonFile(kPackages + "/" + GetParam() + "/build/webgpu/manifest.json");
  expectContains(seed, embedded, "");
  // The embedded manifest is still a valid manifest of the same op.
  EXPECT_EQ(parseManifest(embedded).id(), parseManifest(seed).id());
}

TEST(SeedContract, DetectsAChangedSeedVariant) {
  const Json seed = wgk::readOrderedJsonFile(kSeeds + "/com.microsoft.FastGelu.manifest.json");
  Json changed = seed;
  changed["variants"][0]["priority"] = 12345;
  EXPECT_NONFATAL_FAILURE(expectContains(seed, changed, ""), "was changed");
  Json renamedDerive = seed;
  renamedDerive["derive"]["baseOk"] = "true";
  EXPECT_NONFATAL_FAILURE(expectContains(seed, renamedDerive, ""), "differs from the seed");
  // A new constraint may be added; one the seed states may not change.
  const Json rms = wgk::readOrderedJsonFile(kSeeds + "/ai.onnx.RMSNormalization.manifest.json");
  Json added = rms;
  added["attributeConstraints"]["epsilon"] = Json::parse(R"({"min": 0})");
  expectContains(rms, added, "");
  Json changedConstraint = rms;
  changedConstraint["attributeConstraints"]["stash_type"]["values"] = Json::parse("[1]");
  EXPECT_NONFATAL_FAILURE(expectContains(rms, changedConstraint, ""), "differs from the seed");
}

INSTANTIATE_TEST_SUITE_P(Packages, SeedContract,
                         ::testing::Values("ai.onnx.RMSNormalization", "com.microsoft.FastGelu",
                                           "com.microsoft.GemmaRotaryEmbedding"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });
}  // namespace

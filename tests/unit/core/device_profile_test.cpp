#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/device_profile.h"
#include "wgk/error.h"

namespace wgk {
namespace {

const char* kLavapipe = R"({
  "adapterInfo": {"vendor": "mesa", "architecture": "", "backendType": "vulkan", "subgroupMinSize": 8,
                  "subgroupMaxSize": 8},
  "features": ["shader-f16", "subgroups", "timestamp-query"],
  "wgslLanguageFeatures": ["subgroup_id"],
  "limits": {"maxComputeWorkgroupsPerDimension": 65535, "maxStorageBufferBindingSize": 134217728,
             "maxBufferSize": 4294967296}})";

std::string errorOf(const nlohmann::json& j) {
  try {
    deviceProfileFromJson(j);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Manifest);
    return e.message();
  }
  ADD_FAILURE() << "accepted " << j.dump();
  return "";
}

TEST(DeviceProfile, ParsesAndRoundTrips) {
  const auto p = deviceProfileFromJson(nlohmann::json::parse(kLavapipe));
  EXPECT_TRUE(p.hasFeature("shader-f16"));
  EXPECT_FALSE(p.hasFeature("float32-filterable"));
  EXPECT_EQ(p.limit("maxComputeWorkgroupsPerDimension"), 65535u);
  EXPECT_EQ(p.limit("maxBufferSize"), 4294967296u);  // above 32 bits
  EXPECT_EQ(p.adapterInfoStrings.at("vendor"), "mesa");
  EXPECT_EQ(p.adapterInfoNumbers.at("subgroupMinSize"), 8);
  EXPECT_EQ(p.wgslLanguageFeatures.count("subgroup_id"), 1u);
  EXPECT_TRUE(p.numerics.empty());  // absent: no probed facts
  auto probed = nlohmann::json::parse(kLavapipe);
  probed["numerics"] = {"f16-rounding-rne"};
  EXPECT_EQ(deviceProfileFromJson(probed).numerics.count("f16-rounding-rne"), 1u);
  const auto again = deviceProfileFromJson(toJson(p));
  EXPECT_EQ(toJson(again), toJson(p));
  EXPECT_EQ(again.adapterInfoNumbers, p.adapterInfoNumbers);
  try {
    p.limit("maxFoo");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::NotFound);
    EXPECT_NE(e.message().find("maxFoo"), std::string::npos);
  }
}

TEST(DeviceProfile, ErrorsNameTheJsonPath) {
  auto j = nlohmann::json::parse(kLavapipe);
  EXPECT_NE(errorOf(nlohmann::json::array()).find("object"), std::string::npos);
  auto noLimits = j;
  noLimits.erase("limits");
  EXPECT_NE(errorOf(noLimits).find("/limits"), std::string::npos);
  auto negative = j;
  negative["limits"]["maxBufferSize"] = -1;
  EXPECT_NE(errorOf(negative).find("/limits/maxBufferSize"), std::string::npos);
  auto fractional = j;
  fractional["limits"]["maxBufferSize"] = 1.5;
  EXPECT_NE(errorOf(fractional).find("/limits/maxBufferSize"), std::string::npos);
  auto badFeature = j;
  badFeature["features"][1] = 3;
  EXPECT_NE(errorOf(badFeature).find("/features/1"), std::string::npos);
  auto badInfo = j;
  badInfo["adapterInfo"]["vendor"] = nlohmann::json::array();
  EXPECT_NE(errorOf(badInfo).find("/adapterInfo/vendor"), std::string::npos);
  auto badNumerics = j;
  badNumerics["numerics"] = "f16-rounding-rne";
  EXPECT_NE(errorOf(badNumerics).find("/numerics"), std::string::npos);
  auto unknown = j;
  unknown["limitz"] = nlohmann::json::object();
  EXPECT_NE(errorOf(unknown).find("/limitz"), std::string::npos);
}

TEST(DeviceProfile, LoadsFilesWithClearErrors) {
  const std::string path = testing::TempDir() + "wgk_profile_test.json";
  { std::ofstream(path) << kLavapipe; }
  EXPECT_EQ(DeviceProfile::load(path).limit("maxComputeWorkgroupsPerDimension"), 65535u);
  { std::ofstream(path) << "{not json"; }
  try {
    DeviceProfile::load(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Parse);
    EXPECT_NE(e.message().find(path), std::string::npos);
  }
  { std::ofstream(path) << R"({"features": []})"; }
  try {
    DeviceProfile::load(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Manifest);
    ASSERT_FALSE(e.context().empty());
    EXPECT_NE(e.context().back().find(path), std::string::npos);
  }
  std::remove(path.c_str());
  try {
    DeviceProfile::load(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Io);
  }
}

TEST(DeviceProfile, JsonTextRoundTripsThroughThePublicForm) {
  const auto p = DeviceProfile::fromJsonText(kLavapipe);
  EXPECT_EQ(p.limit("maxBufferSize"), 4294967296u);
  EXPECT_EQ(toJson(DeviceProfile::fromJsonText(p.toJsonText())), toJson(p));
  EXPECT_EQ(p.toJsonText(-1).find('\n'), std::string::npos);
  try {
    DeviceProfile::fromJsonText("{\"limits\": ");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Parse);
  }
}

}  // namespace
}  // namespace wgk

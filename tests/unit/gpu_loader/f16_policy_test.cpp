// The shader-f16 decision, tested on profiles: a real adapter cannot honestly be made to lack f16.
#include <gtest/gtest.h>

#include "gpu/f16_policy.h"
#include "wgk/error.h"

namespace {

wgk::DeviceProfile profile(std::set<std::string> features) {
  wgk::DeviceProfile p;
  p.adapterInfoStrings = {{"description", "Test GPU 9000"}, {"vendor", "nvidia"}, {"backendType", "vulkan"}};
  p.features = std::move(features);
  return p;
}

TEST(F16Policy, AcceptsAdapterWithShaderF16) {
  EXPECT_EQ(wgk::gpu::missingF16Reason(profile({"shader-f16", "subgroups"})), "");
  EXPECT_NO_THROW(wgk::gpu::requireShaderF16(profile({"shader-f16"})));
}

TEST(F16Policy, RefusesAdapterWithoutShaderF16WithSetupError) {
  try {
    wgk::gpu::requireShaderF16(profile({"subgroups", "timestamp-query"}));
    FAIL() << "expected Error(Setup)";
  } catch (const wgk::Error& e) {
    EXPECT_EQ(e.code(), wgk::ErrorCode::Setup);
    std::string m = e.what();
    EXPECT_NE(m.find("does not offer shader-f16"), std::string::npos) << m;
    EXPECT_NE(m.find("Test GPU 9000"), std::string::npos) << m;
    EXPECT_NE(m.find("vulkan_enable_f16_on_nvidia"), std::string::npos) << m;
  }
}

TEST(F16Policy, MissingAdapterInfoStillGivesAMessage) {
  wgk::DeviceProfile p;
  std::string why = wgk::gpu::missingF16Reason(p);
  EXPECT_NE(why.find("'?'"), std::string::npos) << why;
}

}  // namespace

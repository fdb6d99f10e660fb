#include <gtest/gtest.h>
#include <stdlib.h>

#include <map>
#include <string>

#include "core/environment.h"
#include "runtime/options.h"
#include "runtime/package_loader.h"
#include "support/expect_error.h"

namespace wgk {
namespace {

using test_support::expectError;

// Sets variables for one test and restores them after.
class ScopedEnv {
 public:
  explicit ScopedEnv(std::initializer_list<std::pair<const std::string, std::string>> vars) {
    for (const auto& [k, v] : vars) {
      const char* old = std::getenv(k.c_str());
      saved_[k] = old ? std::optional<std::string>(old) : std::nullopt;
      ::setenv(k.c_str(), v.c_str(), 1);
    }
  }
  ~ScopedEnv() {
    for (const auto& [k, v] : saved_) {
      if (v)
        ::setenv(k.c_str(), v->c_str(), 1);
      else
        ::unsetenv(k.c_str());
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

TEST(Environment, FlagsHaveOneSpellingRule) {
  for (const char* on : {"1", "true", "TRUE", "yes", "Yes"}) {
    ScopedEnv env({{"WGK_OFFLINE", on}, {"WGK_NO_VERIFY", on}});
    EXPECT_TRUE(readEnvironment().offline) << on;
    EXPECT_TRUE(readEnvironment().noVerify) << on;
  }
  for (const char* off : {"", "0", "no", "off", "false"}) {
    ScopedEnv env({{"WGK_OFFLINE", off}});
    EXPECT_FALSE(readEnvironment().offline) << off;
  }
}

TEST(Environment, NumbersAreCheckedAndNameTheVariable) {
  ScopedEnv env({{"WGK_GPU_TIMEOUT_MS", "1500"}, {"WGK_REFS_TTL", "0"}, {"WGK_HUB_FILE_TIMEOUT_S", "soon"}});
  const Environment e = readEnvironment();
  EXPECT_EQ(e.gpuTimeoutMs(), 1500u);
  EXPECT_EQ(e.refsTtlSec(), 0);
  expectError([&] { e.hubFileTimeoutSec(); }, ErrorCode::InvalidArgument, {"WGK_HUB_FILE_TIMEOUT_S='soon'"});
  ScopedEnv bad({{"WGK_GPU_TIMEOUT_MS", "-5"}});
  expectError([] { readEnvironment().gpuTimeoutMs(); }, ErrorCode::InvalidArgument,
              {"WGK_GPU_TIMEOUT_MS='-5'"});
}

TEST(RuntimeOptions, TheEnvironmentFillsWhatTheCallerLeftUnset) {
  ScopedEnv env({{"WGK_PACKAGES", "/env/packages"},
                 {"WGK_CACHE", "/env/cache"},
                 {"WGK_ENDPOINT", "http://env.example"},
                 {"WGK_TRUSTED_ENDPOINT", "http://trusted.example"},
                 {"WGK_TUNING", "/env/tuning.json"},
                 {"WGK_OFFLINE", "yes"},  // the runtime once took only 1 and true
                 {"WGK_NO_VERIFY", "1"},
                 {"WGK_REFS_TTL", "7"},
                 {"WGK_GPU_TIMEOUT_MS", "2500"}});
  const RuntimeOptions filled = runtime::withEnvironment(RuntimeOptions{});
  EXPECT_EQ(filled.packagesDir, "/env/packages");
  EXPECT_EQ(filled.cacheDir, "/env/cache");
  EXPECT_EQ(filled.endpoint, "http://env.example");
  EXPECT_EQ(filled.trustedEndpoint, "http://trusted.example");
  EXPECT_EQ(runtime::hubOptionsFor(filled).trustedEndpoint, "http://trusted.example");
  EXPECT_EQ(filled.tuningFile, "/env/tuning.json");
  EXPECT_TRUE(filled.offline);
  EXPECT_FALSE(filled.verifyDigests);
  EXPECT_EQ(filled.refsTtlSec, 7);
  EXPECT_EQ(filled.gpuTimeoutMs, 2500u);

  RuntimeOptions given;
  given.packagesDir = "/mine";
  given.cacheDir = "/my/cache";
  given.endpoint = "http://mine.example";
  given.trustedEndpoint = "http://mine.example";
  given.tuningFile = "/my/tuning.json";
  given.refsTtlSec = 0;
  given.gpuTimeoutMs = 10;
  const RuntimeOptions kept = runtime::withEnvironment(given);
  EXPECT_EQ(kept.packagesDir, "/mine");
  EXPECT_EQ(kept.cacheDir, "/my/cache");
  EXPECT_EQ(kept.endpoint, "http://mine.example");
  EXPECT_EQ(kept.trustedEndpoint, "http://mine.example");
  EXPECT_EQ(kept.tuningFile, "/my/tuning.json");
  EXPECT_EQ(kept.refsTtlSec, 0);
  EXPECT_EQ(kept.gpuTimeoutMs, 10u);
}

TEST(RuntimeOptions, DefaultsWithoutTheEnvironment) {
  const RuntimeOptions o = runtime::withEnvironment(RuntimeOptions{}, Environment{});
  EXPECT_FALSE(o.packagesDir.empty());  // the install prefix's or the source tree's packages/
  EXPECT_TRUE(o.cacheDir.empty());      // the hub's own default
  EXPECT_FALSE(o.offline);
  EXPECT_TRUE(o.verifyDigests);
  EXPECT_EQ(o.refsTtlSec, -1);
  EXPECT_EQ(o.gpuTimeoutMs, runtime::kDefaultGpuTimeoutMs);
}

}  // namespace
}  // namespace wgk

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

// The one precedence rule (runtime/options.h): an option the caller set > its WGK_* variable >
// wgk's default. Every variable fromEnvironment reads, first under options left unset, then
// under options the caller set.
TEST(RuntimeOptions, TheEnvironmentFillsWhatTheCallerLeftUnset) {
  ScopedEnv env({{"WGK_PACKAGES", "/env/packages"},
                 {"WGK_CACHE", "/env/cache"},
                 {"WGK_ENDPOINT", "http://env.example"},
                 {"WGK_TRUSTED_ENDPOINT", "http://trusted.example"},
                 {"WGK_TOKEN", "env-token"},
                 {"WGK_TUNING", "/env/tuning.json"},
                 {"WGK_OFFLINE", "yes"},  // the runtime once took only 1 and true
                 {"WGK_NO_VERIFY", "1"},
                 {"WGK_NO_SUBGROUP_MATRIX", "1"},
                 {"WGK_NO_PIPELINE_CACHE", "1"},
                 {"WGK_WEBGPU_LIBRARY", "/env/libwebgpu.so"},
                 {"WGK_DAWN_NODE", "/env/dawn.node"},
                 {"WGK_NAPI_STUBS", "/env/stubs.so"},
                 {"WGK_REFS_TTL", "7"},
                 {"WGK_GPU_TIMEOUT_MS", "2500"},
                 {"WGK_HUB_FILE_TIMEOUT_S", "8"},
                 {"WGK_HUB_DOWNLOAD_TIMEOUT_S", "9"}});
  const RuntimeOptions filled = RuntimeOptions::fromEnvironment();
  EXPECT_EQ(filled.packagesDir, "/env/packages");
  EXPECT_EQ(filled.cacheDir, "/env/cache");
  EXPECT_EQ(filled.endpoint, "http://env.example");
  EXPECT_EQ(filled.trustedEndpoint, "http://trusted.example");
  EXPECT_EQ(filled.token, "env-token");
  EXPECT_EQ(filled.tuningFile, "/env/tuning.json");
  EXPECT_TRUE(filled.offline);
  EXPECT_FALSE(filled.verifyDigests);
  EXPECT_FALSE(filled.device.subgroupMatrix);
  EXPECT_FALSE(filled.pipelineCache);
  EXPECT_EQ(filled.device.webgpuLibrary, "/env/libwebgpu.so");
  EXPECT_EQ(filled.device.dawnNode, "/env/dawn.node");
  EXPECT_EQ(filled.device.napiStubs, "/env/stubs.so");
  EXPECT_EQ(filled.refsTtlSec, 7);
  EXPECT_EQ(filled.gpuTimeoutMs, 2500u);
  EXPECT_EQ(filled.hubFileTimeoutSec, 8);
  EXPECT_EQ(filled.hubDownloadTimeoutSec, 9);
  // The hub receives them as resolved options (it reads no variable itself).
  const hub::HubOptions h = runtime::hubOptionsFor(filled);
  EXPECT_EQ(h.endpoint, "http://env.example");
  EXPECT_EQ(h.trustedEndpoint, "http://trusted.example");
  EXPECT_EQ(h.cacheDir, "/env/cache");
  EXPECT_EQ(h.token, "env-token");
  EXPECT_TRUE(h.offline);
  EXPECT_FALSE(h.verifyFolders);
  EXPECT_EQ(h.refsTtlSec, 7);
  EXPECT_EQ(h.http.fileDeadlineSec, 8);
  EXPECT_EQ(h.http.downloadDeadlineSec, 9);

  RuntimeOptions given;
  given.packagesDir = "/mine";
  given.cacheDir = "/my/cache";
  given.endpoint = "http://mine.example";
  given.trustedEndpoint = "http://mine.example";
  given.token = "my-token";
  given.tuningFile = "/my/tuning.json";
  given.device.webgpuLibrary = "/my/libwebgpu.so";
  given.device.dawnNode = "/my/dawn.node";
  given.device.napiStubs = "/my/stubs.so";
  given.refsTtlSec = 0;
  given.gpuTimeoutMs = 10;
  given.hubFileTimeoutSec = 1;
  given.hubDownloadTimeoutSec = 2;
  const RuntimeOptions kept = RuntimeOptions::fromEnvironment(given);
  EXPECT_EQ(kept.packagesDir, "/mine");
  EXPECT_EQ(kept.cacheDir, "/my/cache");
  EXPECT_EQ(kept.endpoint, "http://mine.example");
  EXPECT_EQ(kept.trustedEndpoint, "http://mine.example");
  EXPECT_EQ(kept.token, "my-token");
  EXPECT_EQ(kept.tuningFile, "/my/tuning.json");
  EXPECT_EQ(kept.device.webgpuLibrary, "/my/libwebgpu.so");
  EXPECT_EQ(kept.device.dawnNode, "/my/dawn.node");
  EXPECT_EQ(kept.device.napiStubs, "/my/stubs.so");
  EXPECT_EQ(kept.refsTtlSec, 0);
  EXPECT_EQ(kept.gpuTimeoutMs, 10u);
  EXPECT_EQ(kept.hubFileTimeoutSec, 1);
  EXPECT_EQ(kept.hubDownloadTimeoutSec, 2);
}

// The cache folder without WGK_CACHE: the XDG base directory rule, as the hub once applied it.
TEST(RuntimeOptions, CacheFolderFromXdgThenHome) {
  Environment env;
  env.xdgCacheHome = "/xdg";
  env.home = "/home/me";
  EXPECT_EQ(runtime::overlayEnvironment({}, env).cacheDir, "/xdg/wgk");
  env.xdgCacheHome.clear();
  EXPECT_EQ(runtime::overlayEnvironment({}, env).cacheDir, "/home/me/.cache/wgk");
  env.home.clear();
  EXPECT_TRUE(runtime::overlayEnvironment({}, env).cacheDir.empty());  // the hub's: the account's home
}

// Malformed variables are refused by name, and a token is never echoed.
TEST(RuntimeOptions, BadVariablesAreNamed) {
  {
    ScopedEnv env({{"WGK_REFS_TTL", "soon"}});
    expectError([] { RuntimeOptions::fromEnvironment(); }, ErrorCode::InvalidArgument,
                {"WGK_REFS_TTL='soon'"});
  }
  {
    ScopedEnv env({{"WGK_GPU_TIMEOUT_MS", "soon"}});
    expectError([] { RuntimeOptions::fromEnvironment(); }, ErrorCode::InvalidArgument,
                {"WGK_GPU_TIMEOUT_MS='soon'"});
  }
  ScopedEnv env({{"WGK_TOKEN", "abc\ndef"}});
  try {
    RuntimeOptions::fromEnvironment();
    ADD_FAILURE() << "a token holding LF was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("WGK_TOKEN"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("abc"), std::string::npos) << "the token is echoed: " << e.what();
  }
}

// What the library does with options nobody filled from the environment: wgk's defaults, whatever
// WGK_* variables say (a C++ program that wants them calls fromEnvironment).
TEST(RuntimeOptions, DefaultsIgnoreTheEnvironment) {
  ScopedEnv env({{"WGK_PACKAGES", "/env/packages"},
                 {"WGK_GPU_TIMEOUT_MS", "2500"},
                 {"WGK_OFFLINE", "1"},
                 {"WGK_CACHE", "/env/cache"},
                 {"WGK_REFS_TTL", "soon"}});
  const RuntimeOptions o = runtime::withDefaults(RuntimeOptions{});
  EXPECT_FALSE(o.packagesDir.empty());  // the install prefix's or the source tree's packages/
  EXPECT_NE(o.packagesDir, "/env/packages");
  EXPECT_TRUE(o.cacheDir.empty());      // the hub's own default
  EXPECT_FALSE(o.offline);
  EXPECT_TRUE(o.verifyDigests);
  EXPECT_EQ(o.refsTtlSec, -1);
  EXPECT_EQ(o.gpuTimeoutMs, runtime::kDefaultGpuTimeoutMs);
  const hub::HubOptions h = hub::effectiveOptions(runtime::hubOptionsFor(o));
  EXPECT_FALSE(h.offline);
  EXPECT_NE(h.cacheDir, "/env/cache");
  EXPECT_EQ(h.refsTtlSec, hub::kDefaultRefsTtlSec);
}

}  // namespace
}  // namespace wgk

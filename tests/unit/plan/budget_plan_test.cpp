// Issue 28: whole-call budgets (package/budgets.h) and the device limits `run` meets, applied by
// the planner so that `wgk plan` and `wgk run` agree. Built on the spec 2.1 test package
// wgk.test.Scale, whose repeat group renders one shader per repetition (weight = repeat.i + 1).
#include <chrono>
#include <fstream>
#include <sstream>

#include "core/json_read.h"
#include "package/budgets.h"
#include "plan_test_util.h"

using namespace wgk;
using namespace wgk::plan;
using namespace wgk::plan::test;

namespace {

const std::string kScaleDir = WGK_SOURCE_DIR "/tests/data/spec21/wgk.test.Scale/build/webgpu";

package::Json scaleJson() {
  return parseOrderedJson(readFile(kScaleDir + "/manifest.json"), "Scale manifest");
}

// The repeat group of Scale's first family template.
package::Json& repeatGroup(package::Json& m) {
  return m["variants"][0]["variants"][0]["passes"][1];
}

Plan planScale(const package::Json& m, int64_t n, const std::string& profileName = "lavapipe") {
  Planner planner(package::Package::fromManifest(package::parseManifest(m), kScaleDir));
  PlanRequest r = request({{"x", f32({n})}, {"acc", f32({n})}});
  r.args["scale"] = expr::Value(2.0);
  return planner.plan(r, profile(profileName));
}

}  // namespace

// A repeat group of 65,535 passes (the spec's largest count) planned every pass and `wgk run`
// then crashed the Vulkan driver creating their bind groups. Refused before planning the first.
TEST(PlanBudgets, PassesPerCallAreBudgetedBeforePlanning) {
  package::Json m = scaleJson();
  repeatGroup(m)["repeat"]["count"] = 65535;
  repeatGroup(m)["passes"][0]["derive"]["weight"] = "1";  // one shader for every repetition
  const auto start = std::chrono::steady_clock::now();
  expectError(ErrorCode::Contract, [&] { planScale(m, 64); },
              {"more than 8192 passes", "package::kMaxPassesPerCall",
               "repeat group acc repeats 1 passes 65535 times"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  // Just inside the budget: the scale and out passes plus 8,190 repetitions.
  repeatGroup(m)["repeat"]["count"] = package::kMaxPassesPerCall - 2;
  Plan p = planScale(m, 64);
  EXPECT_EQ(p.passes.size(), package::kMaxPassesPerCall);
  repeatGroup(m)["repeat"]["count"] = package::kMaxPassesPerCall - 1;
  expectError(ErrorCode::Contract, [&] { planScale(m, 64); }, {"package::kMaxPassesPerCall"});
}

// 65,535 repeated passes with different shaders grew memory by about 110 MB/s in `wgk run` (a
// pipeline each). Distinct shaders per call are budgeted; one shader repeated is not limited by it.
TEST(PlanBudgets, DistinctShadersPerCallAreBudgeted) {
  package::Json m = scaleJson();
  repeatGroup(m)["repeat"]["count"] = package::kMaxPipelinesPerCall;  // + scale and out: 1,026 shaders
  expectError(ErrorCode::Contract, [&] { planScale(m, 64); },
              {"more than 1024 distinct shaders", "package::kMaxPipelinesPerCall"});
  repeatGroup(m)["repeat"]["count"] = package::kMaxPipelinesPerCall - 2;
  EXPECT_EQ(planScale(m, 64).passes.size(), package::kMaxPipelinesPerCall);
}

// `plan` accepted intermediates of 4 TiB, 8 GiB and just over the binding limit, and an 80 KB
// uniform struct, each of which `run` then refused. On lavapipe: maxBufferSize 2 GiB,
// maxStorageBufferBindingSize 128 MiB, maxUniformBufferBindingSize 64 KiB.
TEST(PlanDeviceLimits, IntermediatesAndUniformsBeyondTheDeviceLimitsAreRefused) {
  const package::Json m = scaleJson();
  const DeviceProfile& lavapipe = profile("lavapipe");
  const uint64_t maxBinding = lavapipe.limit("maxStorageBufferBindingSize");
  // tmp made 2^20 times x's size ([n * 1048576] float32: 4 MiB per element of x), so that it
  // meets the limits while the inputs stay small (inputs beyond the limit are refused first).
  package::Json wide = m;
  wide["variants"][0]["variants"][0]["intermediates"][0]["shape"] = "[n * 1048576]";
  const int64_t fits = int64_t(maxBinding >> 22);
  EXPECT_NO_THROW(planScale(wide, fits));
  expectError(ErrorCode::Contract, [&] { planScale(wide, fits + 1); },
              {"intermediate 'tmp'",
               "more than the device's maxStorageBufferBindingSize (" + std::to_string(maxBinding) + ")"});
  expectError(ErrorCode::Contract, [&] { planScale(wide, int64_t{1} << 11); },  // 8 GiB
              {"intermediate 'tmp'", "maxBufferSize"});
  expectError(ErrorCode::Contract, [&] { planScale(wide, int64_t{1} << 20); },  // 4 TiB
              {"intermediate 'tmp'", "4398046511104 bytes", "maxBufferSize"});
  // An 80 KB uniform struct: 20,480 u32 fields.
  package::Json big = m;
  package::Json fields = big["bindings"]["params"]["struct"];
  for (int i = 0; i < 20480 - 2; ++i)
    fields.push_back(package::Json{{"name", "f" + std::to_string(i)}, {"type", "u32"}, {"value", "0"}});
  big["bindings"]["params"]["struct"] = fields;
  expectError(ErrorCode::Contract, [&] { planScale(big, 64); },
              {"uniform", "81920 bytes", "maxUniformBufferBindingSize (65536)"});
}

// `plan` accepted inputs and outputs just over the binding limit, which only `run` refused: every
// tensor is bound whole, so the planner applies the same limit (inputs before any variant is judged).
TEST(PlanDeviceLimits, InputsAndOutputsBeyondTheBindingLimitAreRefused) {
  package::Json m = scaleJson();
  // tmp made one element, so that only x, acc and y meet the limit.
  m["variants"][0]["variants"][0]["intermediates"][0]["shape"] = "[1]";
  const uint64_t maxBinding = profile("lavapipe").limit("maxStorageBufferBindingSize");
  const int64_t fits = int64_t(maxBinding / 4);  // x and acc: [n] float32
  EXPECT_NO_THROW(planScale(m, fits));
  expectError(
      ErrorCode::Contract, [&] { planScale(m, fits + 1); },
      {"input 'acc' has " + std::to_string(maxBinding + 4) +
           " bytes, more than the device's maxStorageBufferBindingSize (" + std::to_string(maxBinding) + ")",
       "while planning wgk.test.Scale"});
  // y derived 2^20 times x's size: 4 MiB per element of x.
  package::Json wide = m;
  wide["outputs"]["y"]["shape"] = "[n * 1048576]";
  EXPECT_NO_THROW(planScale(wide, int64_t(maxBinding >> 22)));
  expectError(ErrorCode::Contract, [&] { planScale(wide, int64_t(maxBinding >> 22) + 1); },
              {"output 'y' would have " + std::to_string(maxBinding + (4u << 20)) + " bytes",
               "maxStorageBufferBindingSize (" + std::to_string(maxBinding) + ")"});
}

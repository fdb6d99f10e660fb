// `wgk convert` keeps plans: each seeds-dialect package, re-expressed in spec 2.1 (and that back in
// the seeds' dialect), plans every test.json and bench.json case exactly as the original does:
// the same variant, and per pass the same shader, dispatch, bindings, uniform bytes and rendered
// WGSL, on two device profiles.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "package/manifest_writer.h"
#include "package/package.h"
#include "package/test_spec.h"
#include "plan_test_util.h"
#include "wgk/error.h"

using namespace wgk;
namespace fs = std::filesystem;

namespace {

struct NamedRequest {
  std::string name;
  plan::PlanRequest request;
};

std::vector<NamedRequest> casesOf(const package::Package& pkg) {
  std::vector<NamedRequest> out;
  auto t = package::loadTestFile((pkg.webgpuDir() / "test.json").string());
  for (const auto& c : t.cases) {
    NamedRequest r{"test " + c.name, {}};
    for (const auto& [n, spec] : c.inputs) r.request.inputs[n] = {spec.dtype, spec.shape};
    r.request.attrs = c.attrs;
    out.push_back(r);
    if (c.variant) {  // and the variant the case targets, forced
      r.name += " forced " + *c.variant;
      r.request.forcedVariant = *c.variant;
      out.push_back(r);
    }
  }
  auto b = package::loadBenchFile((pkg.webgpuDir() / "bench.json").string());
  for (const auto& c : b.cases) {
    NamedRequest r{"bench " + c.name, {}};
    for (const auto& [n, spec] : c.inputs) r.request.inputs[n] = {spec.dtype, spec.shape};
    r.request.attrs = c.attrs;
    for (const auto& a : c.absent) r.request.absent.insert(a);
    out.push_back(r);
  }
  return out;
}

struct Outcome {
  std::optional<plan::Plan> plan;
  std::string error, message;  // the error code's name, and its text (for the failure message)
};

Outcome planOf(const package::Package& pkg, const plan::PlanRequest& r, const DeviceProfile& d) {
  plan::Planner planner(std::shared_ptr<const package::Package>(&pkg, [](const package::Package*) {}));
  try {
    return {planner.plan(r, d), "", ""};
  } catch (const Error& e) {
    return {std::nullopt, std::string(errorCodeName(e.code())), e.what()};
  }
}

// Every difference between two plans of one request, as text (empty: the same).
std::string differences(const plan::Plan& a, const plan::Plan& b) {
  std::string d;
  auto diff = [&](const std::string& what, const auto& x, const auto& y) {
    if (!(x == y)) d += what + " differs; ";
  };
  diff("variant (" + a.variant + " vs " + b.variant + ")", a.variant, b.variant);
  if (a.passes.size() != b.passes.size()) return d + "pass count differs";
  for (size_t i = 0; i < a.passes.size(); ++i) {
    const auto &p = a.passes[i], &q = b.passes[i];
    const std::string at = "pass " + p.id + " ";
    diff(at + "id", p.id, q.id);
    diff(at + "shader", p.shader, q.shader);
    diff(at + "dispatch", p.dispatch, q.dispatch);
    diff(at + "skipped", p.skipped, q.skipped);
    diff(at + "declarations", p.declarations, q.declarations);
    diff(at + "wgsl", p.wgsl, q.wgsl);
    if (p.bindings.size() != q.bindings.size()) {
      d += at + "binding count differs; ";
      continue;
    }
    for (size_t k = 0; k < p.bindings.size(); ++k) {
      const auto &x = p.bindings[k], &y = q.bindings[k];
      const std::string bat = at + "binding " + x.name + " ";
      diff(bat + "name", x.name, y.name);
      diff(bat + "resource", x.resource, y.resource);
      diff(bat + "type", x.type, y.type);
      diff(bat + "elementType", x.elementType, y.elementType);
      diff(bat + "length", x.length, y.length);
      diff(bat + "uniform bytes", x.uniformBytes, y.uniformBytes);
    }
  }
  if (a.outputs.size() != b.outputs.size()) d += "output count differs; ";
  return d;
}

class ConvertPlans : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::random_device rd;
    tmp_ = fs::temp_directory_path() / ("wgk-convert-test-" + std::to_string(rd()));
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
  fs::path tmp_;
};

void expectSamePlans(const package::Package& original, const package::Package& converted) {
  int planned = 0;
  for (const std::string profileName : {"h200", "lavapipe"}) {
    const DeviceProfile& device = plan::test::profile(profileName);
    for (const auto& c : casesOf(original)) {
      Outcome a = planOf(original, c.request, device), b = planOf(converted, c.request, device);
      const std::string where = profileName + ": " + c.name;
      ASSERT_EQ(a.error, b.error) << where << "\noriginal: " << a.message << "\nconverted: " << b.message;
      if (!a.plan) continue;
      ++planned;
      EXPECT_EQ(differences(*a.plan, *b.plan), "") << where;
    }
  }
  EXPECT_GT(planned, 20);
}

TEST_P(ConvertPlans, Spec21AndBackPlanAlike) {
  const std::string id = GetParam();
  auto original = package::Package::open(std::string(WGK_SOURCE_DIR) + "/packages/webgpu-kernels/" + id);
  ASSERT_EQ(original->manifest().dialect, package::Dialect::Seeds);
  package::convertPackage(*original, package::Dialect::Spec21, tmp_ / "spec21" / id);
  auto spec21 = package::Package::open((tmp_ / "spec21" / id).string());
  ASSERT_EQ(spec21->manifest().dialect, package::Dialect::Spec21);
  expectSamePlans(*original, *spec21);

  package::convertPackage(*spec21, package::Dialect::Seeds, tmp_ / "seeds" / id);
  auto back = package::Package::open((tmp_ / "seeds" / id).string());
  ASSERT_EQ(back->manifest().dialect, package::Dialect::Seeds);
  expectSamePlans(*original, *back);
}

INSTANTIATE_TEST_SUITE_P(SeedPackages, ConvertPlans,
                         ::testing::Values("com.microsoft.FastGelu", "ai.onnx.RMSNormalization",
                                           "com.microsoft.GemmaRotaryEmbedding"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

// A construct the seeds cannot say is refused, naming it.
TEST(ConvertErrors, Spec21OnlyConstructsAreNamed) {
  auto scale = package::Package::open(std::string(WGK_SOURCE_DIR) + "/tests/data/spec21/wgk.test.Scale");
  try {
    package::writeSeedsManifest(scale->manifest());
    FAIL() << "wgk.test.Scale (scalar args) converted to the seeds' dialect";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("no equivalent in the seeds' dialect"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("scalar arg"), std::string::npos) << e.what();
  }
}

}  // namespace

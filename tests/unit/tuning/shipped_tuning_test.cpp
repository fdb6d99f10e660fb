// The per-device tables that ship with the embedded packages (packages/tuning/*.json,
// runtime::shippedTuningFor): which devices they match, that every entry still fits its package and
// plans as tuned on its device, and that an entry the planner cannot take is reported, not run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "harness/bench_case.h"
#include "package/package.h"
#include "package/test_spec.h"
#include "plan/plan.h"
#include "runtime/tuning.h"
#include "wgk/error.h"

namespace wgk::runtime {
namespace {

namespace fs = std::filesystem;
const std::string kSource = WGK_SOURCE_DIR;

DeviceProfile profile(const std::string& name) {
  return DeviceProfile::load(kSource + "/tests/data/profiles/" + name + ".json");
}

DeviceProfile withDescription(DeviceProfile p, const std::string& description) {
  p.adapterInfoStrings["description"] = description;
  return p;
}

// The hand-written H200 profile with the driver string the real one reports (docs/h200-device.json).
DeviceProfile h200() {
  return withDescription(profile("h200"), "NVIDIA: 580.159.04 580.159.4.0");
}

// The H100 profile as `wgk bench` recorded it on the device machine (2026-12-06).
DeviceProfile h100() {
  return profile("h100");
}

// A packages root of its own: tuning/ holds the given tables (removed at the end).
struct TempRoot {
  fs::path dir = fs::temp_directory_path() / ("wgk_shipped_tuning_" + std::to_string(::getpid()));
  TempRoot() { fs::create_directories(dir / "tuning"); }
  ~TempRoot() { fs::remove_all(dir); }
  void table(const std::string& file, const std::string& text) const {
    std::ofstream(dir / "tuning" / file) << text;
  }
  std::string str() const { return dir.string(); }
};

TEST(ShippedTuning, DriverVersionIsTheFirstDottedNumberOfTheDescription) {
  const DeviceProfile h = profile("h200");
  EXPECT_EQ(driverVersion(withDescription(h, "NVIDIA: 580.159.04 580.159.4.0")),
            (std::vector<int64_t>{580, 159, 4}));
  EXPECT_EQ(driverVersion(withDescription(h, "Mesa 22.3.6 (LLVM 15.0.6)")), (std::vector<int64_t>{22, 3, 6}));
  EXPECT_TRUE(driverVersion(withDescription(h, "NVIDIA H200")).empty());  // "H200" is no version
  EXPECT_TRUE(driverVersion(withDescription(h, "")).empty());
}

TEST(ShippedTuning, TheH200TableMatchesTheH200WithItsDriverRangeOnly) {
  const std::string root = kSource + "/packages";
  const DeviceProfile h = h200();
  const auto t = shippedTuningFor(root, h);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->name, "nvidia-h200");
  EXPECT_EQ(t->label(), "nvidia-h200 table");
  EXPECT_FALSE(shippedTuningFor(root, withDescription(h, "NVIDIA: 575.51.02")).has_value());  // older driver
  EXPECT_FALSE(shippedTuningFor(root, withDescription(h, "NVIDIA: 590.1")).has_value());      // driverBelow
  EXPECT_FALSE(shippedTuningFor(root, withDescription(h, "NVIDIA H200")).has_value());        // no version
  DeviceProfile other = h;
  other.adapterInfoStrings["device"] = "NVIDIA A100-SXM4-80GB";
  EXPECT_FALSE(shippedTuningFor(root, other).has_value());
  EXPECT_FALSE(shippedTuningFor(root, profile("lavapipe")).has_value());
  // The one rule for runtime, plan and devices: "none" turns tables off, a named file wins.
  EXPECT_FALSE(tuningFor("none", root, h).has_value());
  ASSERT_TRUE(tuningFor("", root, h).has_value());
  EXPECT_THROW(tuningFor(root + "/no-such-table.json", root, h), Error);
}

TEST(ShippedTuning, TheH100TableMatchesTheH100Only) {
  const std::string root = kSource + "/packages";
  const auto t = shippedTuningFor(root, h100());
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->name, "nvidia-h100");
  DeviceProfile renamed = h200();
  renamed.adapterInfoStrings["device"] = "NVIDIA H100 80GB HBM3";
  const auto forRenamed = shippedTuningFor(root, renamed);
  ASSERT_TRUE(forRenamed.has_value());
  EXPECT_EQ(forRenamed->name, "nvidia-h100");
  const auto forH200 = shippedTuningFor(root, h200());  // each device its own table
  ASSERT_TRUE(forH200.has_value());
  EXPECT_EQ(forH200->name, "nvidia-h200");
  EXPECT_FALSE(shippedTuningFor(root, withDescription(h100(), "NVIDIA: 575.51.02")).has_value());
}

// Every entry of every shipped table: its package and variant exist, its signature is a bench case
// of the package, and that case plans as tuned (variant and tunables) on a device the table matches.
void expectEveryEntryPlansAsTuned(const DeviceProfile& device, const std::string& name) {
  const std::string root = kSource + "/packages";
  const auto t = shippedTuningFor(root, device);
  ASSERT_TRUE(t.has_value());
  ASSERT_EQ(t->name, name);
  ASSERT_FALSE(t->entries.empty());
  const std::string label = name + " table";
  for (const TuningEntry& e : t->entries) {
    SCOPED_TRACE(name + ": " + e.package + " " + e.caseName);
    const std::string dir = root + "/webgpu-kernels/" + e.package;
    plan::Planner planner(package::Package::open(dir));
    const auto bench = package::loadBenchFile(dir + "/build/webgpu/bench.json");
    const package::BenchCase* c = nullptr;
    for (const auto& b : bench.cases)
      if (b.name == e.caseName) c = &b;
    ASSERT_NE(c, nullptr) << "the bench case is gone";
    plan::PlanRequest r = harness::benchCaseRequest(*c);
    ASSERT_EQ(tuningSignature(r), e.signature) << "the case's request no longer has the tuned signature";
    ASSERT_NE(applyTuning(*t, e.package, r), nullptr);
    const plan::Plan p = planner.plan(r, device, {.renderShaders = false});
    EXPECT_EQ(p.selectedBy, "tuning") << p.preferenceIgnored;
    EXPECT_EQ(p.variant, e.variant);
    EXPECT_EQ(p.tuningSource, label);
    EXPECT_EQ(p.tunables, tunableValues(e));
    EXPECT_NE(p.toText().find("selected by tuning (" + label + ")"), std::string::npos);
  }
}

TEST(ShippedTuning, EveryShippedEntryPlansAsTunedOnItsDevice) {
  expectEveryEntryPlansAsTuned(h200(), "nvidia-h200");
  expectEveryEntryPlansAsTuned(h100(), "nvidia-h100");
}

// A table can never make a plan invalid: an entry whose variant is not eligible for the request is
// not taken, and the plan says which table it came from and why.
TEST(ShippedTuning, AnEntryThePlannerCannotTakeIsReportedNotRun) {
  const DeviceProfile lava = profile("lavapipe");
  plan::PlanRequest r;
  r.inputs["X"] = {DType::Float16, {4, 63}};  // an odd last dimension: no vector variant applies
  TuningEntry e;
  e.package = "com.microsoft.FastGelu";
  e.signature = tuningSignature(r);
  e.variant = "vec4_no_bias";
  e.tunables = {{"WORKGROUP_SIZE", 128}};
  TuningTable bad;
  bad.name = "test-lavapipe";
  bad.match = {{"vendor", lava.adapterInfoStrings.at("vendor")},
               {"backendType", lava.adapterInfoStrings.at("backendType")}};
  bad.set(e);
  TempRoot root;
  bad.save((root.dir / "tuning" / "b.json").string());
  const auto t = shippedTuningFor(root.str(), lava);
  ASSERT_TRUE(t.has_value());
  ASSERT_NE(applyTuning(*t, e.package, r), nullptr);
  plan::Planner planner(package::Package::open(kSource + "/packages/webgpu-kernels/com.microsoft.FastGelu"));
  const plan::Plan p = planner.plan(r, lava, {.renderShaders = false});
  EXPECT_EQ(p.selectedBy, "priority");
  EXPECT_NE(p.variant, "vec4_no_bias");
  EXPECT_TRUE(p.tunables.empty()) << "the tuned pair is dropped whole";
  EXPECT_NE(p.preferenceIgnored.find("vec4_no_bias"), std::string::npos);
  EXPECT_NE(p.toText().find("tuning (test-lavapipe table) ignored: "), std::string::npos) << p.toText();
}

TEST(ShippedTuning, TablesAreTakenInNameOrderAndMalformedOnesAreErrors) {
  const DeviceProfile lava = profile("lavapipe");
  const std::string vendor = lava.adapterInfoStrings.at("vendor");
  TempRoot root;
  auto table = [&](const std::string& name, const std::string& match) {
    return R"({"format": "wgk-tuning/1", "name": ")" + name + R"(", "match": )" + match +
           R"(, "entries": []})";
  };
  root.table("b.json", table("second", R"({"vendor": ")" + vendor + R"("})"));
  root.table("a.json", table("first", R"({"vendor": ")" + vendor + R"("})"));
  root.table("0.json", table("elsewhere", R"({"vendor": "no-such-vendor"})"));
  root.table("notes.txt", "not a table");
  auto t = shippedTuningFor(root.str(), lava);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->name, "first");
  EXPECT_FALSE(shippedTuningFor(root.str() + "/missing", lava).has_value());

  root.table("0.json", R"({"format": "wgk-tuning/1", "match": {"vendor": "x"}, "entries": []})");
  EXPECT_THROW(shippedTuningFor(root.str(), lava), Error) << "a shipped table needs a name";
  root.table("0.json", table("x", R"({"colour": "red"})"));
  try {
    shippedTuningFor(root.str(), lava);
    FAIL() << "an unknown match field must be an error";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("/match/colour"), std::string::npos) << err.what();
  }
  root.table("0.json", table("x", R"({"driverMin": "new"})"));
  EXPECT_THROW(shippedTuningFor(root.str(), lava), Error) << "a driver bound must be a version";
}

}  // namespace
}  // namespace wgk::runtime

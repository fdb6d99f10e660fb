#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "runtime/tuning.h"
#include "wgk/error.h"

namespace wgk::runtime {
namespace {

namespace fs = std::filesystem;

DeviceProfile profile(const std::string& name) {
  return DeviceProfile::load(std::string(WGK_SOURCE_DIR) + "/tests/data/profiles/" + name + ".json");
}

// A temporary file removed at the end of the test.
struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& name)
      : path(fs::temp_directory_path() / ("wgk_tuning_test_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempFile() { fs::remove(path); }
  std::string str() const { return path.string(); }
  void write(const std::string& text) const { std::ofstream(path) << text; }
};

plan::PlanRequest geluRequest() {
  plan::PlanRequest r;
  r.inputs["X"] = {DType::Float16, {4, 64}};
  r.inputs["bias"] = {DType::Float16, {64}};
  return r;
}

TuningTable sampleTable() {
  TuningTable t;
  t.deviceKey = TuningTable::deviceKeyOf(profile("h200"));
  t.device = {{"vendor", "nvidia"}};
  TuningEntry a;
  a.package = "com.microsoft.FastGelu";
  a.signature = tuningSignature(geluRequest());
  a.caseName = "smoke_4x64_f16_bias";
  a.variant = "vec4_bias";
  a.gbps = 12.5;
  a.tunables = {{"WORKGROUP_SIZE", 128}};
  a.candidates = {{"vec4_bias", 10.0}, {"vec4_bias WORKGROUP_SIZE=128", 12.5}};
  t.set(a);
  TuningEntry b = a;
  b.package = "ai.onnx.RMSNormalization";
  b.variant = "last_axis_row_vec4";
  b.tunables = nlohmann::json::object();
  b.candidates = {{"last_axis_row_vec4", 9.0}};
  t.set(b);
  return t;
}

TEST(Tuning, SaveLoadRoundTripKeepsTunables) {
  TempFile f("roundtrip.json");
  const TuningTable t = sampleTable();
  t.save(f.str());
  const nlohmann::json raw = nlohmann::json::parse(std::ifstream(f.path));
  EXPECT_EQ(raw["entries"][0]["tunables"], nlohmann::json::parse(R"({"WORKGROUP_SIZE": 128})"));
  EXPECT_EQ(raw["entries"][1]["tunables"], nlohmann::json::object());

  const TuningTable back = TuningTable::load(f.str());
  EXPECT_EQ(back.deviceKey, t.deviceKey);
  ASSERT_EQ(back.entries.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back.entries[i].package, t.entries[i].package);
    EXPECT_EQ(back.entries[i].signature, t.entries[i].signature);
    EXPECT_EQ(back.entries[i].variant, t.entries[i].variant);
    EXPECT_EQ(back.entries[i].tunables, t.entries[i].tunables);
    EXPECT_EQ(back.entries[i].candidates, t.entries[i].candidates);
    EXPECT_EQ(back.entries[i].gbps, t.entries[i].gbps);
  }
}

// Files written before tunables existed load with none.
TEST(Tuning, EntryWithoutTunablesLoads) {
  TempFile f("old.json");
  f.write(R"({"format": "wgk-tuning/1", "deviceKey": "k", "entries": [
    {"package": "p", "signature": "s", "variant": "v", "gbps": 1.0, "candidates": {"v": 1.0}}]})");
  const TuningTable t = TuningTable::load(f.str());
  ASSERT_EQ(t.entries.size(), 1u);
  EXPECT_TRUE(t.entries[0].tunables.is_object());
  EXPECT_TRUE(t.entries[0].tunables.empty());
}

void expectLoadError(const std::string& entries, const std::string& fragment) {
  TempFile f("bad.json");
  f.write(R"({"format": "wgk-tuning/1", "deviceKey": "k", "entries": [)" + entries + "]}");
  try {
    TuningTable::load(f.str());
    ADD_FAILURE() << "expected an error for " << entries;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Manifest) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(f.str()), std::string::npos) << e.what();
  }
}

TEST(Tuning, MalformedTunablesAreErrorsWithTheirPath) {
  const std::string ok = R"({"package": "p", "signature": "s", "variant": "v"})";
  expectLoadError(ok + R"(, {"package": "p", "signature": "t", "variant": "v", "tunables": [128]})",
                  "/entries/1/tunables must be an object");
  expectLoadError(R"({"package": "p", "signature": "s", "variant": "v", "tunables": null})",
                  "/entries/0/tunables must be an object");
  expectLoadError(ok + "," + ok + "," + ok +
                      R"(, {"package": "p", "signature": "s", "variant": "v", "tunables": {"x": [1, 2]}})",
                  "/entries/3/tunables/x must be a number, string or bool, got array");
  expectLoadError(R"({"package": "p", "signature": "s", "variant": "v", "tunables": {"a/b": {"c": 1}}})",
                  "/entries/0/tunables/a~1b must be a number, string or bool, got object");
  expectLoadError(R"({"package": "p", "signature": "s", "variant": "v", "tunables": {"x": null}})",
                  "/entries/0/tunables/x must be a number, string or bool, got null");
}

TEST(Tuning, LoadForChecksTheDevice) {
  TempFile f("device.json");
  sampleTable().save(f.str());
  EXPECT_EQ(TuningTable::loadFor(f.str(), profile("h200")).entries.size(), 2u);
  try {
    TuningTable::loadFor(f.str(), profile("lavapipe"));
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("was measured on another device"), std::string::npos) << e.what();
  }
}

// An entry becomes a preference plus tunables, as one pair; a forced variant or explicit tunables
// turn the table off.
TEST(Tuning, ApplyTuningSetsVariantAndTunables) {
  const TuningTable t = sampleTable();
  plan::PlanRequest r = geluRequest();
  ASSERT_NE(applyTuning(t, "com.microsoft.FastGelu", r), nullptr);
  EXPECT_EQ(r.preferredVariant, "vec4_bias");
  ASSERT_EQ(r.tunables.size(), 1u);
  EXPECT_EQ(r.tunables.at("WORKGROUP_SIZE"), expr::Value(128));
  EXPECT_TRUE(r.tunables.at("WORKGROUP_SIZE").isInt());

  plan::PlanRequest forced = geluRequest();
  forced.forcedVariant = "scalar_bias";
  EXPECT_EQ(applyTuning(t, "com.microsoft.FastGelu", forced), nullptr);
  EXPECT_TRUE(forced.preferredVariant.empty());
  EXPECT_TRUE(forced.tunables.empty());

  plan::PlanRequest own = geluRequest();
  own.tunables["WORKGROUP_SIZE"] = expr::Value(64);
  EXPECT_EQ(applyTuning(t, "com.microsoft.FastGelu", own), nullptr);
  EXPECT_EQ(own.tunables.at("WORKGROUP_SIZE"), expr::Value(64));

  plan::PlanRequest other = geluRequest();
  other.inputs["X"].shape = {8, 64};
  EXPECT_EQ(applyTuning(t, "com.microsoft.FastGelu", other), nullptr);
  plan::PlanRequest rms = geluRequest();  // the same signature under another package
  ASSERT_NE(applyTuning(t, "ai.onnx.RMSNormalization", rms), nullptr);
  EXPECT_EQ(rms.preferredVariant, "last_axis_row_vec4");
  EXPECT_TRUE(rms.tunables.empty());
}

// The signature is what a call produces: listing an absent optional input changes nothing, the
// forced variant and tunables are not part of it.
TEST(Tuning, SignatureIgnoresAbsentVariantAndTunables) {
  plan::PlanRequest a;
  a.inputs["X"] = {DType::Float16, {4, 64}};
  plan::PlanRequest b = a;
  b.absent.insert("bias");
  b.forcedVariant = "scalar_no_bias";
  b.tunables["WORKGROUP_SIZE"] = expr::Value(64);
  EXPECT_EQ(tuningSignature(a), tuningSignature(b));
  b.inputs["X"].shape = {4, 65};
  EXPECT_NE(tuningSignature(a), tuningSignature(b));
}

}  // namespace
}  // namespace wgk::runtime

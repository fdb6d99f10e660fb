#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "gpu/device.h"
#include "harness/bench_runner.h"
#include "harness/report_model.h"
#include "harness/tune.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {

const char* kPackages[] = {"webgpu-kernels/ai.onnx.RMSNormalization", "webgpu-kernels/com.microsoft.FastGelu",
                           "webgpu-kernels/com.microsoft.GemmaRotaryEmbedding"};

RuntimeOptions options() {
  RuntimeOptions o;
  o.packagesDir = std::string(WGK_SOURCE_DIR) + "/packages";
  o.offline = true;
  return o;
}

// One runtime per binary: a lavapipe device is slow to create.
Runtime& shared() {
  static std::shared_ptr<Runtime> rt = Runtime::create(options());
  return *rt;
}

BenchSelection smoke() {
  BenchSelection s;
  s.tag = "smoke";
  s.allVariants = true;
  s.repeat = 2;
  s.warmup = 1;
  s.overheadCalls = 5;
  return s;
}

bool positive(const nlohmann::json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0;
}

// Every package's smoke cases on every eligible variant, into one evidence document.
const nlohmann::json& smokeEvidence() {
  static nlohmann::json doc = [] {
    Runtime& rt = shared();
    CopyRoofline roof(rt);
    BenchRun run;
    for (const char* name : kPackages) {
      Kernel k = rt.load(name);
      BenchHooks hooks;
      hooks.reload = [name](Runtime& fresh) { return fresh.load(name); };
      runBench(rt, k, smoke(), roof, run, hooks);
    }
    return evidenceJson(run, roof, rt.device(), "test");
  }();
  return doc;
}

TEST(Bench, EvidenceIsWellFormed) {
  const nlohmann::json& j = smokeEvidence();
  EXPECT_EQ(j["format"], "wgk-bench/2");
  EXPECT_TRUE(j["date"].is_string());
  EXPECT_TRUE(j["host"].is_object());
  EXPECT_TRUE(j["device"]["limits"].is_object());
  ASSERT_EQ(j["packages"].size(), 3u);
  for (const auto& p : j["packages"]) {
    EXPECT_EQ(p["origin"], "embedded");
    EXPECT_FALSE(p["revision"].get<std::string>().empty());
  }
  ASSERT_FALSE(j["roofline"].empty());
  for (const auto& r : j["roofline"]) {
    EXPECT_GT(r["bytes"].get<uint64_t>(), 0u);
    EXPECT_TRUE(positive(r["gbps"])) << r.dump();
    EXPECT_GE(r["gpuUsMedian"].get<double>(), r["gpuUsMin"].get<double>());
    EXPECT_EQ(r["kernel"].get<std::string>().rfind("vec4x", 0), 0u);
  }
  std::set<std::string> packages;
  for (const auto& m : j["measurements"]) {
    SCOPED_TRACE(m.dump());
    ASSERT_FALSE(m.contains("error"));
    packages.insert(m["package"].get<std::string>());
    EXPECT_FALSE(m["variant"].get<std::string>().empty());
    EXPECT_EQ(m["selectedBy"], "forced");
    EXPECT_TRUE(std::find(m["tags"].begin(), m["tags"].end(), "smoke") != m["tags"].end());
    EXPECT_GT(m["bytes"].get<uint64_t>(), 0u);
    EXPECT_GE(m["gpuUsMedian"].get<double>(), 0);
    EXPECT_GE(m["gpuUsMedian"].get<double>(), m["gpuUsMin"].get<double>());
    for (const char* key : {"gbps", "copyGbps", "rooflineRatio", "coldMs", "wallUsMedian"})
      EXPECT_TRUE(positive(m[key])) << key;
    EXPECT_NEAR(m["rooflineRatio"].get<double>(), m["gbps"].get<double>() / m["copyGbps"].get<double>(),
                1e-9);
    // The calling thread's CPU time per call cannot exceed the wall time per call by more than the
    // two clocks' granularity; the context-switch counts are counts.
    EXPECT_TRUE(positive(m["hostCpuUsMedian"]));
    EXPECT_LE(m["hostCpuUsMedian"].get<double>(), m["wallUsMedian"].get<double>() + 1.0);
    EXPECT_GE(m["hostContextSwitches"]["voluntary"].get<int64_t>(), 0);
    EXPECT_GE(m["hostContextSwitches"]["involuntary"].get<int64_t>(), 0);
  }
  EXPECT_EQ(packages.size(), 3u);
}

TEST(Bench, BytesAreTheMinimumTheOpMoves) {
  // RMSNormalization smoke_2x64_f16: x and y (2x64 f16) plus scale (64 f16) = 256 + 256 + 128.
  bool seen = false;
  for (const auto& m : smokeEvidence()["measurements"])
    if (m["case"] == "smoke_2x64_f16") {
      EXPECT_EQ(m["bytes"].get<uint64_t>(), 640u);
      seen = true;
    }
  EXPECT_TRUE(seen);
}

TEST(Bench, DefaultVariantRecordsHowItWasChosen) {
  Runtime& rt = shared();
  CopyRoofline roof(rt);
  BenchRun run;
  Kernel k = rt.load(kPackages[1]);
  BenchSelection s = smoke();
  s.allVariants = false;
  s.caseName = "smoke_3x7_f32";
  s.cold = false;
  s.overheadCalls = 0;
  runBench(rt, k, s, roof, run);
  ASSERT_EQ(run.measurements.size(), 1u);
  const auto& m = run.measurements[0];
  EXPECT_TRUE(m.error.empty()) << m.error;
  EXPECT_EQ(m.selectedBy, "priority");
  EXPECT_FALSE(m.variant.empty());
  EXPECT_EQ(m.bytes, 3u * 7 * 4 * 2);  // no bias: X and Y only
  EXPECT_LT(m.coldMs, 0);              // not measured
  EXPECT_LT(m.wallUsMedian, 0);
  EXPECT_FALSE(m.toJson().contains("error"));
  EXPECT_TRUE(m.toJson()["coldMs"].is_null());
}

TEST(Bench, UnknownCaseIsAnError) {
  Runtime& rt = shared();
  CopyRoofline roof(rt);
  BenchRun run;
  Kernel k = rt.load(kPackages[0]);
  BenchSelection s = smoke();
  s.caseName = "no_such_case";
  EXPECT_THROW(runBench(rt, k, s, roof, run), Error);
}

TEST(Bench, CopyRooflineCopiesAndIsMemoised) {
  Runtime& rt = shared();
  CopyRoofline roof(rt);
  const CopyMeasurement& a = roof.measure(1 << 20, 1, 3);
  EXPECT_GT(a.gbps, 0);
  EXPECT_EQ(a.bytes, 1u << 20);
  EXPECT_EQ(&roof.measure(1 << 20, 1, 3), &a);
  EXPECT_EQ(roof.all().size(), 1u);
  EXPECT_NE(CopyRoofline::copyWgsl(4).find("base + 768u"), std::string::npos);
}

// The FMA rooflines compile and run here: f32 (and f16 with shader-f16) measured with every shape
// timed, the matrix one absent without chromium-experimental-subgroup-matrix; measured once; the
// evidence carries them. Never a speed.
TEST(Bench, FmaRooflineMeasuresOnceAndIsInTheEvidence) {
  Runtime& rt = shared();
  FmaRoofline fma(rt);
  EXPECT_EQ(fma.result(), nullptr);
  const FmaMeasurement& m = fma.measure(1, 3);
  for (const PeakMeasurement* p : {&m.f32, &m.f16}) {
    if (!p->absent.empty()) continue;
    EXPECT_TRUE(p->failed.empty()) << p->failed.begin()->second;
    EXPECT_GT(p->tflops, 0);
    EXPECT_EQ(p->candidates.size(), FmaRoofline::fmaShapes(p == &m.f32 ? "f32" : "f16", 1024).size());
    EXPECT_GT(p->workgroups, 0u);
    EXPECT_GT(p->iterations, 0u);
    EXPECT_NEAR(p->tflops, p->flopsPerDispatch / p->gpuUsMedian / 1e6, 1e-9);
  }
  EXPECT_TRUE(m.f32.absent.empty());
  EXPECT_EQ(m.f16.absent.empty(), rt.device().hasFeature("shader-f16"));
  if (!rt.device().hasFeature("chromium-experimental-subgroup-matrix"))
    EXPECT_NE(m.matrix.absent.find("chromium-experimental-subgroup-matrix"), std::string::npos);
  else
    EXPECT_GT(m.matrix.tflops, 0) << m.matrix.error;
  EXPECT_EQ(&fma.measure(1, 3), &m);
  CopyRoofline roof(rt);
  const nlohmann::json j = evidenceJson(BenchRun{}, roof, rt.device(), "test", &fma);
  ASSERT_TRUE(j.contains("fmaRoofline"));
  EXPECT_TRUE(positive(j["fmaRoofline"]["f32"]["tflops"]));
  EXPECT_FALSE(evidenceJson(BenchRun{}, roof, rt.device(), "test").contains("fmaRoofline"));
}

TEST(Bench, CopyKernelCopiesEveryElement) {
  // The roofline must be a real copy (the same WGSL, checked on data), including a ragged tail.
  Runtime& rt = shared();
  std::lock_guard lock(wgk::introspect::gpuMutex(rt));
  gpu::Device& dev = wgk::introspect::device(rt);
  const uint32_t n4 = 1000;  // not a multiple of 256 * 8
  std::vector<float> in(n4 * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) * 0.5f;
  for (uint32_t per : {1u, 4u, 8u}) {
    gpu::Buffer src = dev.createBuffer(in.size() * 4, gpu::BufferUsage::Storage | gpu::BufferUsage::CopyDst);
    gpu::Buffer dst = dev.createBuffer(in.size() * 4, gpu::BufferUsage::Storage | gpu::BufferUsage::CopySrc);
    src.upload(std::as_bytes(std::span(in)));
    const gpu::BindingKind layout[] = {gpu::BindingKind::ReadOnlyStorage, gpu::BindingKind::Storage};
    auto pipe = dev.createComputePipeline(CopyRoofline::copyWgsl(per), layout);
    auto rec = dev.recorder();
    const uint32_t groups = (n4 + 256 * per - 1) / (256 * per);
    // Folded into y on purpose: workgroup ids beyond the data must not write.
    rec.dispatch(pipe, {{src.handle()}, {dst.handle()}}, 1, groups + 1);
    rec.submit();
    std::vector<float> out(in.size());
    dst.readback(out.data(), out.size() * 4);
    EXPECT_EQ(out, in) << "vec4x" << per;
  }
}

// Tunes one smoke case of package kPackages[pkg] into `table`; the outcome must have a winner.
void tuneOneCase(size_t pkg, const std::string& caseName, runtime::TuningTable& table,
                 std::vector<TuneOutcome>& outcomes) {
  Runtime& rt = shared();
  CopyRoofline roof(rt);
  Kernel k = rt.load(kPackages[pkg]);
  BenchSelection s = smoke();
  s.caseName = caseName;
  outcomes = tunePackage(rt, k, s, roof, table);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].variant.empty()) << outcomes[0].detail;
  ASSERT_EQ(table.entries.size(), 1u);
}

TEST(Tune, WritesATableTheRuntimeFollows) {
  Runtime& rt = shared();
  runtime::TuningTable table;
  std::vector<TuneOutcome> outcomes;
  ASSERT_NO_FATAL_FAILURE(tuneOneCase(0, "smoke_2x64_f16", table, outcomes));
  Kernel k = rt.load(kPackages[0]);
  const auto& e = table.entries[0];
  EXPECT_EQ(e.package, "ai.onnx.RMSNormalization");
  EXPECT_EQ(e.caseName, "smoke_2x64_f16");
  EXPECT_GT(e.gbps, 0);
  EXPECT_TRUE(e.candidates.contains(candidateKey(e.variant, e.tunables))) << e.candidates.dump();

  // Every candidate (and so the pick) is eligible for the case's request ("variant" or
  // "variant NAME=VALUE": eligible with that tunable).
  plan::PlanRequest req;
  req.inputs["x"] = {DType::Float16, {2, 64}};
  req.inputs["scale"] = {DType::Float16, {64}};
  for (const auto& [key, gbps] : e.candidates.items()) {
    plan::PlanRequest r = req;
    const auto space = key.find(' ');
    if (space != std::string::npos) {
      const auto eq = key.find('=', space);
      r.tunables[key.substr(space + 1, eq - space - 1)] =
          expr::Value(static_cast<int64_t>(std::stoll(key.substr(eq + 1))));
    }
    plan::Plan p = wgk::introspect::plan(k, r, false);
    const std::string variant = key.substr(0, space);
    auto v =
        std::find_if(p.variants.begin(), p.variants.end(), [&](const auto& x) { return x.id == variant; });
    ASSERT_NE(v, p.variants.end());
    EXPECT_TRUE(v->eligible) << key;
  }

  const auto path = std::filesystem::temp_directory_path() / "wgk_bench_test_tuning.json";
  table.save(path.string());
  runtime::TuningTable back = runtime::TuningTable::load(path.string());
  EXPECT_TRUE(back.matchesDevice(rt.device()));
  ASSERT_NE(back.find(e.package,
                      benchCaseSignature(
                          *package::loadBenchFile(
                               std::string(WGK_SOURCE_DIR) +
                               "/packages/webgpu-kernels/ai.onnx.RMSNormalization/build/webgpu/bench.json")
                               .findCase("smoke_2x64_f16"))),
            nullptr);

  // A runtime with the table picks the tuned variant, and says so.
  RuntimeOptions o = options();
  o.tuningFile = path.string();
  auto tuned = Runtime::createForDevice(wgk::introspect::device(rt).handle(), o);
  Kernel tk = tuned->load(kPackages[0]);
  HostTensor x(DType::Float16, {2, 64}), scale(DType::Float16, {64});
  CallResult r = tk.call({{"x", x}, {"scale", scale}});
  EXPECT_EQ(r.selectedBy, "tuning");
  EXPECT_EQ(r.variant, e.variant);
  std::filesystem::remove(path);
}

// `wgk tune --out` extends a table only on its device: one measured elsewhere is refused, unless
// its match rule (a shipped table's) accepts this device; then its deviceKey stays as it was.
TEST(Tune, ExtendsATableOnlyOnADeviceItMatches) {
  Runtime& rt = shared();
  runtime::TuningTable other;
  other.deviceKey = "nvidia||NVIDIA H100 80GB HBM3|NVIDIA: 580.159.04|vulkan|";
  std::vector<TuneOutcome> outcomes;
  CopyRoofline roof(rt);
  Kernel k = rt.load(kPackages[1]);
  BenchSelection s = smoke();
  s.caseName = "smoke_3x7_f32";
  try {
    tunePackage(rt, k, s, roof, other);
    ADD_FAILURE() << "a table of another device was extended";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("measured on another device"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(other.entries.empty());

  runtime::TuningTable matching = other;
  matching.name = "this-device";
  for (const char* f : {"vendor", "device", "backendType"})
    matching.match[f] = rt.device().adapterInfoStrings.at(f);
  ASSERT_NO_FATAL_FAILURE(tuneOneCase(1, "smoke_3x7_f32", matching, outcomes));
  EXPECT_EQ(matching.deviceKey, other.deviceKey);
}

// The workgroup-size search on FastGelu's smallest case (X f32 [3, 7], no bias): the eligible
// variants (vec4_tail_no_bias, scalar_no_bias) at WORKGROUP_SIZE 256 and at every other candidate
// up to the device's cap (each renders another @workgroup_size, so each is timed), one tunable at a
// time. The winner, with its tunables, is what a runtime with the table runs.
TEST(Tune, SearchesWorkgroupSizes) {
  Runtime& rt = shared();
  runtime::TuningTable table;
  std::vector<TuneOutcome> outcomes;
  ASSERT_NO_FATAL_FAILURE(tuneOneCase(1, "smoke_3x7_f32", table, outcomes));
  Kernel k = rt.load(kPackages[1]);
  const auto& e = table.entries[0];
  EXPECT_EQ(e.tunables, outcomes[0].tunables);
  const std::vector<int64_t> sizes = workgroupCandidates(expr::Value(256), rt.device());
  ASSERT_FALSE(sizes.empty());
  plan::PlanRequest req;
  req.inputs["X"] = {DType::Float32, {3, 7}};
  std::vector<std::string> eligible;
  for (const auto& v : wgk::introspect::plan(k, req, false).variants)
    if (v.eligible) eligible.push_back(v.id);
  EXPECT_NE(std::find(eligible.begin(), eligible.end(), "vec4_tail_no_bias"), eligible.end());
  EXPECT_NE(std::find(eligible.begin(), eligible.end(), "scalar_no_bias"), eligible.end());
  for (const std::string& variant : eligible) {
    EXPECT_TRUE(e.candidates.contains(variant)) << e.candidates.dump();
    for (int64_t size : sizes) {
      const std::string key = variant + " WORKGROUP_SIZE=" + std::to_string(size);
      ASSERT_TRUE(e.candidates.contains(key)) << key << " in " << e.candidates.dump();
      EXPECT_GT(e.candidates[key].get<double>(), 0) << key;
    }
  }
  EXPECT_EQ(e.candidates.size(), eligible.size() * (1 + sizes.size())) << e.candidates.dump();
  // The pick is the fastest candidate, recorded as (variant, tunables).
  double best = 0;
  for (const auto& [key, gbps] : e.candidates.items()) best = std::max(best, gbps.get<double>());
  EXPECT_EQ(e.gbps, best);
  EXPECT_EQ(e.candidates[candidateKey(e.variant, e.tunables)].get<double>(), best);
  if (!e.tunables.empty()) {
    EXPECT_NE(outcomes[0].detail.find("WORKGROUP_SIZE="), std::string::npos);
  }

  // A runtime with the table runs the tuned pair (checked against the plan it reports).
  const auto path = std::filesystem::temp_directory_path() / "wgk_bench_test_tuning_wg.json";
  table.save(path.string());
  RuntimeOptions o = options();
  o.tuningFile = path.string();
  auto tuned = Runtime::createForDevice(wgk::introspect::device(rt).handle(), o);
  Kernel tk = tuned->load(kPackages[1]);
  HostTensor x(DType::Float32, {3, 7});
  CallResult r = tk.call({{"X", x}});
  EXPECT_EQ(r.selectedBy, "tuning");
  EXPECT_EQ(r.variant, e.variant);
  plan::Plan p = wgk::introspect::plan(tk, req, false);
  EXPECT_EQ(p.selectedBy, "tuning");
  EXPECT_EQ(p.tunables.size(), e.tunables.size());
  std::filesystem::remove(path);

  // --no-tunables: variants only.
  runtime::TuningTable plain;
  TuneOptions variantsOnly;
  variantsOnly.searchTunables = false;
  CopyRoofline roof(rt);
  BenchSelection s = smoke();
  s.caseName = "smoke_3x7_f32";
  tunePackage(rt, k, s, roof, plain, {}, variantsOnly);
  ASSERT_EQ(plain.entries.size(), 1u);
  EXPECT_TRUE(plain.entries[0].tunables.empty());
  EXPECT_EQ(plain.entries[0].candidates.size(), eligible.size()) << plain.entries[0].candidates.dump();
}

TEST(Report, RendersSmokeEvidenceAsSvg) {
  auto model = ReportModel::build({parseEvidence(smokeEvidence(), "smoke")}, std::nullopt);
  EXPECT_EQ(model.ops.size(), 3u);
  const std::string html = renderHtml(model);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("smoke_b1_h2_s4_d8"), std::string::npos);
  EXPECT_NE(renderMarkdown(model).find("### FastGelu on "), std::string::npos);
}

}  // namespace
}  // namespace wgk::harness

namespace wgk::harness {
namespace {

// A copy larger than the binding limit is bound in windows within it, at aligned offsets, and the
// windows cover the copy exactly (issue 17: lavapipe's 128 MiB limit failed cases whose kernels fit).
TEST(BenchHost, RooflineCopyIsChunkedWithinTheBindingLimit) {
  const uint64_t limit = 128ull << 20;
  auto chunks = CopyRoofline::chunksFor(300ull << 20, limit, 256);
  ASSERT_EQ(chunks.size(), 3u);
  uint64_t next = 0;
  for (const auto& [offset, size] : chunks) {
    EXPECT_EQ(offset, next);
    EXPECT_EQ(offset % 256, 0u);
    EXPECT_LE(size, limit);
    next = offset + size;
  }
  EXPECT_EQ(next, 300ull << 20);
  EXPECT_EQ(CopyRoofline::chunksFor(4096, limit, 256).size(), 1u);
  // A limit that is not a multiple of the alignment: windows round down to it.
  auto odd = CopyRoofline::chunksFor(1000, 300, 256);
  ASSERT_EQ(odd.size(), 4u);
  EXPECT_EQ(odd[1].first, 256u);
}

TEST(BenchHost, OverheadCallsScaleWithTheCaseSize) {
  EXPECT_EQ(scaledOverheadCalls(1000, 5), 1000);    // a decode case on a GPU: all of them
  EXPECT_EQ(scaledOverheadCalls(1000, 50000), 40);  // 50 ms a call (lavapipe, large): ~2 s
  EXPECT_EQ(scaledOverheadCalls(1000, 1e7), 10);    // never fewer than 10
  EXPECT_EQ(scaledOverheadCalls(5, 1e7), 5);        // a small request stands
  EXPECT_EQ(scaledOverheadCalls(0, 10), 0);         // 0 still skips
}

TEST(BenchHost, DeviceLimitErrorsAreSkipsAndSkipsAreRecorded) {
  EXPECT_TRUE(isDeviceLimit(Error(ErrorCode::Contract,
                                  "input 'X' has 9 bytes, more than the device's "
                                  "maxStorageBufferBindingSize (8)")));
  EXPECT_FALSE(isDeviceLimit(Error(ErrorCode::Gpu, "validation error")));
  BenchMeasurement m;
  m.caseName = "large";
  m.skipped = "input 'X' has 9 bytes, more than the device's maxStorageBufferBindingSize (8)";
  const auto j = m.toJson();
  EXPECT_EQ(j["skipped"], m.skipped);
  EXPECT_FALSE(j.contains("error"));
  EXPECT_FALSE(j.contains("gpuUsMedian"));
}

}  // namespace
}  // namespace wgk::harness

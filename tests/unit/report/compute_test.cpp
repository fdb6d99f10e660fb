// Compute-bound reporting without a GPU: the ridge and the label (fma_roofline.h computeShare),
// the evidence fields of a measurement with flops, the FMA / matrix kernels' WGSL and shapes, and
// the report's TFLOPS columns, peers matched by case name and the summary's share of peak.
#include <gtest/gtest.h>

#include <string>

#include "harness/bench_runner.h"
#include "harness/fma_roofline.h"
#include "harness/report_model.h"
#include "harness/report_summary.h"

namespace wgk::harness {
namespace {

// H200-like peaks (TFLOPS) and copy bandwidth (GB/s).
ComputePeaks h200Peaks(bool matrix = true) {
  ComputePeaks p;
  p.f32 = 60;
  p.f16 = 120;
  if (matrix) {
    p.matrix = 600;
    p.matrixComponent = "f16";
  }
  return p;
}

constexpr double kCopy = 4000;

TEST(ComputeShare, LabelsByTheRidgeOfTheHighestPeak) {
  // 4096^3 f16: 137 GFLOP over 96 MiB = 1365 FLOP/B; ridge 600e12 / 4000e9 = 150 FLOP/B.
  const double flops = 2.0 * 4096 * 4096 * 4096;
  const uint64_t bytes = 3ull * 4096 * 4096 * 2;
  const ComputeShare s = computeShare(flops, bytes, 458.0, kCopy, "f16", h200Peaks());
  EXPECT_EQ(s.bound, "compute");
  EXPECT_NEAR(s.ridge, 150.0, 1e-9);
  EXPECT_NEAR(s.flopsPerByte, flops / bytes, 1e-9);
  EXPECT_NEAR(s.tflops, flops / 458.0 / 1e6, 1e-9);  // about 300 TFLOPS
  EXPECT_DOUBLE_EQ(s.fmaPeak, 120);
  EXPECT_NEAR(s.ofFmaPeak, s.tflops / 120, 1e-12);
  EXPECT_DOUBLE_EQ(s.matrixPeak, 600);
  EXPECT_NEAR(s.ofMatrixPeak, s.tflops / 600, 1e-12);
}

TEST(ComputeShare, MatrixPeakRaisesTheRidge) {
  // 128x4096 @ 4096x4096 f16: 120.5 FLOP/B. Memory-bound against the matrix ridge (150), compute-
  // bound against the f16 FMA ridge alone (30).
  const double flops = 2.0 * 128 * 4096 * 4096;
  const uint64_t bytes = (128ull * 4096 * 2 + 4096ull * 4096) * 2;
  EXPECT_EQ(computeShare(flops, bytes, 20, kCopy, "f16", h200Peaks()).bound, "memory");
  const ComputeShare fmaOnly = computeShare(flops, bytes, 20, kCopy, "f16", h200Peaks(false));
  EXPECT_EQ(fmaOnly.bound, "compute");
  EXPECT_NEAR(fmaOnly.ridge, 30.0, 1e-9);
  EXPECT_LT(fmaOnly.matrixPeak, 0);
  EXPECT_LT(fmaOnly.ofMatrixPeak, 0);
}

TEST(ComputeShare, MatrixPeakOnlyServesItsComponentType) {
  const ComputeShare f32 = computeShare(1e12, 1 << 20, 100, kCopy, "f32", h200Peaks());
  EXPECT_DOUBLE_EQ(f32.fmaPeak, 60);
  EXPECT_LT(f32.matrixPeak, 0);
  EXPECT_NEAR(f32.ridge, 15.0, 1e-9);  // the f32 FMA peak alone
  EXPECT_EQ(f32.bound, "compute");
}

TEST(ComputeShare, NoPeakNoLabel) {
  // Integers: no FMA peak applies; TFLOPS still reported.
  const ComputeShare i = computeShare(1e9, 1 << 20, 100, kCopy, "", h200Peaks());
  EXPECT_GT(i.tflops, 0);
  EXPECT_EQ(i.bound, "");
  EXPECT_LT(i.ridge, 0);
  EXPECT_LT(i.ofFmaPeak, 0);
  // No FMA roofline measured (`--no-fma-roofline`): TFLOPS only.
  EXPECT_EQ(computeShare(1e9, 1 << 20, 100, kCopy, "f16", ComputePeaks{}).bound, "");
  // No flops declared: nothing.
  EXPECT_LT(computeShare(-1, 1 << 20, 100, kCopy, "f16", h200Peaks()).tflops, 0);
  EXPECT_LT(computeShare(0, 1 << 20, 100, kCopy, "f16", h200Peaks()).tflops, 0);
}

TEST(ComputeShare, DtypeOfACase) {
  package::BenchCase c;
  c.inputs["a"].dtype = DType::Float16;
  c.inputs["b"].dtype = DType::Float16;
  EXPECT_EQ(computeDtype(c), "f16");
  c.inputs["b"].dtype = DType::Float32;
  EXPECT_EQ(computeDtype(c), "f32");
  c.inputs["a"].dtype = DType::Int32;
  c.inputs["b"].dtype = DType::Int32;
  EXPECT_EQ(computeDtype(c), "");
}

TEST(ComputeEvidence, MeasurementFieldsOnlyWithFlops) {
  BenchMeasurement m;
  m.package = "ai.onnx.MatMul";
  m.caseName = "prefill_mm_4096x4096x4096_f16";
  m.bytes = 3ull * 4096 * 4096 * 2;
  m.gpuUsMedian = 458;
  m.copyGbps = kCopy;
  m.flops = 2.0 * 4096 * 4096 * 4096;
  m.compute = computeShare(m.flops, m.bytes, m.gpuUsMedian, m.copyGbps, "f16", h200Peaks());
  const nlohmann::json j = m.toJson();
  EXPECT_DOUBLE_EQ(j["flops"].get<double>(), m.flops);
  EXPECT_EQ(j["bound"], "compute");
  for (const char* key : {"tflops", "flopsPerByte", "fmaPeakTflops", "ofFmaPeak", "matrixPeakTflops",
                          "ofMatrixPeak", "ridgeFlopsPerByte"})
    EXPECT_TRUE(j[key].is_number()) << key;
  EXPECT_NEAR(j["ofMatrixPeak"].get<double>(), j["tflops"].get<double>() / 600, 1e-12);

  BenchMeasurement plain = m;
  plain.flops = -1;
  plain.compute = {};
  const nlohmann::json p = plain.toJson();
  for (const char* key : {"flops", "tflops", "bound", "ofFmaPeak", "ofMatrixPeak"})
    EXPECT_FALSE(p.contains(key)) << key;

  // A skipped case keeps its flops (what it would have been measured against), nothing else.
  BenchMeasurement skipped = m;
  skipped.skipped = "too large";
  EXPECT_TRUE(skipped.toJson().contains("flops"));
  EXPECT_FALSE(skipped.toJson().contains("tflops"));
}

TEST(ComputeEvidence, PeaksAsJson) {
  FmaMeasurement f;
  f.f32.tflops = 61.5;
  f.f32.kernel = "vec4x16/wg256";
  f.f32.candidates = {{"vec4x16/wg256", 61.5}, {"vec4x8/wg256", 58.0}};
  f.f16.absent = "the device has no shader-f16";
  f.matrix.error = "did not compile";
  f.matrix.failed = {{"f16->f32 16x16x16 acc4/wg32", "did not compile"}};
  const nlohmann::json j = f.toJson();
  EXPECT_DOUBLE_EQ(j["f32"]["tflops"].get<double>(), 61.5);
  EXPECT_EQ(j["f32"]["kernel"], "vec4x16/wg256");
  EXPECT_EQ(j["f32"]["candidates"].size(), 2u);
  EXPECT_EQ(j["f16"], (nlohmann::json{{"absent", "the device has no shader-f16"}}));
  EXPECT_EQ(j["matrix"]["error"], "did not compile");
  EXPECT_FALSE(j["matrix"].contains("tflops"));
  const ComputePeaks p = ComputePeaks::of(f);
  EXPECT_DOUBLE_EQ(p.f32, 61.5);
  EXPECT_LT(p.f16, 0);
  EXPECT_LT(p.matrix, 0);
}

TEST(FmaKernels, ShapesAndWgsl) {
  const auto f32 = FmaRoofline::fmaShapes("f32", 256);
  ASSERT_FALSE(f32.empty());
  for (const auto& s : f32) {
    EXPECT_LE(s.workgroupSize, 256u);
    EXPECT_EQ(s.chains * s.unroll, 32u) << s.name();
  }
  const FmaShape sh{"f16", 2, 16, 2, 128};
  EXPECT_EQ(sh.name(), "vec2x16/wg128");
  EXPECT_DOUBLE_EQ(sh.flopsPerInvocationPerIteration(), 2.0 * 2 * 16 * 2);
  const std::string w = FmaRoofline::fmaWgsl(sh);
  EXPECT_EQ(w.rfind("enable f16;\n", 0), 0u);
  EXPECT_NE(w.find("@workgroup_size(128)"), std::string::npos);
  EXPECT_NE(w.find("var a15 = vec2<f16>("), std::string::npos);
  EXPECT_EQ(w.find("var a16 "), std::string::npos);
  // Each chain updated `unroll` times per iteration, and every chain in the value that decides the store.
  size_t n = 0;
  for (size_t p = w.find("a7 = fma(a7, m, c);"); p != std::string::npos;
       p = w.find("a7 = fma(a7, m, c);", p + 1))
    ++n;
  EXPECT_EQ(n, 2u);
  EXPECT_NE(w.find("+ a15;"), std::string::npos);
  EXPECT_NE(w.find("if (total == params.sentinel)"), std::string::npos);
  EXPECT_EQ(FmaRoofline::fmaWgsl({"f32", 4, 8, 4, 256}).find("enable f16"), std::string::npos);
  // The mul-add spelling of a shape.
  const FmaShape mad{"f16", 4, 16, 2, 128, true};
  EXPECT_EQ(mad.name(), "vec4x16/wg128 mul-add");
  EXPECT_NE(FmaRoofline::fmaWgsl(mad).find("a3 = a3 * m + c;"), std::string::npos);
  EXPECT_EQ(FmaRoofline::fmaWgsl(mad).find("fma("), std::string::npos);
}

TEST(FmaKernels, MatrixShapesFromTheProfile) {
  const DeviceProfile h200 =
      DeviceProfile::load(std::string(WGK_SOURCE_DIR) + "/tests/data/profiles/h200.json");
  const auto shapes = FmaRoofline::matrixShapes(h200);
  ASSERT_FALSE(shapes.empty());
  for (const auto& s : shapes) {
    // f16 inputs with f32 results (what a MatMul accumulates in), workgroups of whole subgroups.
    EXPECT_EQ(s.config.componentType, "f16");
    EXPECT_EQ(s.config.resultComponentType, "f32");
    EXPECT_EQ(s.workgroupSize % 32, 0u);
  }
  const MatrixShape sh{{"f16", "f32", 16, 8, 16}, 4, 32};
  EXPECT_EQ(sh.name(), "f16->f32 16x8x16 acc4/wg32");
  const std::string t = FmaRoofline::matrixWgsl(sh, MatrixStoreSyntax::TemplateLayout);
  EXPECT_NE(t.find("enable chromium_experimental_subgroup_matrix;"), std::string::npos);
  EXPECT_NE(t.find("subgroup_matrix_left<f16, 16, 16>"), std::string::npos);   // K columns, M rows
  EXPECT_NE(t.find("subgroup_matrix_right<f16, 8, 16>"), std::string::npos);   // N columns, K rows
  EXPECT_NE(t.find("subgroup_matrix_result<f32, 8, 16>"), std::string::npos);  // N columns, M rows
  EXPECT_NE(t.find("c3 = subgroupMatrixMultiplyAccumulate(l1, r, c3);"), std::string::npos);
  EXPECT_NE(t.find("subgroupMatrixStore<row_major>(&scratch, 384u, c3, 8u);"), std::string::npos);
  const std::string b = FmaRoofline::matrixWgsl(sh, MatrixStoreSyntax::BoolArgument);
  EXPECT_NE(b.find("subgroupMatrixStore(&scratch, 384u, c3, false, 8u);"), std::string::npos);
  // No config, no feature: nothing to time.
  DeviceProfile none = h200;
  none.subgroupMatrixConfigs.clear();
  EXPECT_TRUE(FmaRoofline::matrixShapes(none).empty());
}

// An H200-like MatMul run: a compute-bound square, a memory-bound GEMV and its transposed twin
// (same bytes), torch peers for all three.
nlohmann::json matmulEvidence() {
  auto m = [](const std::string& name, uint64_t bytes, double flops, double us, const std::string& bound) {
    nlohmann::json j = {{"package", "ai.onnx.MatMul"},
                        {"case", name},
                        {"variant", "v"},
                        {"default", true},
                        {"bytes", bytes},
                        {"flops", flops},
                        {"gpuUsMedian", us},
                        {"gbps", bytes / us / 1e3},
                        {"copyGbps", kCopy},
                        {"rooflineRatio", bytes / us / 1e3 / kCopy},
                        {"tflops", flops / us / 1e6},
                        {"bound", bound}};
    if (bound == "compute") {
      j["fmaPeakTflops"] = 120.0;
      j["ofFmaPeak"] = flops / us / 1e6 / 120;
      j["matrixPeakTflops"] = 600.0;
      j["ofMatrixPeak"] = flops / us / 1e6 / 600;
    }
    return j;
  };
  const uint64_t gemvBytes = 2ull * (4096 + 4096ull * 11008 + 11008);
  return {{"format", "wgk-bench/2"},
          {"device", {{"adapterInfo", {{"device", "NVIDIA H200"}}}}},
          {"measurements",
           {m("prefill_mm_4096x4096x4096_f16", 3ull * 4096 * 4096 * 2, 2.0 * 4096 * 4096 * 4096, 458.0,
              "compute"),
            m("decode_gemv_4096x11008_f16", gemvBytes, 2.0 * 4096 * 11008, 25.0, "memory"),
            m("decode_gemv_11008x4096_f16", gemvBytes, 2.0 * 4096 * 11008, 30.0, "memory")}}};
}

nlohmann::json matmulPeers() {
  const uint64_t gemvBytes = 2ull * (4096 + 4096ull * 11008 + 11008);
  return {{"device", "NVIDIA H200"},
          {"cases",
           {{{"op", "MatMul"},
             {"case", "prefill_mm_4096x4096x4096_f16"},
             {"bytes", 3ull * 4096 * 4096 * 2},
             {"flops", 2.0 * 4096 * 4096 * 4096},
             {"eager_us", 229.0}},
            {{"op", "MatMul"},
             {"case", "decode_gemv_4096x11008_f16"},
             {"bytes", gemvBytes},
             {"eager_us", 24.0},
             {"eager_GBps", gemvBytes / 24.0 / 1e3}},
            {{"op", "MatMul"},
             {"case", "decode_gemv_11008x4096_f16"},
             {"bytes", gemvBytes},
             {"eager_us", 27.0},
             {"eager_GBps", gemvBytes / 27.0 / 1e3}}}}};
}

TEST(ComputeReport, PeersMatchByCaseNameBeforeBytes) {
  const Peers p = parsePeers(matmulPeers(), "peers.json");
  const uint64_t gemvBytes = 2ull * (4096 + 4096ull * 11008 + 11008);
  ASSERT_NE(p.find("ai.onnx.MatMul", gemvBytes, "decode_gemv_4096x11008_f16"), nullptr);
  EXPECT_DOUBLE_EQ(p.find("ai.onnx.MatMul", gemvBytes, "decode_gemv_4096x11008_f16")->eagerUs, 24.0);
  EXPECT_DOUBLE_EQ(p.find("ai.onnx.MatMul", gemvBytes, "decode_gemv_11008x4096_f16")->eagerUs, 27.0);
  // An unknown name falls back to the bytes; a name with other bytes does not match by name.
  EXPECT_NE(p.find("ai.onnx.MatMul", gemvBytes, "other"), nullptr);
  EXPECT_EQ(p.find("ai.onnx.MatMul", 12, "decode_gemv_4096x11008_f16"), nullptr);
  // TFLOPS from flops and time when the file gives no TFLOPS.
  const PeerRow* sq = p.find("ai.onnx.MatMul", 3ull * 4096 * 4096 * 2, "prefill_mm_4096x4096x4096_f16");
  ASSERT_NE(sq, nullptr);
  EXPECT_NEAR(sq->eagerTflops, 2.0 * 4096 * 4096 * 4096 / 229.0 / 1e6, 1e-9);
  EXPECT_DOUBLE_EQ(sq->bestUs(), 229.0);
}

TEST(ComputeReport, MarkdownShowsTflopsForComputeBoundRows) {
  auto model = ReportModel::build({parseEvidence(matmulEvidence(), "mm.json")},
                                  parsePeers(matmulPeers(), "peers.json"));
  ASSERT_EQ(model.cases.size(), 3u);
  EXPECT_TRUE(model.cases[0].computeBound(0));
  EXPECT_FALSE(model.cases[1].computeBound(0));
  const std::string md = renderMarkdown(model);
  EXPECT_NE(md.find("| GFLOP | bound |"), std::string::npos) << md;
  EXPECT_NE(md.find("| TFLOPS | of FMA peak | of matrix peak | torch | vs torch |"), std::string::npos);
  // 137.4 GFLOP in 458 us = 300 TFLOPS: 250% of the f16 FMA peak, 50.0% of the matrix peak;
  // cuBLAS 600 TFLOPS, 0.50x.
  EXPECT_NE(
      md.find("| prefill_mm_4096x4096x4096_f16 | 96.00 | 137.4 | compute | v * | 458.00 | 220 | - | 300 | "
              "250.1% | 50.0% | 600 TFLOPS | 0.50x |"),
      std::string::npos)
      << md;
  // The GEMV: GB/s and the share of copy; torch in GB/s, its own twin's time apart.
  EXPECT_NE(
      md.find("| decode_gemv_4096x11008_f16 | 86.03 | 0.090 | memory | v * | 25.00 | 3,608 | 90.2% | - | - "
              "| - | 3,759 GB/s | 0.96x |"),
      std::string::npos)
      << md;
  EXPECT_NE(
      md.find("| decode_gemv_11008x4096_f16 | 86.03 | 0.090 | memory | v * | 30.00 | 3,007 | 75.2% | - | - "
              "| - | 3,341 GB/s | 0.90x |"),
      std::string::npos)
      << md;
}

TEST(ComputeReport, HtmlAndSummaryUseThePeakForComputeBoundRows) {
  auto model = ReportModel::build({parseEvidence(matmulEvidence(), "mm.json")},
                                  parsePeers(matmulPeers(), "peers.json"));
  const std::string html = renderHtml(model);
  EXPECT_NE(html.find("300 TFLOPS \xC2\xB7 250% of FMA peak \xC2\xB7 50% of matrix peak"), std::string::npos)
      << html;
  EXPECT_NE(html.find("matrix peak 600 TFLOPS"), std::string::npos);  // the dashed line
  EXPECT_NE(html.find(">600 TFLOPS<"), std::string::npos);            // torch's bar
  EXPECT_NE(html.find("0.50\xC3\x97 torch eager's speed"), std::string::npos);
  EXPECT_NE(html.find("compute-bound: worst share of peak"), std::string::npos);
  const auto sum = summarize(model);
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(sum[0].computeCases, 1);
  EXPECT_NEAR(sum[0].worstPeakShare, 2.0 * 4096 * 4096 * 4096 / 458.0 / 1e6 / 600, 1e-9);
  EXPECT_EQ(sum[0].worstCase, "decode_gemv_11008x4096_f16");  // the copy share: memory-bound rows only
  EXPECT_NEAR(sum[0].worstShare, 0.7516, 1e-3);
}

}  // namespace
}  // namespace wgk::harness

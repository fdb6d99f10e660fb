#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "harness/report_model.h"
#include "harness/report_summary.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {

const std::string kDir = WGK_REPORT_FIXTURES;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// The same fixture as a second device, to check columns.
Evidence otherDevice() {
  Evidence e = loadEvidence(kDir + "/fixture_evidence.json");
  nlohmann::json doc = e.doc;
  doc["device"]["adapterInfo"]["description"] = "llvmpipe (LLVM 19, 256 bits)";
  doc["device"]["adapterInfo"]["vendor"] = "mesa";
  doc["measurements"].erase(2);
  return parseEvidence(doc, "lavapipe.json");
}

TEST(Report, LoadsEvidenceAndNamesTheDevice) {
  Evidence e = loadEvidence(kDir + "/fixture_evidence.json");
  EXPECT_EQ(e.device, "NVIDIA H200");
  EXPECT_EQ(e.date, "2026-11-30T10:00:00Z");
}

TEST(Report, RejectsFilesThatAreNotEvidence) {
  EXPECT_THROW(parseEvidence(nlohmann::json{{"format", "wgk-tuning/1"}}, "x.json"), Error);
  EXPECT_THROW(parseEvidence(nlohmann::json{{"format", "wgk-bench/1"}, {"measurements", 3}}, "x.json"),
               Error);
  EXPECT_THROW(
      parseEvidence(nlohmann::json{{"format", "wgk-bench/1"}, {"measurements", {{{"case", "a"}}}}}, "x"),
      Error);
  try {
    loadEvidence(kDir + "/CMakeLists.txt");
    FAIL() << "a CMake file parsed as evidence";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Parse);
    EXPECT_NE(std::string(e.what()).find("CMakeLists.txt"), std::string::npos);
  }
  EXPECT_THROW(loadEvidence(kDir + "/missing.json"), Error);
}

TEST(Report, GroupsCasesWithOneColumnPerDevice) {
  auto model =
      ReportModel::build({loadEvidence(kDir + "/fixture_evidence.json"), otherDevice()}, std::nullopt);
  ASSERT_EQ(model.devices.size(), 2u);
  ASSERT_EQ(model.ops, std::vector<std::string>{"ai.onnx.RMSNormalization"});
  ASSERT_EQ(model.cases.size(), 2u);
  const CaseRow& big = model.cases[0];
  EXPECT_EQ(big.caseName, "peer_16384x8192_f16");
  ASSERT_EQ(big.byDevice.size(), 2u);
  EXPECT_EQ(big.byDevice[0].size(), 2u);
  EXPECT_EQ(big.byDevice[1].size(), 2u);
  EXPECT_DOUBLE_EQ(big.byDevice[0][0].gbps, 4000.6);
  EXPECT_DOUBLE_EQ(big.byDevice[0][1].coldMs, -1);  // null in the file: not measured
  EXPECT_TRUE(model.cases[1].byDevice[1].empty());  // the smoke case only ran on the first device
}

TEST(Report, HtmlIsSelfContainedWithInlineSvg) {
  auto model = ReportModel::build({loadEvidence(kDir + "/fixture_evidence.json"), otherDevice()},
                                  loadPeers(kDir + "/fixture_peers.json"));
  const std::string html = renderHtml(model);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  // The op's scatter chart, then the big case: one chart per device plus the torch peer chart; the
  // smoke case has only an error.
  EXPECT_EQ(count(html, "role=\"img\""), 4u);
  EXPECT_EQ(count(html, "<svg"), count(html, "</svg>"));
  EXPECT_NE(html.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(html.find("llvmpipe (LLVM 19, 256 bits)"), std::string::npos);
  EXPECT_NE(html.find("torch.compile"), std::string::npos);
  EXPECT_NE(html.find("copy 4,130"), std::string::npos);                         // the run's roofline line
  EXPECT_NE(html.find(">4,001 GB/s \xC2\xB7 97% of copy<"), std::string::npos);  // GB/s and share of roofline
  // Nothing fetched: no scripts, links or external resources.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  // Text from the evidence is escaped.
  EXPECT_NE(html.find("smoke&lt;2x64&gt;"), std::string::npos);
  EXPECT_EQ(html.find("smoke<2x64>"), std::string::npos);
}

TEST(Report, MarkdownHasTheRatiosAgainstCopyAndTorchCompile) {
  auto model = ReportModel::build({loadEvidence(kDir + "/fixture_evidence.json")},
                                  loadPeers(kDir + "/fixture_peers.json"));
  const std::string md = renderMarkdown(model);
  EXPECT_NE(md.find("### RMSNormalization on NVIDIA H200, 2026-11-30"), std::string::npos);
  // row_vec4: 4000.6 GB/s = 96.9% of copy, 0.96x torch.compile's 4155.5 GB/s; picked by priority (*).
  EXPECT_NE(
      md.find(
          "| peer_16384x8192_f16 | 512.02 | row_vec4 * | 134.20 | 4,001 | 4,130 | 96.9% | 4,156 | 0.96x | "
          "12.5 | 41.5 |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("| row_scalar | 268.40 | 2,000 |"), std::string::npos);
  // An error row keeps the table intact: no raw '|' from the message.
  EXPECT_NE(md.find("error: variant row_scalar failed / badly"), std::string::npos) << md;
}

TEST(Report, PeersMatchByShortOpNameAndBytes) {
  Peers p = loadPeers(kDir + "/fixture_peers.json");
  EXPECT_DOUBLE_EQ(p.copyGbps, 4129.0);
  ASSERT_NE(p.find("ai.onnx.RMSNormalization", 536887296), nullptr);
  EXPECT_DOUBLE_EQ(p.find("ai.onnx.RMSNormalization", 536887296)->compileGbps, 4155.5);
  EXPECT_EQ(p.find("ai.onnx.RMSNormalization", 640), nullptr);
  const PeerRow* failed = p.find("com.microsoft.FastGelu", 98304);
  ASSERT_NE(failed, nullptr);
  EXPECT_LT(failed->compileGbps, 0);  // compile_error: no number
  EXPECT_THROW(parsePeers(nlohmann::json{{"device", "x"}}, "p.json"), Error);
}

TEST(Report, NumbersHaveThousandsSeparators) {
  EXPECT_EQ(fixed(4103.4, 0), "4,103");
  EXPECT_EQ(fixed(1234567.891, 2), "1,234,567.89");
  EXPECT_EQ(fixed(-1234.5, 1), "-1,234.5");
  EXPECT_EQ(fixed(999, 0), "999");
  EXPECT_EQ(htmlEscape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

// Issue 17: the product name, not the driver string ("NVIDIA: 580.159.04 ...").
TEST(Report, DeviceIsTheProductName) {
  nlohmann::json dev = {
      {"adapterInfo", {{"description", "NVIDIA: 580.159.04 580.159.4.0"}, {"device", "NVIDIA H200"}}}};
  EXPECT_EQ(productName(dev), "NVIDIA H200");
  EXPECT_EQ(productName(nlohmann::json::object()), "unknown device");
}

// Version 2 (camelCase) and version 1 (snake_case) evidence read into the same numbers.
TEST(Report, ReadsBothEvidenceSpellings) {
  nlohmann::json v2 = loadEvidence(kDir + "/fixture_evidence.json").doc;
  v2["format"] = "wgk-bench/2";
  for (auto& m : v2["measurements"]) {
    nlohmann::json c = nlohmann::json::object();
    for (auto& [k, v] : m.items()) {
      std::string key;
      for (size_t i = 0; i < k.size(); ++i)
        key += k[i] == '_' && i + 1 < k.size() ? static_cast<char>(std::toupper(k[++i])) : k[i];
      c[key == "copyGbps" || key == "gbps" ? key : key] = v;
    }
    m = c;
  }
  ASSERT_TRUE(v2["measurements"][0].contains("gpuUsMedian"));
  auto a = ReportModel::build({loadEvidence(kDir + "/fixture_evidence.json")}, std::nullopt);
  auto b = ReportModel::build({parseEvidence(v2, "v2.json")}, std::nullopt);
  const Cell &x = a.cases[0].byDevice[0][0], &y = b.cases[0].byDevice[0][0];
  EXPECT_DOUBLE_EQ(y.gpuUs, 134.2);
  EXPECT_DOUBLE_EQ(x.gpuUs, y.gpuUs);
  EXPECT_DOUBLE_EQ(x.ratio, y.ratio);
  EXPECT_DOUBLE_EQ(x.copyGbps, y.copyGbps);
  EXPECT_DOUBLE_EQ(x.wallUs, y.wallUs);
  EXPECT_DOUBLE_EQ(x.coldMs, y.coldMs);
}

// Chain evidence: version 2 (camelCase, what `wgk chain --out` writes) and version 1 (snake_case,
// before 2026-12-01) give the same table; any other format is refused.
TEST(Report, ReadsBothChainEvidenceSpellings) {
  const nlohmann::json v1 = nlohmann::json::parse(R"({"format": "wgk-chain/1", "device": {},
    "chains": [{"name": "ai.onnx.Add/decode", "warm_call_us_median": 4.5,
      "modes": {"unbatched": {"per_op_us_median": 7.5}, "batched": {"per_op_us_median": 2.5},
                "replayed": {"per_op_us_median": 1.5}}}]})");
  const nlohmann::json v2 = nlohmann::json::parse(R"({"format": "wgk-chain/2", "device": {},
    "chains": [{"name": "ai.onnx.Add/decode", "warmCallUsMedian": 4.5,
      "modes": {"unbatched": {"perOpUsMedian": 7.5}, "batched": {"perOpUsMedian": 2.5},
                "replayed": {"perOpUsMedian": 1.5}}}]})");
  for (const auto* doc : {&v1, &v2}) {
    const ChainTable t = parseChainEvidence(*doc, "chain.json");
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(t.rows[0].name, "ai.onnx.Add/decode");
    EXPECT_DOUBLE_EQ(t.rows[0].warmCall, 4.5);
    EXPECT_DOUBLE_EQ(t.rows[0].unbatched, 7.5);
    EXPECT_DOUBLE_EQ(t.rows[0].batched, 2.5);
    EXPECT_DOUBLE_EQ(t.rows[0].replayed, 1.5);
  }
  nlohmann::json v3 = v2;
  v3["format"] = "wgk-chain/3";
  EXPECT_THROW(parseChainEvidence(v3, "chain.json"), Error);
}

// The committed H200 evidence (format 1) still renders: every op, summary, ratios to torch.compile.
TEST(Report, OldH200EvidenceStillRenders) {
  const std::string dir = std::string(WGK_SOURCE_DIR) + "/docs/evidence/";
  auto model = ReportModel::build({loadEvidence(dir + "h200-2026-11-29.json")},
                                  loadPeers(dir + "h200-2026-11-29-torch-peers.json"));
  EXPECT_EQ(model.devices[0].rfind("NVIDIA H200", 0), 0u) << model.devices[0];
  EXPECT_EQ(model.ops.size(), 3u);
  const std::string html = renderHtml(model);
  EXPECT_NE(html.find("<h2>Summary</h2>"), std::string::npos);
  EXPECT_NE(html.find("torch.compile's speed"), std::string::npos);
  EXPECT_NE(html.find("Legend"), std::string::npos);
  EXPECT_EQ(html.find("NVIDIA: 580"), std::string::npos);  // no driver string as the device
  EXPECT_EQ(html.find(">0 GB/s"), std::string::npos);      // decode rows are in microseconds
  EXPECT_NE(html.find(" \xC2\xB5s"), std::string::npos);
  const auto sum = summarize(model);
  ASSERT_EQ(sum.size(), 3u);
  for (const auto& r : sum) {
    EXPECT_GT(r.cases, 0);
    EXPECT_GT(r.worstShare, 0);
    EXPECT_GE(r.geomeanShare, r.worstShare);
    EXPECT_GT(r.geomeanVsCompile, 0) << r.op;
  }
}

TEST(Report, SummaryAndRowsUseThePickedVariant) {
  auto model = ReportModel::build({loadEvidence(kDir + "/fixture_evidence.json")},
                                  loadPeers(kDir + "/fixture_peers.json"));
  const auto sum = summarize(model);
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(sum[0].cases, 1);   // the big case (row_vec4, the default)
  EXPECT_EQ(sum[0].failed, 1);  // the smoke case only has an error
  EXPECT_NEAR(sum[0].worstShare, 0.9687, 1e-9);
  EXPECT_NEAR(sum[0].geomeanVsCompile, 129.2 / 134.2, 1e-9);
  const std::string html = renderHtml(model);
  EXPECT_NE(html.find("row_vec4: 0.96\xC3\x97 torch.compile's speed"), std::string::npos) << html;
}

TEST(Report, SkippedCellsSayWhyAndDecodeRowsAreMicroseconds) {
  nlohmann::json doc = loadEvidence(kDir + "/fixture_evidence.json").doc;
  doc["measurements"].push_back({{"package", "ai.onnx.RMSNormalization"},
                                 {"case", "huge"},
                                 {"variant", ""},
                                 {"bytes", 1ull << 33},
                                 {"skipped",
                                  "input 'x' has 4294967296 bytes, more than the "
                                  "device's maxStorageBufferBindingSize"}});
  doc["measurements"].push_back({{"package", "ai.onnx.RMSNormalization"},
                                 {"case", "decode_1x64"},
                                 {"variant", "row_vec4"},
                                 {"bytes", 640},
                                 {"gpuUsMedian", 7.5},
                                 {"gbps", 0.085},
                                 {"rooflineRatio", 0.9},
                                 {"copyGbps", 0.095}});
  const std::string html = renderHtml(ReportModel::build({parseEvidence(doc, "x.json")}, std::nullopt));
  EXPECT_NE(html.find("skipped: input 'x' has 4294967296 bytes"), std::string::npos);
  EXPECT_NE(html.find(">7.5 \xC2\xB5s \xC2\xB7 90% of copy<"), std::string::npos);
  EXPECT_EQ(summarize(ReportModel::build({parseEvidence(doc, "x.json")}, std::nullopt))[0].skipped, 1);
}

// The page's text without the hover titles (which give every unit of a bar).
std::string withoutTitles(std::string s) {
  for (size_t a = s.find("<title>"); a != std::string::npos; a = s.find("<title>", a)) {
    const size_t b = s.find("</title>", a);
    s.erase(a, b == std::string::npos ? std::string::npos : b + 8 - a);
  }
  return s;
}

// Issue 29 item 5: GB/s (longer is better) and microseconds (shorter is better) never share a
// table; every table and chart says which way is better; one scale per table; no sentinels.
TEST(Report, UnitsNeverShareATableAndChartsSayWhichWayIsBetter) {
  const std::string dir = std::string(WGK_SOURCE_DIR) + "/docs/evidence/";
  auto model = ReportModel::build({loadEvidence(dir + "h200-2026-11-29.json")},
                                  loadPeers(dir + "h200-2026-11-29-torch-peers.json"));
  const std::string html = withoutTitles(renderHtml(model));
  int gbpsTables = 0, usTables = 0;
  for (size_t a = html.find("<p class=\"cap\">"); a != std::string::npos;
       a = html.find("<p class=\"cap\">", a + 1)) {
    const size_t end = html.find("</table>", a);
    const std::string table = html.substr(a, end - a);
    const bool gbps = table.find(" GB/s") != std::string::npos,
               us = table.find("\xC2\xB5s") != std::string::npos;
    EXPECT_FALSE(gbps && us) << table.substr(0, 300);
    gbpsTables += gbps, usTables += us;
    EXPECT_TRUE(table.find("longer is better") != std::string::npos ||
                table.find("shorter is better") != std::string::npos);
    // One scale: every bar chart of the table names the same caption scale; its plot widths
    // come from one maximum, so the longest bar of the table is the only full-width one.
    EXPECT_NE(table.find("One scale for the whole table"), std::string::npos);
  }
  EXPECT_EQ(gbpsTables, 3);  // one per op
  EXPECT_EQ(usTables, 3);
  EXPECT_EQ(count(html, "higher is better"), 3u);  // the three scatter charts
  EXPECT_EQ(html.find(">0 GB/s"), std::string::npos);
  EXPECT_EQ(html.find(">-1"), std::string::npos);
  EXPECT_EQ(html.find(" -1 "), std::string::npos);
}

// A peers file without copy_1GiB (torch_chain_peers.py) names no copy roofline ("copy 1 GiB -1").
TEST(Report, ChainsAreGroupedBarsWithTargetsAndMisses) {
  const nlohmann::json chain = nlohmann::json::parse(R"({"format": "wgk-chain/2",
    "device": {"adapterInfo": {"device": "NVIDIA H200", "description": "NVIDIA: 580.159.04"}},
    "targets": {"batchedUsPerOp": 3, "replayedUsPerOp": 2, "unbatchedUsPerOp": 8, "warmCallUs": 5},
    "chains": [{"name": "ai.onnx.Add/decode", "warmCallUsMedian": 4.5,
      "modes": {"unbatched": {"perOpUsMedian": 14.0}, "batched": {"perOpUsMedian": 2.5},
                "replayed": {"perOpUsMedian": 1.5}}}]})");
  const nlohmann::json peers = nlohmann::json::parse(R"({"device": "NVIDIA H200", "cases": [],
    "chains": [{"name": "ai.onnx.Add/decode", "eager_us_per_op": 7.8, "graph_us_per_op": 1.2}]})");
  auto model = ReportModel::build({}, parsePeers(peers, "p.json"));
  model.chains.push_back(parseChainEvidence(chain, "chain.json"));
  const std::string html = renderHtml(model);
  EXPECT_EQ(html.find("copy 1 GiB"), std::string::npos);
  EXPECT_EQ(html.find("NVIDIA: 580"), std::string::npos);
  EXPECT_NE(html.find("Targets met: unbatched 0 of 1, batched 1 of 1, replayed 1 of 1, warm call 1 of 1"),
            std::string::npos)
      << html;
  EXPECT_EQ(count(html, "class=\"mu miss\""), 1u);  // unbatched 14 > 8: the one miss
  EXPECT_EQ(count(html, "class=\"tgt\""), 4u);      // a target across each wgk bar
  EXPECT_NE(html.find(">14.0 \xC2\xB5s \xE2\x9C\x97 &gt; 8<"), std::string::npos);
  EXPECT_NE(html.find(">7.8 \xC2\xB5s<"), std::string::npos);  // torch eager
  EXPECT_NE(html.find(">1.2 \xC2\xB5s<"), std::string::npos);  // CUDA graph
  EXPECT_NE(html.find("shorter is better"), std::string::npos);
}

// Issue 27: a multi-pass measurement's "passes" (per-pass median GPU us) split its time in the
// Markdown table (a "passes" column, only where some cell has more than one pass) and under its
// HTML chart; a skipped pass says so; evidence without the field renders as before.
TEST(Report, MultiPassCellsShowTheirSplitByPass) {
  nlohmann::json doc = loadEvidence(kDir + "/fixture_evidence.json").doc;
  const std::string plain = renderMarkdown(ReportModel::build({parseEvidence(doc, "x.json")}, std::nullopt));
  EXPECT_EQ(plain.find("passes"), std::string::npos) << plain;
  doc["measurements"][0]["passes"] = {{{"id", "block_stats"}, {"gpuUsMedian", 40.0}},
                                      {{"id", "row_stats"}, {"gpuUsMedian", 0.0}, {"skipped", true}},
                                      {{"id", "normalize"}, {"gpuUsMedian", 60.0}}};
  doc["measurements"][1]["passes"] = {{{"id", "main"}, {"gpuUsMedian", 268.4}}};
  const ReportModel model = ReportModel::build({parseEvidence(doc, "x.json")}, std::nullopt);
  ASSERT_EQ(model.cases[0].byDevice[0][0].passes.size(), 3u);
  EXPECT_TRUE(model.cases[0].byDevice[0][0].passes[1].skipped);
  const std::string md = renderMarkdown(model);
  EXPECT_NE(md.find("| cold ms | passes |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 41.5 | block_stats 40.00 us (40.0%); row_stats skipped; normalize 60.00 us (60.0%) |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| row_scalar | 268.40 | 2,000 | 4,130 | 48.4% | - | - | - | - | - |"), std::string::npos)
      << "a single-pass cell: '-' in the passes column\n"
      << md;
  const std::string html = renderHtml(model);
  EXPECT_NE(
      html.find("<div class=\"meta passes\">row_vec4 passes: block_stats 40.00 us (40.0%) \xC2\xB7 row_stats "
                "skipped \xC2\xB7 normalize 60.00 us (60.0%)</div>"),
      std::string::npos)
      << html;
  EXPECT_EQ(count(html, "class=\"meta passes\""), 1u);
}

}  // namespace
}  // namespace wgk::harness

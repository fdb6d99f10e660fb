#include <gtest/gtest.h>

#include <string>

#include "harness/report_model.h"
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
  EXPECT_EQ(e.device, "NVIDIA H200 (nvidia hopper)");
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
  // The big case: one chart per device plus the torch peer chart; the smoke case has only an error.
  EXPECT_EQ(count(html, "<svg"), 3u);
  EXPECT_EQ(count(html, "<svg"), count(html, "</svg>"));
  EXPECT_NE(html.find("NVIDIA H200 (nvidia hopper)"), std::string::npos);
  EXPECT_NE(html.find("llvmpipe (LLVM 19, 256 bits)"), std::string::npos);
  EXPECT_NE(html.find("torch.compile"), std::string::npos);
  EXPECT_NE(html.find("copy 4,130"), std::string::npos);  // the run's roofline line
  EXPECT_NE(html.find(">4,001<"), std::string::npos);     // the variant's GB/s label
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
  EXPECT_NE(md.find("### RMSNormalization on NVIDIA H200 (nvidia hopper), 2026-11-30"), std::string::npos);
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

}  // namespace
}  // namespace wgk::harness

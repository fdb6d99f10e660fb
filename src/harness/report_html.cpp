// `wgk report --html`: one self-contained page (inline CSS and SVG, no scripts, no network).
// At the top a summary per op (share of the copy roofline, ratio to torch) and a legend; then per
// op one table: per case one row, per device one column holding a horizontal bar chart of the
// variants, the run's copy roofline as a dashed line, torch peers and the ratio to torch.compile.
// Bars are GB/s with the share of the roofline; decode-size rows (under 1 MiB moved) are charted
// in microseconds instead, where GB/s would read as zero. Compute-bound rows (bench.json flops
// above the device's ridge) are charted in TFLOPS with the shares of the FMA and matrix peaks, the
// highest peak as the dashed line, torch in TFLOPS too.
#include <algorithm>
#include <string>

#include "harness/report_model.h"
#include "harness/report_summary.h"

namespace wgk::harness {
namespace {

constexpr int kBarH = 16, kGap = 4, kPlotW = 240;
constexpr double kCharW = 7.0;  // a generous width of one 11px character: labels never clip

struct Bar {
  std::string label, cls;
  double value;       // GB/s or us, as the chart's unit says
  std::string text;   // printed after the bar
  std::string title;  // hover text
};

int textWidth(const std::string& s) {
  return static_cast<int>(static_cast<double>(s.size()) * kCharW) + 6;
}

// `roof`: the copy roofline in the chart's unit (0: none).
std::string svgChart(const std::vector<Bar>& bars, double roof, const std::string& roofText) {
  double maxV = roof;
  int labelW = 40, valueW = 30;
  for (const auto& b : bars) {
    maxV = std::max(maxV, b.value);
    labelW = std::max(labelW, textWidth(b.label));
    valueW = std::max(valueW, textWidth(b.text));
  }
  if (maxV <= 0) maxV = 1;
  const int roofW = roof > 0 ? textWidth(roofText) / 2 + 2 : 0;  // the centred roofline caption
  const int width = labelW + kPlotW + std::max(valueW, roofW) + 4;
  const int h = static_cast<int>(bars.size()) * (kBarH + kGap) + (roof > 0 ? 18 : 4);
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                  "\" height=\"" + std::to_string(h) + "\" role=\"img\">";
  int y = 2;
  for (const auto& b : bars) {
    const double w = std::max(0.0, b.value) / maxV * kPlotW;
    s += "<text x=\"" + std::to_string(labelW - 4) + "\" y=\"" + std::to_string(y + kBarH - 4) +
         "\" text-anchor=\"end\">" + htmlEscape(b.label) + "</text>";
    s += "<rect class=\"" + b.cls + "\" x=\"" + std::to_string(labelW) + "\" y=\"" + std::to_string(y) +
         "\" width=\"" + fixed(w, 1) + "\" height=\"" + std::to_string(kBarH) + "\"><title>" +
         htmlEscape(b.title) + "</title></rect>";
    s += "<text x=\"" + fixed(labelW + w + 3, 1) + "\" y=\"" + std::to_string(y + kBarH - 4) + "\">" +
         htmlEscape(b.text) + "</text>";
    y += kBarH + kGap;
  }
  if (roof > 0) {
    const double x = labelW + roof / maxV * kPlotW;
    s += "<line class=\"roof\" x1=\"" + fixed(x, 1) + "\" y1=\"0\" x2=\"" + fixed(x, 1) + "\" y2=\"" +
         std::to_string(y) + "\"/>";
    s += "<text class=\"roofl\" x=\"" + fixed(x, 1) + "\" y=\"" + std::to_string(y + 12) +
         "\" text-anchor=\"middle\">" + htmlEscape(roofText) + "</text>";
  }
  return s + "</svg>";
}

std::string gbpsText(double v) {
  return fixed(v, v >= 100 ? 0 : v >= 1 ? 1 : 3);
}
std::string usText(double v) {
  return fixed(v, v >= 100 ? 0 : 1) + " \xC2\xB5s";
}
std::string pct(double r) {
  return fixed(r * 100, r >= 0.1 ? 0 : 1) + "%";
}
std::string times(double r) {
  return fixed(r, r >= 10 ? 0 : 2) + "\xC3\x97";
}

std::string tflopsText(double v) {
  return fixed(v, v >= 100 ? 0 : v >= 1 ? 1 : 4) + " TFLOPS";
}

// A compute-bound variant: TFLOPS and the shares of the FMA and matrix peaks.
Bar computeBar(const Cell& c) {
  const std::string label = c.variant + (c.isDefault ? " *" : "");
  std::string share;
  if (c.ofFmaPeak >= 0) share += pct(c.ofFmaPeak) + " of FMA peak";
  if (c.ofMatrixPeak >= 0)
    share += (share.empty() ? "" : " \xC2\xB7 ") + pct(c.ofMatrixPeak) + " of matrix peak";
  const std::string title = label + ": " + usText(c.gpuUs) + ", " + tflopsText(c.tflops) + ", " +
                            gbpsText(c.gbps) + " GB/s" + (share.empty() ? "" : ", " + share);
  return {label, "v", c.tflops, tflopsText(c.tflops) + (share.empty() ? "" : " \xC2\xB7 " + share), title};
}

Bar variantBar(const Cell& c, bool decode) {
  const std::string label = c.variant + (c.isDefault ? " *" : "");
  const std::string share = c.ratio >= 0 ? pct(c.ratio) + " of copy" : "";
  const std::string title = label + ": " + usText(c.gpuUs) + ", " + gbpsText(c.gbps) + " GB/s" +
                            (share.empty() ? "" : ", " + share);
  if (decode)
    return {label, "v", c.gpuUs, usText(c.gpuUs) + (share.empty() ? "" : " \xC2\xB7 " + share), title};
  return {label, "v", c.gbps, gbpsText(c.gbps) + " GB/s" + (share.empty() ? "" : " \xC2\xB7 " + share),
          title};
}

std::string cellHtml(const CaseRow& row, const std::vector<Cell>& cells, const PeerRow* peer) {
  if (cells.empty()) return "<td class=\"none\">not measured</td>";
  const bool decode = isDecodeSize(row);
  bool compute = false;
  for (const auto& c : cells) compute = compute || (c.error.empty() && c.skipped.empty() && c.computeBound());
  std::vector<Bar> bars;
  double copyGbps = 0, fmaPeak = 0, matrixPeak = 0;
  std::string notes;
  for (const auto& c : cells) {
    if (!c.skipped.empty()) {
      notes += "<div class=\"skip\">" + htmlEscape(c.variant.empty() ? "skipped" : c.variant + ": skipped") +
               ": " + htmlEscape(c.skipped) + "</div>";
      continue;
    }
    if (!c.error.empty()) {
      notes += "<div class=\"err\">" + htmlEscape(c.variant + ": " + c.error) + "</div>";
      continue;
    }
    copyGbps = std::max(copyGbps, c.copyGbps);
    fmaPeak = std::max(fmaPeak, c.fmaPeak);
    matrixPeak = std::max(matrixPeak, c.matrixPeak);
    bars.push_back(compute ? computeBar(c) : variantBar(c, decode));
  }
  double roof = 0;
  std::string roofText;
  if (compute) {
    roof = std::max(fmaPeak, matrixPeak);
    if (roof > 0) roofText = (matrixPeak > fmaPeak ? "matrix peak " : "FMA peak ") + tflopsText(roof);
  } else if (copyGbps > 0) {
    roof = decode ? static_cast<double>(row.bytes) / copyGbps / 1e3 : copyGbps;
    roofText = "copy " + (decode ? usText(roof) : gbpsText(copyGbps) + " GB/s");
  }
  std::string s = "<td>";
  if (!bars.empty()) s += svgChart(bars, roof, roofText);
  if (const Cell* c = pickedCell(cells)) {
    // Against torch.compile where the peer has it, else torch eager (cuBLAS for MatMul).
    double r = vsCompile(*c, peer);
    std::string whose = "torch.compile's";
    if (r <= 0 && peer) r = vsTorch(*c, peer), whose = peer->bestLabel() + "'s";
    if (r > 0)
      s += "<div class=\"ratio " + std::string(r >= 1 ? "good" : "bad") + "\">" + htmlEscape(c->variant) +
           ": " + times(r) + " " + whose + " speed</div>";
  }
  return s + notes + "</td>";
}

std::string peerHtml(const Peers& peers, const CaseRow& row) {
  const PeerRow* p = peers.find(row.op, row.bytes, row.caseName);
  if (!p) return "<td class=\"none\">no peer</td>";
  const bool decode = isDecodeSize(row), compute = row.computeBoundAnywhere();
  std::vector<Bar> bars;
  auto add = [&](const char* label, const char* cls, double gbps, double us, double tflops) {
    if (gbps < 0 && us < 0) return;
    if (compute && tflops > 0) {
      bars.push_back({label, cls, tflops, tflopsText(tflops),
                      std::string(label) + ": " + usText(us) + ", " + tflopsText(tflops) + ", " +
                          gbpsText(gbps) + " GB/s"});
      return;
    }
    const std::string text = decode ? usText(us) : gbpsText(gbps) + " GB/s";
    bars.push_back({label, cls, decode ? us : gbps, text,
                    std::string(label) + ": " + usText(us) + ", " + gbpsText(gbps) + " GB/s"});
  };
  add("torch eager", "pe", p->eagerGbps, p->eagerUs, p->eagerTflops);
  add("torch CUDA graph", "pc", p->graphGbps, p->graphUs, p->graphTflops);
  add("torch.compile", "pc", p->compileGbps, p->compileUs, p->compileTflops);
  if (bars.empty()) return "<td class=\"none\">peer failed</td>";
  return "<td>" + svgChart(bars, 0, "") + "</td>";
}

std::string summaryHtml(const ReportModel& model) {
  const auto rows = summarize(model);
  if (rows.empty()) return "";
  bool compute = false;
  for (const auto& r : rows) compute = compute || r.computeCases > 0;
  std::string s =
      "<h2>Summary</h2>\n<table class=\"sum\"><tr><th>op</th><th>device</th><th>cases</th>"
      "<th>worst share of copy roofline</th><th>geometric mean share</th>";
  if (compute) s += "<th>compute-bound: worst share of peak</th><th>geometric mean share of peak</th>";
  if (model.peers) s += "<th>vs torch.compile (geo. mean)</th><th>vs torch eager (geo. mean)</th>";
  s += "</tr>\n";
  for (const auto& r : rows) {
    std::string cases = std::to_string(r.cases);
    if (r.skipped) cases += ", " + std::to_string(r.skipped) + " skipped";
    if (r.failed) cases += ", " + std::to_string(r.failed) + " failed";
    s += "<tr><td>" + htmlEscape(shortOp(r.op)) + "</td><td>" + htmlEscape(model.devices[r.device]) +
         "</td><td>" + cases + "</td><td class=\"n\">" +
         (r.worstShare >= 0
              ? pct(r.worstShare) + " <span class=\"meta\">(" + htmlEscape(r.worstCase) + ")</span>"
              : "-") +
         "</td><td class=\"n\">" + (r.geomeanShare >= 0 ? pct(r.geomeanShare) : "-") + "</td>";
    if (compute)
      s += "<td class=\"n\">" +
           (r.worstPeakShare >= 0
                ? pct(r.worstPeakShare) + " <span class=\"meta\">(" + htmlEscape(r.worstPeakCase) + ")</span>"
                : "-") +
           "</td><td class=\"n\">" + (r.geomeanPeakShare >= 0 ? pct(r.geomeanPeakShare) : "-") + "</td>";
    if (model.peers)
      s += "<td class=\"n\">" + (r.geomeanVsCompile > 0 ? times(r.geomeanVsCompile) : "-") +
           "</td><td class=\"n\">" + (r.geomeanVsEager > 0 ? times(r.geomeanVsEager) : "-") + "</td>";
    s += "</tr>\n";
  }
  return s +
         "</table>\n<p class=\"meta\">Per op: the variant the runtime picks (else the fastest) in each case. "
         "Share of the copy roofline = its GB/s over a copy kernel's on the same bytes in the same run" +
         std::string(compute ? " (memory-bound cases)" : "") + ". " +
         (compute
              ? "Share of peak (compute-bound cases: flops per byte above the ridge) = its TFLOPS over the "
                "highest FMA or matrix peak for its dtype, measured in the same run. "
              : "") +
         "vs torch = torch's GPU time over wgk's (above 1&times;: wgk is faster), over the cases with a peer."
         "</p>\n";
}

std::string legendHtml(bool peers, bool compute) {
  std::string s =
      "<div class=\"legend\"><b>Legend</b> "
      "<span><svg width=\"14\" height=\"10\"><rect class=\"v\" width=\"14\" height=\"10\"/></svg> wgk "
      "variant: "
      "GB/s of the minimum bytes moved (GPU timestamps, median) &middot; share of the copy roofline; "
      "decode-size rows (&lt; 1 MiB moved): GPU time in &micro;s (shorter is better)</span> "
      "<span><svg width=\"14\" height=\"10\"><line class=\"roof\" x1=\"7\" y1=\"0\" x2=\"7\" "
      "y2=\"10\"/></svg> "
      "copy roofline (GB/s, or &micro;s for the same bytes)</span> <span>* the variant the runtime "
      "picks</span>";
  if (compute)
    s += " <span>compute-bound rows (flops per byte above the ridge = peak FLOP/s over copy B/s): TFLOPS "
         "&middot; shares of the FMA and matrix peaks; the dashed line is the highest peak</span>";
  if (peers)
    s += " <span><svg width=\"14\" height=\"10\"><rect class=\"pe\" width=\"14\" height=\"10\"/></svg> torch "
         "eager</span> <span><svg width=\"14\" height=\"10\"><rect class=\"pc\" width=\"14\" "
         "height=\"10\"/></svg> "
         "torch.compile</span> <span>N&times; torch.compile's speed: its GPU time over the picked "
         "variant's</span>";
  return s + "</div>\n";
}

std::string opTable(const ReportModel& model, const std::string& op) {
  std::string s = "<h2>" + htmlEscape(op) + "</h2>\n<table><tr><th>case</th>";
  for (const auto& d : model.devices) s += "<th>" + htmlEscape(d) + "</th>";
  if (model.peers) s += "<th>torch (" + htmlEscape(model.peers->device) + ")</th>";
  s += "</tr>\n";
  for (const auto& row : model.cases) {
    if (row.op != op) continue;
    std::string tags;
    for (const auto& t : row.tags) tags += (tags.empty() ? "" : ", ") + t;
    const double mib = static_cast<double>(row.bytes) / (1 << 20);
    s += "<tr><td><b>" + htmlEscape(row.caseName) + "</b><div class=\"meta\">" +
         (mib >= 0.01 ? fixed(mib, 2) + " MiB" : fixed(static_cast<double>(row.bytes) / 1024, 1) + " KiB") +
         " moved" +
         (row.flops > 0 ? ", " + fixed(row.flops / 1e9, row.flops >= 1e9 ? 1 : 4) + " GFLOP" : "") +
         (tags.empty() ? "" : "<br>" + htmlEscape(tags)) + "</div></td>";
    const PeerRow* peer = peerFor(model, row);
    for (const auto& cells : row.byDevice) s += cellHtml(row, cells, peer);
    if (model.peers) s += peerHtml(*model.peers, row);
    s += "</tr>\n";
  }
  return s + "</table>\n";
}

}  // namespace

std::string renderHtml(const ReportModel& model) {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>wgk "
      "benchmarks</title>\n<style>"
      "body{font:14px "
      "system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin-bottom:8px}"
      "td,th{border:1px solid #ccc;padding:6px;vertical-align:top;text-align:left}th{background:#f4f4f4}"
      "td.n{text-align:right;white-space:nowrap}"
      "svg{overflow:visible}svg text{font:11px system-ui,sans-serif}"
      "rect.v{fill:#3b7dd8}rect.pe{fill:#bbb}rect.pc{fill:#e08a2c}"
      "line.roof{stroke:#c00;stroke-dasharray:4 3;stroke-width:1.5}text.roofl{fill:#c00}"
      ".err{color:#c00;font-size:12px}.skip{color:#777;font-size:12px}.none{color:#999}"
      ".meta{color:#555;font-size:12px}.ratio{font-size:12px;margin-top:2px}.good{color:#176f2c}.bad{color:#"
      "a33}"
      ".legend{font-size:12px;margin:12px 0;padding:8px;border:1px solid #ddd;background:#fafafa}"
      ".legend span{margin-right:14px;white-space:nowrap;display:inline-block}"
      "</style></head><body>\n<h1>wgk benchmarks</h1>\n<ul class=\"meta\">";
  for (size_t d = 0; d < model.devices.size(); ++d)
    s += "<li>" + htmlEscape(model.devices[d]) + " &mdash; " + htmlEscape(model.sources[d]) + "</li>";
  if (model.peers)
    s += "<li>torch peers: " + htmlEscape(model.peers->device) + " (copy 1 GiB " +
         fixed(model.peers->copyGbps, 0) + " GB/s)</li>";
  bool compute = false;
  for (const auto& row : model.cases) compute = compute || row.computeBoundAnywhere();
  s += "</ul>\n" + summaryHtml(model) + legendHtml(model.peers.has_value(), compute);
  for (const auto& op : model.ops) s += opTable(model, op);
  return s + renderChainsHtml(model) + "</body></html>\n";
}

}  // namespace wgk::harness

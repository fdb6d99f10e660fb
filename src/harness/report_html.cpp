// `wgk report --html`: one self-contained page (inline CSS and SVG, no scripts, no network).
// At the top a summary per op (share of the copy roofline, ratio to torch) and a legend; then per
// op a scatter chart of the share of the copy roofline against bytes moved (every variant, the
// runtime's pick filled, torch beside it), and tables of bar charts, one per unit so that GB/s
// (longer is better) and microseconds (shorter is better) never share a table: large cases in
// GB/s, decode-size cases (under 1 MiB moved) in microseconds, compute-bound cases (bench.json
// flops above the device's ridge) in TFLOPS. Every chart of a table is drawn on the table's one
// scale, which its caption names, with the copy roofline (or the highest peak) as a dashed line.
#include <algorithm>
#include <string>

#include "harness/report_model.h"
#include "harness/report_summary.h"
#include "harness/report_svg.h"

namespace wgk::harness {
namespace {

enum class Unit { Gbps, Us, Tflops };

Unit unitOf(const CaseRow& row) {
  return row.computeBoundAnywhere() ? Unit::Tflops : isDecodeSize(row) ? Unit::Us : Unit::Gbps;
}

// The bars of one case on one device (or of its torch peer), its roofline and its notes.
struct CellChart {
  std::vector<Bar> bars;
  double roof = 0;
  std::string roofText, notes;
  double scaleWanted = 0;  // what the table's scale must reach for this chart (not slow outliers)
};

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

Bar memoryBar(const Cell& c, Unit unit) {
  const std::string label = c.variant + (c.isDefault ? " *" : "");
  const std::string share = c.ratio >= 0 ? " \xC2\xB7 " + pct(c.ratio) + " of copy" : "";
  const std::string title = label + ": " + usText(c.gpuUs) + ", " + gbpsText(c.gbps) + " GB/s" + share;
  if (unit == Unit::Us) return {label, "v", c.gpuUs, usText(c.gpuUs) + share, title};
  return {label, "v", c.gbps, gbpsText(c.gbps) + " GB/s" + share, title};
}

CellChart deviceChart(const CaseRow& row, const std::vector<Cell>& cells, Unit unit) {
  CellChart ch;
  double copyGbps = 0, fmaPeak = 0, matrixPeak = 0;
  for (const auto& c : cells) {
    if (!c.skipped.empty()) {
      ch.notes += "<div class=\"skip\">" +
                  htmlEscape(c.variant.empty() ? "skipped" : c.variant + ": skipped") + ": " +
                  htmlEscape(c.skipped) + "</div>";
      continue;
    }
    if (!c.error.empty()) {
      ch.notes += "<div class=\"err\">" + htmlEscape(c.variant + ": " + c.error) + "</div>";
      continue;
    }
    copyGbps = std::max(copyGbps, c.copyGbps);
    fmaPeak = std::max(fmaPeak, c.fmaPeak);
    matrixPeak = std::max(matrixPeak, c.matrixPeak);
    ch.bars.push_back(unit == Unit::Tflops ? computeBar(c) : memoryBar(c, unit));
    if (c.multiPass())
      ch.notes += "<div class=\"meta passes\">" +
                  htmlEscape(c.variant + " passes: " + passSplitText(c, " \xC2\xB7 ")) + "</div>";
  }
  if (unit == Unit::Tflops) {
    ch.roof = std::max(fmaPeak, matrixPeak);
    if (ch.roof > 0)
      ch.roofText = (matrixPeak > fmaPeak ? "matrix peak " : "FMA peak ") + tflopsText(ch.roof);
  } else if (copyGbps > 0) {
    ch.roof = unit == Unit::Us ? static_cast<double>(row.bytes) / copyGbps / 1e3 : copyGbps;
    ch.roofText = "copy " + (unit == Unit::Us ? usText(ch.roof) : gbpsText(copyGbps) + " GB/s");
  }
  // The scale reaches the roofline and the runtime's pick; a far slower variant's bar may end in
  // a break mark with its number (GB/s bars never pass the roofline by much).
  ch.scaleWanted = ch.roof;
  if (const Cell* p = pickedCell(cells)) {
    for (const auto& b : ch.bars)
      if (b.label.rfind(p->variant, 0) == 0) ch.scaleWanted = std::max(ch.scaleWanted, b.value);
  }
  if (unit != Unit::Us)
    for (const auto& b : ch.bars) ch.scaleWanted = std::max(ch.scaleWanted, b.value);
  return ch;
}

CellChart peerChart(const Peers& peers, const CaseRow& row, Unit unit) {
  CellChart ch;
  const PeerRow* p = peers.find(row.op, row.bytes, row.caseName);
  if (!p) return ch;
  auto add = [&](const char* label, const char* cls, double gbps, double us, double tflops) {
    if (gbps <= 0 && us <= 0) return;
    const std::string title = std::string(label) + ": " + usText(us) + ", " + gbpsText(gbps) + " GB/s";
    if (unit == Unit::Tflops)
      ch.bars.push_back({label, cls, tflops, tflopsText(tflops), title + ", " + tflopsText(tflops)});
    else if (unit == Unit::Us)
      ch.bars.push_back({label, cls, us, usText(us), title});
    else
      ch.bars.push_back({label, cls, gbps, gbpsText(gbps) + " GB/s", title});
    ch.scaleWanted = std::max(ch.scaleWanted, ch.bars.back().value);
  };
  add("torch eager", "pe", p->eagerGbps, p->eagerUs, p->eagerTflops);
  add("torch CUDA graph", "pg", p->graphGbps, p->graphUs, p->graphTflops);
  add("torch.compile", "pc", p->compileGbps, p->compileUs, p->compileTflops);
  return ch;
}

std::string ratioHtml(const std::vector<Cell>& cells, const PeerRow* peer) {
  const Cell* c = pickedCell(cells);
  if (!c) return "";
  // Against torch.compile where the peer has it, else its best (CUDA graph, eager: cuBLAS).
  double r = vsCompile(*c, peer);
  std::string whose = "torch.compile's";
  if (r <= 0 && peer) r = vsTorch(*c, peer), whose = peer->bestLabel() + "'s";
  if (r <= 0) return "";
  return "<div class=\"ratio " + std::string(r >= 1 ? "good" : "bad") + "\">" + htmlEscape(c->variant) +
         ": " + times(r) + " " + whose + " speed</div>";
}

std::string tableCaption(Unit unit, double max) {
  switch (unit) {
    case Unit::Gbps:
      return "GB/s of the bytes moved, per variant: <b>longer is better</b>. Cases moving at least 1 MiB. "
             "One scale for the whole table, 0&ndash;" +
             gbpsText(max) + " GB/s; dashed: the copy roofline of the same bytes in the same run.";
    case Unit::Us:
      return "GPU time per call in &micro;s, per variant: <b>shorter is better</b>. Decode-size cases "
             "(under 1 MiB moved). One scale for the whole table, 0&ndash;" +
             usText(max) +
             " (a bar past it ends in a break mark); dashed: the time of a copy of the same bytes.";
    case Unit::Tflops:
      return "TFLOPS per variant: <b>longer is better</b>. Compute-bound cases (flops per byte above the "
             "ridge). One scale for the whole table, 0&ndash;" +
             tflopsText(max) + "; dashed: the highest FMA or matrix peak.";
  }
  return "";
}

std::string caseHeader(const CaseRow& row) {
  std::string tags;
  for (const auto& t : row.tags) tags += (tags.empty() ? "" : ", ") + t;
  return "<td><b>" + htmlEscape(row.caseName) + "</b><div class=\"meta\">" + bytesText(row.bytes) + " moved" +
         (row.flops > 0 ? ", " + fixed(row.flops / 1e9, row.flops >= 1e9 ? 1 : 4) + " GFLOP" : "") +
         (tags.empty() ? "" : "<br>" + htmlEscape(tags)) + "</div></td>";
}

// One table of an op: its cases in one unit, every chart on the table's scale.
std::string unitTable(const ReportModel& model, const std::string& op, Unit unit) {
  struct Row {
    const CaseRow* row;
    std::vector<CellChart> devices;
    CellChart peer;
  };
  std::vector<Row> rows;
  double max = 0;
  int labelW = 0;
  for (const auto& row : model.cases) {
    if (row.op != op || unitOf(row) != unit) continue;
    Row r{&row, {}, {}};
    for (const auto& cells : row.byDevice) r.devices.push_back(deviceChart(row, cells, unit));
    if (model.peers) r.peer = peerChart(*model.peers, row, unit);
    for (const auto& d : r.devices)
      max = std::max(max, d.scaleWanted), labelW = std::max(labelW, labelWidth(d.bars));
    max = std::max(max, r.peer.scaleWanted);
    labelW = std::max(labelW, labelWidth(r.peer.bars));
    rows.push_back(std::move(r));
  }
  if (rows.empty()) return "";
  max *= 1.04;  // room for the roofline caption at the right end
  std::string s = "<p class=\"cap\">" + tableCaption(unit, max) + "</p>\n<table><tr><th>case</th>";
  for (const auto& d : model.devices) s += "<th>" + htmlEscape(d) + "</th>";
  if (model.peers) s += "<th>torch (" + htmlEscape(model.peers->device) + ")</th>";
  s += "</tr>\n";
  for (const auto& r : rows) {
    s += "<tr>" + caseHeader(*r.row);
    const PeerRow* peer = peerFor(model, *r.row);
    for (size_t d = 0; d < r.devices.size(); ++d) {
      const CellChart& c = r.devices[d];
      if (r.row->byDevice[d].empty()) {
        s += "<td class=\"none\">not measured</td>";
        continue;
      }
      s += "<td>" + (c.bars.empty() ? "" : barChart(c.bars, {max, c.roof, c.roofText, labelW})) +
           ratioHtml(r.row->byDevice[d], peer) + c.notes + "</td>";
    }
    if (model.peers)
      s += r.peer.bars.empty() ? std::string("<td class=\"none\">") + (peer ? "n/a" : "no peer") + "</td>"
                               : "<td>" + barChart(r.peer.bars, {max, 0, "", labelW}) + "</td>";
    s += "</tr>\n";
  }
  return s + "</table>\n";
}

std::string opSection(const ReportModel& model, const std::string& op) {
  std::string s = "<h2>" + htmlEscape(op) + "</h2>\n" + opScatterHtml(model, op);
  for (Unit u : {Unit::Gbps, Unit::Us, Unit::Tflops}) s += unitTable(model, op, u);
  return s;
}

std::string summaryCell(double share, const std::string& whichCase) {
  return share >= 0 ? pct(share) + " <span class=\"meta\">(" + htmlEscape(whichCase) + ")</span>" : "n/a";
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
         "</td><td>" + cases + "</td><td class=\"n\">" + summaryCell(r.worstShare, r.worstCase) +
         "</td><td class=\"n\">" + (r.geomeanShare >= 0 ? pct(r.geomeanShare) : "n/a") + "</td>";
    if (compute)
      s += "<td class=\"n\">" + summaryCell(r.worstPeakShare, r.worstPeakCase) + "</td><td class=\"n\">" +
           (r.geomeanPeakShare >= 0 ? pct(r.geomeanPeakShare) : "n/a") + "</td>";
    if (model.peers)
      s += "<td class=\"n\">" + (r.geomeanVsCompile > 0 ? times(r.geomeanVsCompile) : "n/a") +
           "</td><td class=\"n\">" + (r.geomeanVsEager > 0 ? times(r.geomeanVsEager) : "n/a") + "</td>";
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

std::string swatch(const char* cls) {
  return "<svg width=\"14\" height=\"10\"><rect class=\"" + std::string(cls) +
         "\" width=\"14\" height=\"10\"/></svg> ";
}

std::string legendHtml(bool peers, bool compute, bool passes) {
  std::string s = "<div class=\"legend\"><b>Legend</b> <span>" + swatch("v") +
                  "wgk variant (GPU timestamps, median)</span> "
                  "<span><svg width=\"14\" height=\"10\"><line class=\"roof\" x1=\"7\" y1=\"0\" x2=\"7\" "
                  "y2=\"10\"/></svg> copy roofline: a copy kernel on the same bytes in the same run</span> "
                  "<span>* the variant the runtime picks</span> <span>GB/s tables: longer is better; "
                  "&micro;s tables: shorter is better</span>";
  if (passes)
    s += " <span>passes: a multi-pass call's GPU time by pass (median &micro;s each, share of their "
         "sum)</span>";
  if (compute)
    s += " <span>compute-bound rows (flops per byte above the ridge = peak FLOP/s over copy B/s): TFLOPS "
         "&middot; shares of the FMA and matrix peaks; the dashed line is the highest peak</span>";
  if (peers)
    s += " <span>" + swatch("pe") + "torch eager</span> <span>" + swatch("pg") +
         "torch CUDA graph</span> <span>" + swatch("pc") +
         "torch.compile</span> <span>N&times; torch.compile's speed: its GPU time over the picked "
         "variant's</span>";
  return s + "</div>\n";
}

const char* kStyle =
    "body{font:14px system-ui,sans-serif;margin:24px;color:#222}"
    "table{border-collapse:collapse;margin-bottom:18px}"
    "td,th{border:1px solid #ccc;padding:6px;vertical-align:top;text-align:left}th{background:#f4f4f4}"
    "td.n{text-align:right;white-space:nowrap}"
    "svg{overflow:visible}svg text{font:11px system-ui,sans-serif}"
    "rect.v{fill:#3b7dd8}rect.pe{fill:#aaa}rect.pg{fill:#8e5bb5}rect.pc{fill:#e08a2c}"
    "rect.mu{fill:#7aa6e0}rect.mb{fill:#3b7dd8}rect.mr{fill:#1f4f99}rect.mw{fill:#5bb08a}"
    "rect.miss{stroke:#c00;stroke-width:1.5}"
    "line.roof{stroke:#c00;stroke-dasharray:4 3;stroke-width:1.5}text.roofl{fill:#c00}"
    "line.tgt{stroke:#111;stroke-width:2}line.grid{stroke:#e4e4e4}line.axis{stroke:#888}"
    "path.cut{stroke:#fff;stroke-width:2}text.tick{fill:#555}text.cap{font-weight:600}"
    "text.gtitle{font-weight:600}text.miss{fill:#c00}"
    ".err{color:#c00;font-size:12px}.skip{color:#777;font-size:12px}.none{color:#999}"
    ".meta{color:#555;font-size:12px}.cap{font-size:13px;margin:6px 0}"
    ".ratio{font-size:12px;margin-top:2px}.good{color:#176f2c}.bad{color:#a33}"
    ".legend{font-size:12px;margin:12px 0;padding:8px;border:1px solid #ddd;background:#fafafa}"
    ".multiples{display:flex;flex-wrap:wrap;gap:10px 28px}"
    ".legend span{margin-right:14px;white-space:nowrap;display:inline-block}";

}  // namespace

std::string renderHtml(const ReportModel& model) {
  std::string s =
      std::string("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>wgk ") +
      "benchmarks</title>\n<style>" + kStyle + "</style></head><body>\n<h1>wgk benchmarks</h1>\n" +
      "<ul class=\"meta\">";
  for (size_t d = 0; d < model.devices.size(); ++d)
    s += "<li>" + htmlEscape(model.devices[d]) + " &mdash; " + htmlEscape(model.sources[d]) + "</li>";
  for (const auto& t : model.chains)
    s += "<li>chains: " + htmlEscape(t.device) + " &mdash; " + htmlEscape(t.source) + "</li>";
  if (model.peers) {
    s += "<li>torch peers: " + htmlEscape(model.peers->device);
    if (model.peers->copyGbps > 0) s += " (copy 1 GiB " + fixed(model.peers->copyGbps, 0) + " GB/s)";
    s += "</li>";
  }
  bool compute = false, passes = false;
  for (const auto& row : model.cases) {
    compute = compute || row.computeBoundAnywhere();
    for (const auto& cells : row.byDevice)
      for (const auto& c : cells) passes = passes || c.multiPass();
  }
  s += "</ul>\n" + summaryHtml(model);
  if (!model.ops.empty()) s += legendHtml(model.peers.has_value(), compute, passes);
  for (const auto& op : model.ops) s += opSection(model, op);
  return s + renderChainsHtml(model) + "</body></html>\n";
}

}  // namespace wgk::harness

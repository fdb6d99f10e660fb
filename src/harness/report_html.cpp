// `wgk report --html`: one self-contained page (inline CSS and SVG, no scripts, no network).
// Per op and case, one row; per device one column holding a horizontal bar chart of GB/s per
// variant, the copy roofline of that run as a dashed line, and torch peers when given.
#include <algorithm>
#include <string>

#include "harness/report_model.h"

namespace wgk::harness {
namespace {

constexpr int kWidth = 420, kLabel = 150, kBarH = 16, kGap = 4, kValueW = 70;

struct Bar {
  std::string label, cls;
  double gbps;
  std::string note;
};

std::string svgChart(const std::vector<Bar>& bars, double roof) {
  double maxV = roof;
  for (const auto& b : bars) maxV = std::max(maxV, b.gbps);
  if (maxV <= 0) maxV = 1;
  const int plotW = kWidth - kLabel - kValueW;
  const int h = static_cast<int>(bars.size()) * (kBarH + kGap) + 18;
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kWidth) +
                  "\" height=\"" + std::to_string(h) + "\" role=\"img\">";
  int y = 2;
  for (const auto& b : bars) {
    const double w = std::max(0.0, b.gbps) / maxV * plotW;
    s += "<text x=\"" + std::to_string(kLabel - 4) + "\" y=\"" + std::to_string(y + kBarH - 4) +
         "\" text-anchor=\"end\">" + htmlEscape(b.label) + "</text>";
    s += "<rect class=\"" + b.cls + "\" x=\"" + std::to_string(kLabel) + "\" y=\"" + std::to_string(y) +
         "\" width=\"" + fixed(w, 1) + "\" height=\"" + std::to_string(kBarH) + "\"><title>" +
         htmlEscape(b.label + ": " + b.note) + "</title></rect>";
    s += "<text x=\"" + fixed(kLabel + w + 3, 1) + "\" y=\"" + std::to_string(y + kBarH - 4) + "\">" +
         (b.gbps >= 0 ? fixed(b.gbps, 0) : std::string("error")) + "</text>";
    y += kBarH + kGap;
  }
  if (roof > 0) {
    const double x = kLabel + roof / maxV * plotW;
    s += "<line class=\"roof\" x1=\"" + fixed(x, 1) + "\" y1=\"0\" x2=\"" + fixed(x, 1) + "\" y2=\"" +
         std::to_string(y) + "\"/>";
    s += "<text class=\"roofl\" x=\"" + fixed(x, 1) + "\" y=\"" + std::to_string(y + 12) +
         "\" text-anchor=\"middle\">copy " + fixed(roof, 0) + "</text>";
  }
  return s + "</svg>";
}

std::string cellHtml(const std::vector<Cell>& cells) {
  if (cells.empty()) return "<td class=\"none\">not measured</td>";
  std::vector<Bar> bars;
  double roof = 0;
  std::string errors;
  for (const auto& c : cells) {
    if (!c.error.empty()) {
      errors += "<div class=\"err\">" + htmlEscape(c.variant + ": " + c.error) + "</div>";
      continue;
    }
    roof = std::max(roof, c.copyGbps);
    bars.push_back({c.variant + (c.isDefault ? " *" : ""), "v", c.gbps,
                    fixed(c.gpuUs, 2) + " us, " + fixed(c.ratio * 100, 1) + "% of copy"});
  }
  std::string s = "<td>";
  if (!bars.empty()) s += svgChart(bars, roof);
  return s + errors + "</td>";
}

std::string peerHtml(const Peers& peers, const CaseRow& row) {
  const PeerRow* p = peers.find(row.op, row.bytes);
  if (!p) return "<td class=\"none\">no peer</td>";
  std::vector<Bar> bars;
  if (p->eagerGbps >= 0) bars.push_back({"torch eager", "pe", p->eagerGbps, fixed(p->eagerUs, 2) + " us"});
  if (p->compileGbps >= 0)
    bars.push_back({"torch.compile", "pc", p->compileGbps, fixed(p->compileUs, 2) + " us"});
  return "<td>" + svgChart(bars, peers.copyGbps) + "</td>";
}

}  // namespace

std::string renderHtml(const ReportModel& model) {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>wgk "
      "benchmarks</title>\n<style>"
      "body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}"
      "td,th{border:1px solid #ccc;padding:6px;vertical-align:top}th{background:#f4f4f4}"
      "svg text{font:11px system-ui,sans-serif}rect.v{fill:#3b7dd8}rect.pe{fill:#bbb}rect.pc{fill:#e08a2c}"
      "line.roof{stroke:#c00;stroke-dasharray:4 3;stroke-width:1.5}text.roofl{fill:#c00}"
      ".err{color:#c00;font-size:12px}.none{color:#999}.meta{color:#555;font-size:12px}"
      "</style></head><body>\n<h1>wgk benchmarks</h1>\n"
      "<p class=\"meta\">GB/s of the minimum bytes each op must read and write, from GPU timestamps "
      "(median). "
      "Dashed line: a vec4 copy kernel on the same bytes in the same run. * marks the variant the runtime "
      "picks.</p>\n"
      "<ul class=\"meta\">";
  for (size_t d = 0; d < model.devices.size(); ++d)
    s += "<li>" + htmlEscape(model.devices[d]) + " &mdash; " + htmlEscape(model.sources[d]) + "</li>";
  if (model.peers)
    s += "<li>torch peers: " + htmlEscape(model.peers->device) + " (copy 1 GiB " +
         fixed(model.peers->copyGbps, 0) + " GB/s)</li>";
  s += "</ul>\n";
  for (const auto& op : model.ops) {
    s += "<h2>" + htmlEscape(op) + "</h2>\n<table><tr><th>case</th>";
    for (const auto& d : model.devices) s += "<th>" + htmlEscape(d) + "</th>";
    if (model.peers) s += "<th>torch (" + htmlEscape(model.peers->device) + ")</th>";
    s += "</tr>\n";
    for (const auto& row : model.cases) {
      if (row.op != op) continue;
      std::string tags;
      for (const auto& t : row.tags) tags += (tags.empty() ? "" : ", ") + t;
      s += "<tr><td><b>" + htmlEscape(row.caseName) + "</b><div class=\"meta\">" +
           fixed(static_cast<double>(row.bytes) / (1 << 20), 2) + " MiB moved" +
           (tags.empty() ? "" : "<br>" + htmlEscape(tags)) + "</div></td>";
      for (const auto& cells : row.byDevice) s += cellHtml(cells);
      if (model.peers) s += peerHtml(*model.peers, row);
      s += "</tr>\n";
    }
    s += "</table>\n";
  }
  return s + renderChainsHtml(model) + "</body></html>\n";
}

}  // namespace wgk::harness

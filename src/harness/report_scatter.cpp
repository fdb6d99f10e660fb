// The per-op scatter charts of `wgk report --html` (report_model.h opScatterHtml): one point per
// case and variant at (bytes moved, share of the copy roofline), the runtime's pick filled, the
// other variants hollow, one colour per device; torch's GB/s over the same run's copy roofline
// beside them where a peers file is given. Compute-bound cases get a second chart: the share of
// the highest FMA or matrix peak.
#include <string>

#include "harness/report_model.h"
#include "harness/report_summary.h"
#include "harness/report_svg.h"

namespace wgk::harness {
namespace {

const char* const kDeviceColors[] = {"#3b7dd8", "#2a9d8f", "#b5651d", "#6c757d"};

struct Plot {
  std::vector<Series> series;
  std::vector<Point> points;
  int add(const std::string& label, const std::string& color) {
    for (size_t i = 0; i < series.size(); ++i)
      if (series[i].label == label) return static_cast<int>(i);
    series.push_back({label, color});
    return static_cast<int>(series.size()) - 1;
  }
};

// torch's GB/s over the copy roofline wgk measured on the same bytes (that run's copy kernel).
void addPeers(const ReportModel& model, const CaseRow& row, const Cell& picked, Plot* plot) {
  const PeerRow* p = peerFor(model, row);
  if (!p || picked.copyGbps <= 0) return;
  struct Which {
    const char* label;
    const char* color;
    double gbps;
  };
  for (const Which& w :
       {Which{"torch eager", "#999999", p->eagerGbps}, Which{"torch CUDA graph", "#8e5bb5", p->graphGbps},
        Which{"torch.compile", "#e08a2c", p->compileGbps}}) {
    if (w.gbps <= 0) continue;
    const double share = w.gbps / picked.copyGbps * 100;
    plot->points.push_back({static_cast<double>(row.bytes), share, plot->add(w.label, w.color), false,
                            row.caseName + " (" + bytesText(row.bytes) + "): " + w.label + " " +
                                fixed(share, 1) + "% of the copy roofline"});
  }
}

std::string memoryChart(const ReportModel& model, const std::string& op) {
  Plot plot;
  for (size_t d = 0; d < model.devices.size(); ++d)
    plot.add("wgk, " + model.devices[d], kDeviceColors[d % 4]);
  bool any = false;
  for (const auto& row : model.cases) {
    if (row.op != op || row.computeBoundAnywhere()) continue;
    for (size_t d = 0; d < row.byDevice.size(); ++d) {
      const Cell* picked = pickedCell(row.byDevice[d]);
      for (const auto& c : row.byDevice[d]) {
        if (!c.error.empty() || !c.skipped.empty() || c.ratio <= 0) continue;
        any = true;
        plot.points.push_back({static_cast<double>(row.bytes), c.ratio * 100, static_cast<int>(d),
                               &c != picked,
                               row.caseName + " (" + bytesText(row.bytes) + "): " + c.variant + " " +
                                   fixed(c.ratio * 100, 1) + "% of the copy roofline, " + usText(c.gpuUs)});
      }
      if (picked && d == 0) addPeers(model, row, *picked, &plot);
    }
  }
  if (!any) return "";
  return scatterChart(plot.series, plot.points, "bytes moved per call (log scale)", "% of copy roofline",
                      shortOp(op) +
                          ": share of the copy roofline against bytes moved (higher is better; "
                          "100% = a copy of the same bytes)");
}

std::string computeChart(const ReportModel& model, const std::string& op) {
  Plot plot;
  for (size_t d = 0; d < model.devices.size(); ++d)
    plot.add("wgk, " + model.devices[d], kDeviceColors[d % 4]);
  bool any = false;
  for (const auto& row : model.cases) {
    if (row.op != op || !row.computeBoundAnywhere()) continue;
    for (size_t d = 0; d < row.byDevice.size(); ++d) {
      const Cell* picked = pickedCell(row.byDevice[d]);
      for (const auto& c : row.byDevice[d]) {
        if (!c.error.empty() || !c.skipped.empty() || c.ofPeak() <= 0) continue;
        any = true;
        plot.points.push_back({static_cast<double>(row.bytes), c.ofPeak() * 100, static_cast<int>(d),
                               &c != picked,
                               row.caseName + ": " + c.variant + " " + fixed(c.ofPeak() * 100, 1) +
                                   "% of the highest peak, " + tflopsText(c.tflops)});
      }
    }
  }
  if (!any) return "";
  return scatterChart(plot.series, plot.points, "bytes moved per call (log scale)", "% of peak",
                      shortOp(op) +
                          ", compute-bound cases: share of the highest FMA or matrix peak "
                          "(higher is better)");
}

}  // namespace

std::string opScatterHtml(const ReportModel& model, const std::string& op) {
  std::string s;
  for (const std::string& chart : {memoryChart(model, op), computeChart(model, op)})
    if (!chart.empty()) s += "<div class=\"chart\">" + chart + "</div>\n";
  return s;
}

}  // namespace wgk::harness

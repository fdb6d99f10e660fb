// The SVG charts of `wgk report --html` (report_html.cpp, report_chains.cpp): inline, no scripts,
// every chart on one scale that its caption names, with "longer is better" / "shorter is better"
// (or "higher is better") said on the chart itself.
//
//   std::string svg = barChart(bars, {.max = 4200, .roof = 4130, .roofText = "copy 4,130 GB/s"});
#pragma once

#include <string>
#include <vector>

namespace wgk::harness {

// One horizontal bar. value <= 0 means not measured: no bar, the text says "n/a".
struct Bar {
  std::string label, cls;
  double value = -1;
  std::string text;            // printed after the bar
  std::string title;           // hover text
  double target = -1;          // a target drawn across the bar (same unit; -1: none)
  bool lowerIsBetter = false;  // with a target: a value above it is a miss
};

struct BarScale {
  double max = 1;        // the value at the right end of the plot: the same for every chart of a table
  double roof = 0;       // a dashed roofline in the chart's unit (0: none)
  std::string roofText;  // its caption
  int labelW = 0;        // at least this wide a label column: the bars of a table start at one x
};

// Bars scaled to scale.max (bars beyond it end at the edge with a break mark); a label column
// wide enough for the longest label.
std::string barChart(const std::vector<Bar>& bars, const BarScale& scale);
// The label column barChart would give these bars.
int labelWidth(const std::vector<Bar>& bars);

// A titled group of bars in a grouped bar chart (the chains: one group per chain).
struct BarGroup {
  std::string title;
  std::vector<Bar> bars;
};
// One group as a small chart of its own (small multiples: every group of a section on the same
// max, label and value widths, so that they line up in a grid): title, bars, an axis, axisText
// under it (the unit and which way is better).
std::string groupChart(const BarGroup& group, double max, const std::string& axisText, int labelW = 0,
                       int valueW = 0);
// The value column barChart would give these bars.
int valueWidth(const std::vector<Bar>& bars);

// A scatter plot with a log x axis of bytes and a linear y axis of percent.
struct Point {
  double x = 0, y = 0;  // bytes, percent
  int series = 0;
  bool hollow = false;  // a variant the runtime does not pick
  std::string title;
};
struct Series {
  std::string label, color;
};
std::string scatterChart(const std::vector<Series>& series, const std::vector<Point>& points,
                         const std::string& xLabel, const std::string& yLabel, const std::string& caption);

// The report's numbers: "4,103" GB/s, "7.5 µs", "97%", "0.96×", "300 TFLOPS"; "n/a" for a value
// that was not measured (<= 0; pct and times: < 0).
std::string gbpsText(double v);
std::string usText(double v);
std::string pct(double ratio);
std::string times(double ratio);
std::string tflopsText(double v);
// "12 KiB", "512 MiB", "1 GiB": axis labels of bytes.
std::string bytesText(double bytes);
// The width in pixels that an 11px label takes, generously (labels never clip).
int textWidth(const std::string& s);

}  // namespace wgk::harness

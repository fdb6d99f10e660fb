#include "harness/report_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/report_model.h"

namespace wgk::harness {
namespace {

constexpr int kBarH = 14, kGap = 3, kPlotW = 260;
constexpr double kCharW = 7.0;  // a generous width of one 11px character

// A coordinate: one decimal, no thousands separator (fixed() would write "1,234.0").
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string text(double x, double y, const std::string& s, const std::string& attrs = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (attrs.empty() ? "" : " " + attrs) + ">" +
         htmlEscape(s) + "</text>";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& cls) {
  return "<line class=\"" + cls + "\" x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) +
         "\" y2=\"" + num(y2) + "\"/>";
}

std::string svgOpen(int width, int height) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" role=\"img\">";
}

// A step of 1, 2 or 5 times a power of ten giving about `n` ticks up to max.
double niceStep(double max, int n) {
  const double raw = max / n, p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

std::string tickText(double v) {
  return fixed(v, v == std::floor(v) ? 0 : v >= 1 ? 1 : 2);
}

// One bar row at y: label (right-aligned at labelW - 4), the bar, its target and its text.
std::string barRow(const Bar& b, int labelW, int y, double max) {
  std::string s = text(labelW - 4, y + kBarH - 3, b.label, "text-anchor=\"end\"");
  double end = labelW + 2;
  if (b.value > 0) {
    const bool cut = b.value > max;
    const double w = std::max(1.0, std::min(b.value, max) / max * kPlotW);
    const bool miss = b.target > 0 && b.lowerIsBetter && b.value > b.target;
    s += "<rect class=\"" + b.cls + (miss ? " miss" : "") + "\" x=\"" + std::to_string(labelW) + "\" y=\"" +
         std::to_string(y) + "\" width=\"" + num(w) + "\" height=\"" + std::to_string(kBarH) + "\"><title>" +
         htmlEscape(b.title.empty() ? b.label + ": " + b.text : b.title) + "</title></rect>";
    if (cut)  // beyond the scale: a break across the bar's end, the number says how far
      s += "<path class=\"cut\" d=\"M" + num(labelW + w - 9) + " " + std::to_string(y + kBarH + 1) + " l5 " +
           std::to_string(-kBarH - 2) + " M" + num(labelW + w - 5) + " " + std::to_string(y + kBarH + 1) +
           " l5 " + std::to_string(-kBarH - 2) + "\"/>";
    end = labelW + w + 3;
  }
  if (b.target > 0 && b.target <= max) {
    const double x = labelW + b.target / max * kPlotW;
    s += line(x, y - 2, x, y + kBarH + 2, "tgt");
    end = std::max(end, x + 3);
  }
  return s + text(end, y + kBarH - 3, b.value > 0 ? b.text : "n/a");
}

}  // namespace

std::string gbpsText(double v) {
  return v > 0 ? fixed(v, v >= 100 ? 0 : v >= 1 ? 1 : 3) : "n/a";
}
std::string usText(double v) {
  return v > 0 ? fixed(v, v >= 100 ? 0 : 1) + " \xC2\xB5s" : "n/a";
}
std::string pct(double r) {
  return r >= 0 ? fixed(r * 100, r >= 0.1 ? 0 : 1) + "%" : "n/a";
}
std::string times(double r) {
  return r >= 0 ? fixed(r, r >= 10 ? 0 : 2) + "\xC3\x97" : "n/a";
}
std::string tflopsText(double v) {
  return v > 0 ? fixed(v, v >= 100 ? 0 : v >= 1 ? 1 : 4) + " TFLOPS" : "n/a";
}

int labelWidth(const std::vector<Bar>& bars) {
  int w = 40;
  for (const auto& b : bars) w = std::max(w, textWidth(b.label));
  return w;
}

int valueWidth(const std::vector<Bar>& bars) {
  int w = 30;
  for (const auto& b : bars) w = std::max(w, textWidth(b.value > 0 ? b.text : "n/a"));
  return w;
}

int textWidth(const std::string& s) {
  return static_cast<int>(static_cast<double>(s.size()) * kCharW) + 6;
}

std::string bytesText(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
  return fixed(bytes, bytes == std::floor(bytes) ? 0 : 1) + " " + units[u];
}

std::string barChart(const std::vector<Bar>& bars, const BarScale& scale) {
  const double max = scale.max > 0 ? scale.max : 1;
  const int labelW = std::max(scale.labelW, labelWidth(bars)), valueW = valueWidth(bars);
  const int roofW = scale.roof > 0 ? textWidth(scale.roofText) / 2 + 2 : 0;  // the centred caption
  const int width = labelW + kPlotW + std::max(valueW, roofW) + 4;
  const int height = static_cast<int>(bars.size()) * (kBarH + kGap) + (scale.roof > 0 ? 18 : 4);
  std::string s = svgOpen(width, height);
  int y = 2;
  for (const auto& b : bars) {
    s += barRow(b, labelW, y, max);
    y += kBarH + kGap;
  }
  if (scale.roof > 0 && scale.roof <= max) {
    const double x = labelW + scale.roof / max * kPlotW;
    s += line(x, 0, x, y, "roof");
    s += text(x, y + 12, scale.roofText, "class=\"roofl\" text-anchor=\"middle\"");
  }
  return s + "</svg>";
}

std::string groupChart(const BarGroup& g, double max, const std::string& axisText, int labelW, int valueW) {
  if (max <= 0) max = 1;
  labelW = std::max(labelW, labelWidth(g.bars));
  valueW = std::max(valueW, valueWidth(g.bars));
  const int width = std::max(labelW + kPlotW + valueW + 4, textWidth(g.title) + 8);
  const double step = niceStep(max, 5);
  std::string body = text(4, 12, g.title, "class=\"gtitle\"");
  int y = 20;
  for (const auto& b : g.bars) {
    body += barRow(b, labelW, y, max);
    y += kBarH + kGap;
  }
  std::string grid, axis = line(labelW, y + 2, labelW + kPlotW, y + 2, "axis");
  for (double v = 0; v <= max * 1.0001; v += step) {
    const double x = labelW + v / max * kPlotW;
    if (v > 0) grid += line(x, 18, x, y + 2, "grid");  // behind the bars
    axis += line(x, y - 1, x, y + 5, "axis") +
            text(x, y + 16, tickText(v), "class=\"tick\" text-anchor=\"middle\"");
  }
  axis += text(labelW, y + 30, axisText, "class=\"tick\"");
  return svgOpen(width, y + 36) + grid + body + axis + "</svg>";
}

std::string scatterChart(const std::vector<Series>& series, const std::vector<Point>& points,
                         const std::string& xLabel, const std::string& yLabel, const std::string& caption) {
  constexpr int kL = 52, kT = 26, kW = 460, kH = 220;
  double lo = 1e300, hi = 0, yMax = 100;
  for (const auto& p : points) {
    lo = std::min(lo, p.x), hi = std::max(hi, p.x);
    yMax = std::max(yMax, p.y);
  }
  if (points.empty()) lo = 1024, hi = 1 << 30;
  yMax = std::ceil(yMax / 20) * 20;
  // The x axis in octaves from the power of two below the smallest case to the one above the
  // largest; ticks every 1, 2, 5 or 10 octaves (at most 8).
  const double l2lo = std::floor(std::log2(lo)), l2hi = std::max(l2lo + 1, std::ceil(std::log2(hi)));
  double oct = 10;
  for (double s : {1.0, 2.0, 5.0, 10.0})
    if ((l2hi - l2lo) / s <= 8) {
      oct = s;
      break;
    }
  auto xAt = [&](double bytes) { return kL + (std::log2(bytes) - l2lo) / (l2hi - l2lo) * kW; };
  auto yAt = [&](double pct) { return kT + kH - pct / yMax * kH; };
  int legendW = 0;
  for (const auto& s : series) legendW = std::max(legendW, textWidth(s.label) + 18);
  legendW = std::max(legendW, textWidth("hollow: other variants") + 18);
  const int width = std::max(kL + kW + 16 + legendW, textWidth(caption) + 8), height = kT + kH + 44;
  std::string s = svgOpen(width, height) + text(4, 14, caption, "class=\"cap\"");
  for (double v = 0; v <= yMax + 1e-9; v += 20) {
    s += line(kL, yAt(v), kL + kW, yAt(v), v == 100 ? "roof" : "grid");
    s += text(kL - 4, yAt(v) + 4, fixed(v, 0) + "%", "class=\"tick\" text-anchor=\"end\"");
  }
  for (double e = std::ceil(l2lo / oct) * oct; e <= l2hi + 1e-9; e += oct) {
    const double x = xAt(std::pow(2.0, e));
    s += line(x, kT, x, kT + kH, "grid") + line(x, kT + kH, x, kT + kH + 4, "axis");
    s += text(x, kT + kH + 16, bytesText(std::pow(2.0, e)), "class=\"tick\" text-anchor=\"middle\"");
  }
  s += line(kL, kT + kH, kL + kW, kT + kH, "axis") + line(kL, kT, kL, kT + kH, "axis");
  s += text(kL + kW / 2.0, kT + kH + 34, xLabel, "class=\"tick\" text-anchor=\"middle\"");
  s += text(12, kT + kH / 2.0, yLabel,
            "class=\"tick\" text-anchor=\"middle\" transform=\"rotate(-90 12 " + num(kT + kH / 2.0) + ")\"");
  // Hollow points first, so that a picked variant is drawn on top of the others of its case.
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& p : points) {
      if (p.hollow != (pass == 0) || p.x <= 0) continue;
      const std::string& c = series[static_cast<size_t>(p.series)].color;
      s += "<circle cx=\"" + num(xAt(p.x)) + "\" cy=\"" + num(yAt(p.y)) + "\" r=\"" +
           (p.hollow ? "3" : "4.5") + "\" style=\"" +
           (p.hollow ? "fill:none;stroke:" + c : "fill:" + c + ";stroke:#fff") + "\"><title>" +
           htmlEscape(p.title) + "</title></circle>";
    }
  int ly = kT + 6;
  for (const auto& sr : series) {
    s += "<circle cx=\"" + std::to_string(kL + kW + 22) + "\" cy=\"" + std::to_string(ly) +
         "\" r=\"4.5\" style=\"fill:" + sr.color + "\"/>" + text(kL + kW + 32, ly + 4, sr.label);
    ly += 18;
  }
  s += "<circle cx=\"" + std::to_string(kL + kW + 22) + "\" cy=\"" + std::to_string(ly) +
       "\" r=\"3\" style=\"fill:none;stroke:#555\"/>" + text(kL + kW + 32, ly + 4, "hollow: other variants");
  return s + "</svg>";
}

}  // namespace wgk::harness

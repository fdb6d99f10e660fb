// The "Chains" section of `wgk report` (report_model.h): per-op microseconds of `wgk chain` in
// each mode, beside torch eager and CUDA graph replay of the same chain when the peers file has it.
#include <algorithm>
#include <string>

#include "harness/chain_runner.h"
#include "harness/report_model.h"
#include "harness/report_svg.h"

namespace wgk::harness {
namespace {

std::string us(double v) {
  return v >= 0 ? fixed(v, 2) : "-";
}

// The cells of one row: wgk's modes, warm call, and the peers' eager and graph numbers.
std::vector<std::string> cells(const ReportModel& model, const ChainRow& r) {
  std::vector<std::string> c = {r.name, us(r.unbatched), us(r.batched), us(r.replayed), us(r.warmCall)};
  if (model.peers) {
    auto it = model.peers->chains.find(r.name);
    const bool has = it != model.peers->chains.end();
    c.push_back(has ? us(it->second.first) : "-");
    c.push_back(has ? us(it->second.second) : "-");
  }
  return c;
}

std::vector<std::string> header(const ReportModel& model) {
  std::vector<std::string> h = {"chain", "unbatched us/op", "batched us/op", "replayed us/op",
                                "warm call us"};
  if (model.peers) {
    h.push_back("torch eager us/op");
    h.push_back("CUDA graph us/op");
  }
  return h;
}

std::string targetsText() {
  using T = ChainTargets;
  return "Targets (issue 25, H200): batched <= " + fixed(T::batched, 0) + " us/op, replayed <= " +
         fixed(T::replayed, 0) + " us/op, unbatched (deferred) <= " + fixed(T::unbatched, 0) +
         " us/op, warm call <= " + fixed(T::warmCall, 0) + " us of host time, call+wait <= " +
         fixed(T::callWait, 0) + " us.";
}

}  // namespace

std::string renderChainsMarkdown(const ReportModel& model) {
  std::string s;
  for (const auto& t : model.chains) {
    s += "### Chains on " + t.device + "\n\n|";
    const auto h = header(model);
    for (const auto& x : h) s += " " + x + " |";
    s += "\n| --- |";
    for (size_t i = 1; i < h.size(); ++i) s += " ---: |";
    s += "\n";
    for (const auto& r : t.rows) {
      s += "|";
      for (const auto& x : cells(model, r)) s += " " + x + " |";
      s += "\n";
    }
    s += "\n";
  }
  if (!s.empty()) s = "## Chains\n\n" + s + targetsText() + "\n\n";
  return s;
}

namespace {

ChainGoals goalsOf(const ChainTable& t) {
  using T = ChainTargets;
  const ChainGoals& g = t.targets;
  return {g.unbatched > 0 ? g.unbatched : T::unbatched, g.batched > 0 ? g.batched : T::batched,
          g.replayed > 0 ? g.replayed : T::replayed, g.warmCall > 0 ? g.warmCall : T::warmCall};
}

// A wgk bar with its target: "14.05 µs ✗ > 8" on a miss, "1.9 µs ✓" when met.
Bar goalBar(const char* label, const char* cls, double v, double goal) {
  std::string text = usText(v);
  if (v > 0 && goal > 0) text += v <= goal ? " \xE2\x9C\x93" : " \xE2\x9C\x97 > " + fixed(goal, 0);
  return {label, cls, v, text, std::string(label) + ": " + usText(v) + " (target <= " + fixed(goal, 0) + ")",
          goal,  true};
}

std::string missesText(const ChainTable& t, const ChainGoals& g) {
  int n[4] = {0, 0, 0, 0}, of[4] = {0, 0, 0, 0};
  for (const auto& r : t.rows) {
    const double v[4] = {r.unbatched, r.batched, r.replayed, r.warmCall},
                 goal[4] = {g.unbatched, g.batched, g.replayed, g.warmCall};
    for (int i = 0; i < 4; ++i)
      if (v[i] > 0) ++of[i], n[i] += v[i] <= goal[i];
  }
  const char* names[] = {"unbatched", "batched", "replayed", "warm call"};
  std::string s = "Targets met: ";
  for (int i = 0; i < 4; ++i)
    s += std::string(i ? ", " : "") + names[i] + " " + std::to_string(n[i]) + " of " + std::to_string(of[i]);
  return s + " chains.";
}

// Every chain a small chart, all on one scale: three times the largest target (most of wgk's
// numbers fit; a larger one's bar ends in a break mark with its number), or the largest value.
std::string chainCharts(const ReportModel& model, const ChainTable& t, double* scale) {
  const ChainGoals g = goalsOf(t);
  std::vector<BarGroup> groups;
  const double maxGoal = std::max({g.unbatched, g.batched, g.replayed, g.warmCall});
  double maxValue = maxGoal;
  for (const auto& r : t.rows) {
    BarGroup grp{r.name, {}};
    grp.bars.push_back(goalBar("unbatched", "mu", r.unbatched, g.unbatched));
    grp.bars.push_back(goalBar("batched", "mb", r.batched, g.batched));
    grp.bars.push_back(goalBar("replayed", "mr", r.replayed, g.replayed));
    grp.bars.push_back(goalBar("warm call (host)", "mw", r.warmCall, g.warmCall));
    if (model.peers) {
      auto it = model.peers->chains.find(r.name);
      if (it != model.peers->chains.end()) {
        grp.bars.push_back({"torch eager", "pe", it->second.first, usText(it->second.first), ""});
        grp.bars.push_back({"CUDA graph", "pg", it->second.second, usText(it->second.second), ""});
      }
    }
    for (const auto& b : grp.bars) maxValue = std::max(maxValue, b.value);
    groups.push_back(std::move(grp));
  }
  *scale = std::min(maxValue, 3 * maxGoal) * 1.05;
  int labelW = 0, valueW = 0;
  for (const auto& grp : groups)
    labelW = std::max(labelW, labelWidth(grp.bars)), valueW = std::max(valueW, valueWidth(grp.bars));
  std::string s;
  for (const auto& grp : groups)
    s += "<div class=\"chart\">" +
         groupChart(grp, *scale, "\xC2\xB5s per op (warm call: per call) \xC2\xB7 shorter is better", labelW,
                    valueW) +
         "</div>\n";
  return s;
}

}  // namespace

std::string renderChainsHtml(const ReportModel& model) {
  std::string s;
  for (const auto& t : model.chains) {
    const ChainGoals g = goalsOf(t);
    s += "<h3>" + htmlEscape(t.device) + " <span class=\"meta\">" + htmlEscape(t.source) + "</span></h3>\n";
    s += "<p class=\"cap\">Targets: unbatched &le; " + fixed(g.unbatched, 0) + " &micro;s/op, batched &le; " +
         fixed(g.batched, 0) + ", replayed &le; " + fixed(g.replayed, 0) + ", warm call &le; " +
         fixed(g.warmCall, 0) + " &micro;s of host time. <b>" + htmlEscape(missesText(t, g)) + "</b></p>\n";
    double scale = 0;
    const std::string charts = chainCharts(model, t, &scale);
    s += "<p class=\"meta\">Every chart on one scale, 0&ndash;" + usText(scale) +
         " (a bar past it ends in a break mark and gives its number); black tick: the mode's target; red "
         "outline: missed.</p>\n<div class=\"multiples\">" +
         charts + "</div>\n";
  }
  if (!s.empty())
    s = "<h2>Chains</h2>\n<p class=\"meta\">Per chain (N calls of one decode case, each call's output "
        "fed to the next): unbatched (each call submitted), batched (one wgk::Batch), replayed (one "
        "captured wgk::Graph), the host time of one warm call, and torch eager / CUDA graph replay of the "
        "same chain where the peers file has it.</p>\n" +
        s;
  return s;
}

}  // namespace wgk::harness

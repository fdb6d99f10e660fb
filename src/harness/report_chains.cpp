// The "Chains" section of `wgk report` (report_model.h): per-op microseconds of `wgk chain` in
// each mode, beside torch eager and CUDA graph replay of the same chain when the peers file has it.
#include <string>

#include "harness/chain_runner.h"
#include "harness/report_model.h"

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
  return "Targets (issue 14, H200): batched <= " + fixed(T::batched, 0) +
         " us/op, replayed <= " + fixed(T::replayed, 0) + " us/op, unbatched <= " + fixed(T::unbatched, 0) +
         " us/op, warm call <= " + fixed(T::warmCall, 0) + " us of host time.";
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

std::string renderChainsHtml(const ReportModel& model) {
  std::string s;
  for (const auto& t : model.chains) {
    s += "<h3>" + htmlEscape(t.device) + " <span class=\"meta\">" + htmlEscape(t.source) +
         "</span></h3>\n<table><tr>";
    for (const auto& x : header(model)) s += "<th>" + htmlEscape(x) + "</th>";
    s += "</tr>\n";
    for (const auto& r : t.rows) {
      s += "<tr>";
      for (const auto& x : cells(model, r)) s += "<td>" + htmlEscape(x) + "</td>";
      s += "</tr>\n";
    }
    s += "</table>\n";
  }
  if (!s.empty()) s = "<h2>Chains</h2>\n<p class=\"meta\">" + htmlEscape(targetsText()) + "</p>\n" + s;
  return s;
}

}  // namespace wgk::harness

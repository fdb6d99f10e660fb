#include "harness/report_summary.h"

#include <cmath>

namespace wgk::harness {

const Cell* pickedCell(const std::vector<Cell>& cells) {
  const Cell* fastest = nullptr;
  for (const auto& c : cells) {
    if (!c.error.empty() || !c.skipped.empty() || c.gpuUs < 0) continue;
    if (c.isDefault) return &c;
    if (!fastest || c.gpuUs < fastest->gpuUs) fastest = &c;
  }
  return fastest;
}

bool isDecodeSize(const CaseRow& row) {
  return row.bytes < (1u << 20);
}

double vsCompile(const Cell& c, const PeerRow* peer) {
  return peer && peer->compileUs > 0 && c.gpuUs > 0 ? peer->compileUs / c.gpuUs : -1;
}

double vsEager(const Cell& c, const PeerRow* peer) {
  return peer && peer->eagerUs > 0 && c.gpuUs > 0 ? peer->eagerUs / c.gpuUs : -1;
}

double vsTorch(const Cell& c, const PeerRow* peer) {
  return peer && peer->bestUs() > 0 && c.gpuUs > 0 ? peer->bestUs() / c.gpuUs : -1;
}

std::vector<OpSummary> summarize(const ReportModel& model) {
  std::vector<OpSummary> out;
  for (const auto& op : model.ops) {
    for (size_t d = 0; d < model.devices.size(); ++d) {
      OpSummary s{op, d};
      double logShare = 0, logPeak = 0, logCompile = 0, logEager = 0;
      int shares = 0, peaks = 0, compiles = 0, eagers = 0;
      for (const auto& row : model.cases) {
        if (row.op != op || row.byDevice[d].empty()) continue;
        const Cell* c = pickedCell(row.byDevice[d]);
        if (!c) {
          bool skipped = false;
          for (const auto& x : row.byDevice[d]) skipped = skipped || !x.skipped.empty();
          (skipped ? s.skipped : s.failed)++;
          continue;
        }
        ++s.cases;
        if (c->computeBound()) {
          ++s.computeCases;
          if (const double r = c->ofPeak(); r > 0) {
            logPeak += std::log(r);
            ++peaks;
            if (s.worstPeakShare < 0 || r < s.worstPeakShare) {
              s.worstPeakShare = r;
              s.worstPeakCase = row.caseName;
            }
          }
        } else if (c->ratio > 0) {
          logShare += std::log(c->ratio);
          ++shares;
          if (s.worstShare < 0 || c->ratio < s.worstShare) {
            s.worstShare = c->ratio;
            s.worstCase = row.caseName;
          }
        }
        const PeerRow* peer = peerFor(model, row);
        if (peer) ++s.peerCases;
        if (double r = vsCompile(*c, peer); r > 0) logCompile += std::log(r), ++compiles;
        if (double r = vsEager(*c, peer); r > 0) logEager += std::log(r), ++eagers;
      }
      if (s.cases + s.skipped + s.failed == 0) continue;
      if (shares) s.geomeanShare = std::exp(logShare / shares);
      if (peaks) s.geomeanPeakShare = std::exp(logPeak / peaks);
      if (compiles) s.geomeanVsCompile = std::exp(logCompile / compiles);
      if (eagers) s.geomeanVsEager = std::exp(logEager / eagers);
      out.push_back(s);
    }
  }
  return out;
}

}  // namespace wgk::harness

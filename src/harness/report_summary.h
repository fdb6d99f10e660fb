// The report's summary (`wgk report`, top of the HTML page): per op and device, the share of the
// copy roofline of the variant the runtime picks (worst and geometric mean over the memory-bound
// cases), the share of the FMA / matrix peak over the compute-bound ones (cases with flops above
// the device's ridge) and the ratio of its time to torch's (geometric mean over the cases that
// have a peer).
#pragma once

#include <string>
#include <vector>

#include "harness/report_model.h"

namespace wgk::harness {

// The cell a case row stands for on one device: the runtime's default variant, else the fastest
// measured one; nullptr when nothing was measured there.
const Cell* pickedCell(const std::vector<Cell>& cells);

// Whether a case is decode-sized: its time, not its GB/s, is what matters (under 1 MiB moved).
bool isDecodeSize(const CaseRow& row);

// torch.compile's time over wgk's for the picked cell (above 1: wgk is faster); -1 without a peer.
double vsCompile(const Cell& c, const PeerRow* peer);
double vsEager(const Cell& c, const PeerRow* peer);
// torch's best time (torch.compile, else eager) over wgk's; -1 without a peer time.
double vsTorch(const Cell& c, const PeerRow* peer);

struct OpSummary {
  std::string op;
  size_t device = 0;
  int cases = 0, skipped = 0, failed = 0;
  double worstShare = -1, geomeanShare = -1;  // of the copy roofline, 0..1 (-1: none)
  std::string worstCase;
  // Compute-bound cases: the share of the highest peak each was compared with (Cell::ofPeak).
  int computeCases = 0;
  double worstPeakShare = -1, geomeanPeakShare = -1;
  std::string worstPeakCase;
  double geomeanVsCompile = -1, geomeanVsEager = -1;  // torch time / wgk time (-1: no peers)
  int peerCases = 0;
};

std::vector<OpSummary> summarize(const ReportModel& model);

}  // namespace wgk::harness

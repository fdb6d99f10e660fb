// Reading bench evidence (`wgk bench --out`, format "wgk-bench/2" or the older "wgk-bench/1") and torch peer
// files
// (/work/shared/peers/torch_peers.py) into one model that `wgk report` renders as HTML
// (report_html.cpp) or Markdown (report_markdown.cpp).
//
//   auto model = harness::ReportModel::build({harness::loadEvidence("h200.json")}, peersJsonOrNull);
//   std::string html = harness::renderHtml(model);
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wgk::harness {

struct Evidence {
  std::string source;  // file name (for messages)
  std::string device;  // the device's product name ("NVIDIA H200"; productName)
  std::string date;
  nlohmann::json doc;
};

// Error(Io) when unreadable, Error(Parse) when not JSON or not "wgk-bench/2" / "wgk-bench/1" (names
// the file). Version 1 spelt the numbers in snake_case (gpu_us_median); both spellings are read.
Evidence loadEvidence(const std::string& path);
Evidence parseEvidence(const nlohmann::json& doc, const std::string& source);

// One chain of `wgk chain` (format "wgk-chain/2"): us per op in each mode, -1 where not measured.
struct ChainRow {
  std::string name;
  double unbatched = -1, batched = -1, replayed = -1, warmCall = -1;
};
// The targets the evidence names ("targets": us per op per mode, warm call us; -1 where absent:
// the report then uses ChainTargets, chain_runner.h).
struct ChainGoals {
  double unbatched = -1, batched = -1, replayed = -1, warmCall = -1;
};
struct ChainTable {
  std::string source, device;
  std::vector<ChainRow> rows;
  ChainGoals targets;
};
bool isChainEvidence(const nlohmann::json& doc);
ChainTable parseChainEvidence(const nlohmann::json& doc, const std::string& source);  // Error(Parse)
// A file of either format, told apart by "format": bench evidence into *bench, chains into *chains.
void loadEvidenceFile(const std::string& path, std::vector<Evidence>* bench, std::vector<ChainTable>* chains);

struct PeerRow {
  double eagerGbps = -1, compileGbps = -1, eagerUs = -1, compileUs = -1;
  // Compute peers (torch_matmul_peers.py): the call's flops and TFLOPS (-1: not given), and the
  // same calls replayed from a CUDA graph (GPU time without torch's per-call host cost).
  double flops = -1, eagerTflops = -1, compileTflops = -1;
  double graphUs = -1, graphGbps = -1, graphTflops = -1;
  // The time wgk is compared with: torch.compile's where measured, else the CUDA graph's, else
  // eager's (-1: none).
  double bestUs() const { return compileUs > 0 ? compileUs : graphUs > 0 ? graphUs : eagerUs; }
  double bestGbps() const { return compileUs > 0 ? compileGbps : graphUs > 0 ? graphGbps : eagerGbps; }
  double bestTflops() const {
    return compileUs > 0 ? compileTflops : graphUs > 0 ? graphTflops : eagerTflops;
  }
  // "torch.compile", "torch (CUDA graph)" or "torch eager": whose time bestUs() is.
  std::string bestLabel() const;
};

// Torch peer numbers by (short op name, bytes): the shared peer script names cases differently
// from bench.json, but the same shape moves the same bytes. Peer scripts that keep bench.json's
// case names (tools/peers/) are matched by name first: shapes such as a K x N GEMV and its N x K
// twin move the same bytes.
struct Peers {
  std::string device;
  double copyGbps = -1;
  std::map<std::pair<std::string, uint64_t>, PeerRow> rows;  // the last row of each (op, bytes)
  std::map<std::pair<std::string, std::string>, std::pair<uint64_t, PeerRow>> byName;  // (op, case)
  // torch_chain_peers.py's "chains": name -> (eager us per op, CUDA graph us per op), -1 if none.
  std::map<std::string, std::pair<double, double>> chains;
  const PeerRow* find(const std::string& opId, uint64_t bytes) const;
  // The row named `caseName` with the same bytes, else find(opId, bytes).
  const PeerRow* find(const std::string& opId, uint64_t bytes, const std::string& caseName) const;
};
Peers parsePeers(const nlohmann::json& doc, const std::string& source);
Peers loadPeers(const std::string& path);

// One pass of a measured call: the median of its GPU us over the repeats (evidence "passes").
struct PassCell {
  std::string id;
  double gpuUs = -1;
  bool skipped = false;  // not dispatched (zero workgroups)
};

// One measured (variant) value on one device.
struct Cell {
  std::string variant, selectedBy, error, skipped;
  bool isDefault = false;  // the variant the runtime picks unforced
  double gpuUs = -1, gbps = -1, ratio = -1, copyGbps = -1, coldMs = -1, wallUs = -1;
  // Cases with flops (evidence tflops, ofFmaPeak, ...; -1 where absent) and the label "compute" /
  // "memory" ("" without a ridge: such a case reads as memory-bound).
  double tflops = -1, fmaPeak = -1, ofFmaPeak = -1, matrixPeak = -1, ofMatrixPeak = -1;
  std::string bound;
  // Per pass in plan order; empty in evidence written before the field existed.
  std::vector<PassCell> passes;
  bool multiPass() const { return passes.size() > 1; }
  bool computeBound() const { return bound == "compute"; }
  // The highest peak the case was compared with and the share of it (-1: none).
  double peak() const { return std::max(fmaPeak, matrixPeak); }
  double ofPeak() const { return peak() > 0 && tflops >= 0 ? tflops / peak() : -1; }
};

struct CaseRow {
  std::string op, caseName;
  std::vector<std::string> tags;
  uint64_t bytes = 0;
  double flops = -1;                        // bench.json's flops (-1: none declared)
  std::vector<std::vector<Cell>> byDevice;  // [device index] -> variants measured there
  // Compute-bound on device d: its measured cells say so (a case with flops above the ridge).
  bool computeBound(size_t d) const;
  bool computeBoundAnywhere() const;
};

struct ReportModel {
  std::vector<std::string> devices;  // column headers, one per evidence file
  std::vector<std::string> sources;
  std::vector<std::string> ops;  // in order of first appearance
  std::vector<CaseRow> cases;    // grouped by op, in order of first appearance
  std::optional<Peers> peers;
  std::vector<ChainTable> chains;  // the "Chains" section, one table per chain evidence file
  static ReportModel build(const std::vector<Evidence>& files, std::optional<Peers> peers);
};

// The torch peer of a case row (by name, else by bytes); nullptr without peers or a match.
const PeerRow* peerFor(const ReportModel& model, const CaseRow& row);

// Whether any case of `op` declares flops: its tables get the TFLOPS columns.
bool opHasFlops(const ReportModel& model, const std::string& op);

std::string renderHtml(const ReportModel& model);
std::string renderMarkdown(const ReportModel& model);
// Per op, the scatter charts of report_scatter.cpp: the share of the copy roofline against bytes
// moved (and of the peak, for compute-bound cases); empty when the op has no such cells.
std::string opScatterHtml(const ReportModel& model, const std::string& op);
// The "Chains" section of each (report_chains.cpp); empty without chain evidence.
std::string renderChainsHtml(const ReportModel& model);
std::string renderChainsMarkdown(const ReportModel& model);

// A multi-pass cell's split, for the renderers: "block_stats 1,234.50 us (40.1%)" per pass joined
// by `sep` (shares of the sum of the pass medians; a skipped pass: "id skipped"); "" for a cell of
// one pass or none.
std::string passSplitText(const Cell& c, const std::string& sep);

// Shared by the renderers: "1,234.5"-style numbers and HTML escaping.
std::string fixed(double v, int decimals);
std::string htmlEscape(const std::string& s);
std::string shortOp(const std::string& opId);
// The device's product name from a device profile object ("NVIDIA H200", not the driver string).
std::string productName(const nlohmann::json& device);

}  // namespace wgk::harness

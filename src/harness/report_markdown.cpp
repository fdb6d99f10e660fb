// `wgk report --markdown`: the tables of docs/performance.md, one per op and device: GPU time,
// GB/s, roofline ratio, torch.compile ratio, host overhead and cold time per case and variant.
// Ops whose cases declare flops (MatMul) get a wider table: GFLOP and the bound of each case, GB/s
// and the share of the copy roofline for memory-bound cases, TFLOPS and the shares of the FMA and
// matrix peaks for compute-bound ones, and torch (in the case's unit) with the ratio of times.
#include <string>

#include "harness/report_model.h"
#include "harness/report_summary.h"

namespace wgk::harness {
namespace {
std::string orDash(double v, int decimals) {
  return v >= 0 ? fixed(v, decimals) : "-";
}

// GB/s: whole numbers on GPUs, three decimals for the tiny smoke cases of a CPU device.
std::string gbpsText(double v) {
  return v < 0 ? "-" : fixed(v, v >= 100 ? 0 : 3);
}

// Table cells cannot hold '|' or line breaks.
std::string cellText(std::string s) {
  for (char& c : s)
    if (c == '|')
      c = '/';
    else if (c == '\n' || c == '\r')
      c = ' ';
  return s;
}
std::string pctText(double r) {
  return r >= 0 ? fixed(r * 100, 1) + "%" : "-";
}

// GFLOP of one call: three decimals, more for the tiny smoke cases.
std::string gflopText(double flops) {
  const double g = flops / 1e9;
  return fixed(g, g >= 1 ? 1 : g >= 0.001 ? 3 : 6);
}

std::string tflopsText(double v) {
  return v < 0 ? "-" : fixed(v, v >= 100 ? 0 : v >= 1 ? 1 : 4);
}

// Whether any measured cell of `op` on device d has more than one pass: its table gets a
// "passes" column (the split of the GPU time, passSplitText).
bool opSplits(const ReportModel& model, const std::string& op, size_t d) {
  for (const auto& row : model.cases)
    if (row.op == op)
      for (const auto& c : row.byDevice[d])
        if (c.error.empty() && c.skipped.empty() && c.multiPass()) return true;
  return false;
}

// The "passes" cell of a row (" | ..." with a leading separator; nothing without the column).
std::string passesCell(const Cell& c, bool split) {
  if (!split) return "";
  const std::string t = cellText(passSplitText(c, "; "));
  return " | " + (t.empty() ? std::string("-") : t);
}

// The table of an op with flops on device d ("" when it has no rows there).
std::string computeTable(const ReportModel& model, const std::string& op, size_t d) {
  const bool split = opSplits(model, op, d);
  std::string body;
  for (const auto& row : model.cases) {
    if (row.op != op) continue;
    const PeerRow* peer = peerFor(model, row);
    const bool compute = row.computeBound(d);
    for (const auto& c : row.byDevice[d]) {
      const std::string variant = c.variant + (c.isDefault ? " *" : "");
      body += "| " + cellText(row.caseName) + " | " + fixed(static_cast<double>(row.bytes) / (1 << 20), 2) +
              " | " + (row.flops >= 0 ? gflopText(row.flops) : "-") + " | " +
              (c.bound.empty() ? "-" : c.bound) + " | " + variant;
      if (!c.error.empty() || !c.skipped.empty()) {
        body += " | " + std::string(c.error.empty() ? "skipped: " : "error: ") +
                cellText(c.error.empty() ? c.skipped : c.error) + " | | | | | | | | |" + (split ? " |" : "") +
                " |\n";
        continue;
      }
      std::string torch = "-";
      if (peer && compute && peer->bestTflops() > 0)
        torch = tflopsText(peer->bestTflops()) + " TFLOPS";
      else if (peer && !compute && peer->bestGbps() > 0)
        torch = gbpsText(peer->bestGbps()) + " GB/s";
      const double vs = vsTorch(c, peer);
      body += " | " + orDash(c.gpuUs, 2) + " | " + gbpsText(c.gbps) + " | " +
              (compute ? "-" : pctText(c.ratio)) + " | " + (compute ? tflopsText(c.tflops) : "-") + " | " +
              (compute ? pctText(c.ofFmaPeak) : "-") + " | " + (compute ? pctText(c.ofMatrixPeak) : "-") +
              " | " + torch + " | " + (vs >= 0 ? fixed(vs, 2) + "x" : "-") + " | " + orDash(c.wallUs, 1) +
              " | " + orDash(c.coldMs, 1) + passesCell(c, split) + " |\n";
    }
  }
  if (body.empty()) return "";
  return "### " + shortOp(op) + " on " + model.devices[d] +
         "\n\n| case | MiB moved | GFLOP | bound | variant | GPU us (median) | GB/s | of copy | TFLOPS | of "
         "FMA "
         "peak | of matrix peak | torch | vs torch | host us/call | cold ms |" +
         (split ? " passes |" : "") +
         "\n"
         "| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
         "---: |" +
         (split ? " --- |" : "") + "\n" + body + "\n";
}

// The table of an op without flops on device d ("" when it has no rows there).
std::string memoryTable(const ReportModel& model, const std::string& op, size_t d) {
  const bool split = opSplits(model, op, d);
  std::string body;
  for (const auto& row : model.cases) {
    if (row.op != op) continue;
    const PeerRow* peer = peerFor(model, row);
    for (const auto& c : row.byDevice[d]) {
      const std::string variant = c.variant + (c.isDefault ? " *" : "");
      body += "| " + cellText(row.caseName) + " | " + fixed(static_cast<double>(row.bytes) / (1 << 20), 2) +
              " | " + variant;
      if (!c.error.empty()) {
        body += " | error: " + cellText(c.error) + " | | | | | | |" + (split ? " |" : "") + " |\n";
        continue;
      }
      const double vsCompile = peer && peer->compileGbps > 0 && c.gbps >= 0 ? c.gbps / peer->compileGbps : -1;
      body += " | " + orDash(c.gpuUs, 2) + " | " + gbpsText(c.gbps) + " | " + gbpsText(c.copyGbps) + " | " +
              (c.ratio >= 0 ? fixed(c.ratio * 100, 1) + "%" : "-") + " | " +
              (peer ? gbpsText(peer->compileGbps) : "-") + " | " +
              (vsCompile >= 0 ? fixed(vsCompile, 2) + "x" : "-") + " | " + orDash(c.wallUs, 1) + " | " +
              orDash(c.coldMs, 1) + passesCell(c, split) + " |\n";
    }
  }
  if (body.empty()) return "";
  return "### " + shortOp(op) + " on " + model.devices[d] + "\n\n" +
         "| case | MiB moved | variant | GPU us (median) | GB/s | copy GB/s | of copy | torch.compile GB/s | "
         "vs "
         "compile | host us/call | cold ms |" +
         (split ? " passes |" : "") +
         "\n| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" +
         (split ? " --- |" : "") + "\n" + body + "\n";
}
}  // namespace

std::string renderMarkdown(const ReportModel& model) {
  std::string s;
  if (model.peers)
    s += "torch peers: " + model.peers->device + ", copy of 1 GiB " + fixed(model.peers->copyGbps, 0) +
         " GB/s.\n\n";
  for (size_t d = 0; d < model.devices.size(); ++d) {
    for (const auto& op : model.ops) {
      s += opHasFlops(model, op) ? computeTable(model, op, d) : memoryTable(model, op, d);
    }
  }
  if (!model.cases.empty())
    s += "`*` marks the variant the runtime picks by default (priority or tuning). GB/s counts the minimum "
         "bytes the "
         "op must read and write; copy GB/s is a vec4 copy kernel on the same bytes in the same run.\n";
  bool split = false;
  for (size_t d = 0; d < model.devices.size(); ++d)
    for (const auto& op : model.ops) split = split || opSplits(model, op, d);
  if (split)
    s += "passes: a multi-pass call's GPU time by pass, each the median of its own timestamps (us) and its "
         "share of their sum (docs/benchmarks.md).\n";
  bool flops = false;
  for (const auto& op : model.ops) flops = flops || opHasFlops(model, op);
  if (flops)
    s += "Tables with GFLOP: a case is compute-bound when its flops per byte exceed the ridge (the highest "
         "peak for its dtype over the copy bandwidth); TFLOPS and the shares of the FMA and matrix peaks "
         "(measured in the same run) are given for those, GB/s and the share of copy for the others. "
         "torch: in the case's unit, torch.compile where measured, else the calls replayed from a CUDA graph "
         "(GPU time), else eager; vs torch = that time over wgk's.\n";
  if (!model.chains.empty()) s += (model.cases.empty() ? "" : "\n") + renderChainsMarkdown(model);
  return s;
}

}  // namespace wgk::harness

// `wgk report --markdown`: the tables of docs/performance.md, one per op and device: GPU time,
// GB/s, roofline ratio, torch.compile ratio, host overhead and cold time per case and variant.
#include <string>

#include "harness/report_model.h"

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
}  // namespace

std::string renderMarkdown(const ReportModel& model) {
  std::string s;
  if (model.peers)
    s += "torch peers: " + model.peers->device + ", copy of 1 GiB " + fixed(model.peers->copyGbps, 0) +
         " GB/s.\n\n";
  for (size_t d = 0; d < model.devices.size(); ++d) {
    for (const auto& op : model.ops) {
      std::string body;
      for (const auto& row : model.cases) {
        if (row.op != op) continue;
        const PeerRow* peer = model.peers ? model.peers->find(row.op, row.bytes) : nullptr;
        for (const auto& c : row.byDevice[d]) {
          const std::string variant = c.variant + (c.isDefault ? " *" : "");
          body += "| " + cellText(row.caseName) + " | " +
                  fixed(static_cast<double>(row.bytes) / (1 << 20), 2) + " | " + variant;
          if (!c.error.empty()) {
            body += " | error: " + cellText(c.error) + " | | | | | | | |\n";
            continue;
          }
          const double vsCompile =
              peer && peer->compileGbps > 0 && c.gbps >= 0 ? c.gbps / peer->compileGbps : -1;
          body += " | " + orDash(c.gpuUs, 2) + " | " + gbpsText(c.gbps) + " | " + gbpsText(c.copyGbps) +
                  " | " + (c.ratio >= 0 ? fixed(c.ratio * 100, 1) + "%" : "-") + " | " +
                  (peer ? gbpsText(peer->compileGbps) : "-") + " | " +
                  (vsCompile >= 0 ? fixed(vsCompile, 2) + "x" : "-") + " | " + orDash(c.wallUs, 1) + " | " +
                  orDash(c.coldMs, 1) + " |\n";
        }
      }
      if (body.empty()) continue;
      s += "### " + shortOp(op) + " on " + model.devices[d] + "\n\n";
      s += "| case | MiB moved | variant | GPU us (median) | GB/s | copy GB/s | of copy | torch.compile GB/s "
           "| vs "
           "compile | host us/call | cold ms |\n";
      s += "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
      s += body + "\n";
    }
  }
  if (!model.cases.empty())
    s += "`*` marks the variant the runtime picks by default (priority or tuning). GB/s counts the minimum "
         "bytes the "
         "op must read and write; copy GB/s is a vec4 copy kernel on the same bytes in the same run.\n";
  if (!model.chains.empty()) s += (model.cases.empty() ? "" : "\n") + renderChainsMarkdown(model);
  return s;
}

}  // namespace wgk::harness

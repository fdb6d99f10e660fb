// wgk report FILE... [--html OUT.html] [--markdown OUT.md] [--peers PEERS.json]
// Renders bench evidence (wgk bench --json; one file per device, side by side) as one
// self-contained HTML page with inline SVG bar charts and/or the Markdown tables of
// docs/performance.md; files of `wgk chain --out` make its "Chains" section. --peers adds torch eager /
// torch.compile numbers (the JSON of torch_peers.py). With neither --html nor --markdown, the Markdown goes
// to stdout.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/command.h"
#include "harness/report_model.h"
#include "wgk/error.h"

namespace wgk::cli {
namespace {

void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  if (!out) throw Error(ErrorCode::Io, "cannot write '" + path + "'");
  out << text;
  if (!out) throw Error(ErrorCode::Io, "writing '" + path + "' failed");
}

void addReportCommand(CLI::App& app) {
  struct State {
    std::vector<std::string> files;
    std::string html, markdown, peers;
  };
  auto s = std::make_shared<State>();
  auto* cmd = app.add_subcommand("report", "Render bench evidence files as HTML and/or Markdown");
  cmd->add_option("files", s->files, "evidence files from wgk bench --json or wgk chain --out")->required();
  cmd->add_option("--html", s->html, "write a self-contained HTML page");
  cmd->add_option("--markdown", s->markdown, "write the Markdown tables");
  cmd->add_option("--peers", s->peers, "torch peers JSON (torch_peers.py)");
  cmd->callback([s] {
    std::vector<harness::Evidence> files;
    std::vector<harness::ChainTable> chains;  // wgk chain --out files go to the "Chains" section
    for (const auto& f : s->files) harness::loadEvidenceFile(f, &files, &chains);
    std::optional<harness::Peers> peers;
    if (!s->peers.empty()) peers = harness::loadPeers(s->peers);
    auto model = harness::ReportModel::build(files, std::move(peers));
    model.chains = std::move(chains);
    if (!s->html.empty()) {
      writeText(s->html, harness::renderHtml(model));
      std::fprintf(stderr, "report: wrote %s\n", s->html.c_str());
    }
    if (!s->markdown.empty()) {
      writeText(s->markdown, harness::renderMarkdown(model));
      std::fprintf(stderr, "report: wrote %s\n", s->markdown.c_str());
    }
    if (s->html.empty() && s->markdown.empty()) std::cout << harness::renderMarkdown(model);
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addReportCommand);

}  // namespace wgk::cli

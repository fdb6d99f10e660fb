#include "harness/report_model.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/json_read.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {
template <class Fn>
decltype(auto) readJson(const std::string& path, const std::string& what, Fn&& read) {
  return loadJsonFile(path, std::forward<Fn>(read), what + " " + path);
}

double num(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : -1;
}

std::string str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// A number under its version-2 (camelCase) key or its version-1 (snake_case) spelling.
double num2(const nlohmann::json& j, const char* camel, const char* snake) {
  const double v = num(j, camel);
  return v >= 0 || j.contains(camel) ? v : num(j, snake);
}

// A measurement's "passes" (absent in older evidence: none).
std::vector<PassCell> readPasses(const nlohmann::json& m) {
  std::vector<PassCell> out;
  auto it = m.find("passes");
  if (it == m.end() || !it->is_array()) return out;
  for (const auto& p : *it)
    if (p.is_object()) out.push_back({str(p, "id"), num(p, "gpuUsMedian"), p.value("skipped", false)});
  return out;
}
}  // namespace

std::string passSplitText(const Cell& c, const std::string& sep) {
  if (!c.multiPass()) return "";
  double sum = 0;
  for (const auto& p : c.passes) sum += std::max(p.gpuUs, 0.0);
  std::string s;
  for (const auto& p : c.passes) {
    s += (s.empty() ? "" : sep) + p.id + " ";
    if (p.skipped)
      s += "skipped";
    else if (p.gpuUs < 0)
      s += "-";
    else
      s += fixed(p.gpuUs, 2) + " us (" + fixed(sum > 0 ? 100 * p.gpuUs / sum : 0, 1) + "%)";
  }
  return s;
}

std::string productName(const nlohmann::json& device) {
  const nlohmann::json info = device.value("adapterInfo", nlohmann::json::object());
  // adapterInfo.device is the product ("NVIDIA H200"); description is often the driver string
  // ("NVIDIA: 580.159.04 ..."), so it is only the fallback.
  for (const char* key : {"device", "description"})
    if (std::string v = str(info, key); !v.empty()) return v;
  const std::string v = str(info, "vendor"), a = str(info, "architecture");
  return v.empty() && a.empty() ? "unknown device" : v + (v.empty() || a.empty() ? "" : " ") + a;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  // Thousands separators on the integer part: GB/s in the thousands reads better as 4,103.
  auto dot = s.find('.');
  size_t end = dot == std::string::npos ? s.size() : dot;
  size_t start = s[0] == '-' ? 1 : 0;
  for (size_t i = end; i > start + 3; i -= 3) s.insert(i - 3, ",");
  return s;
}

std::string htmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string shortOp(const std::string& opId) {
  auto dot = opId.rfind('.');
  return dot == std::string::npos ? opId : opId.substr(dot + 1);
}

Evidence parseEvidence(const nlohmann::json& doc, const std::string& source) {
  const std::string format = doc.is_object() ? doc.value("format", "") : "";
  if (format != "wgk-bench/1" && format != "wgk-bench/2")
    throw Error(
        ErrorCode::Parse,
        "'" + source + "' is not a wgk bench evidence file (format \"wgk-bench/2\" or \"wgk-bench/1\")");
  if (!doc.contains("measurements") || !doc["measurements"].is_array())
    throw Error(ErrorCode::Parse, "'" + source + "': \"measurements\" must be an array");
  for (size_t i = 0; i < doc["measurements"].size(); ++i) {
    const auto& m = doc["measurements"][i];
    if (!m.is_object() || !m.contains("package") || !m.contains("case") || !m.contains("bytes"))
      throw Error(ErrorCode::Parse,
                  "'" + source + "': measurements/" + std::to_string(i) + " lacks package, case or bytes");
  }
  Evidence e;
  e.source = source;
  e.device = productName(doc.value("device", nlohmann::json::object()));
  e.date = str(doc, "date");
  e.doc = doc;
  return e;
}

bool isChainEvidence(const nlohmann::json& doc) {
  const std::string format = doc.is_object() ? doc.value("format", "") : "";
  return format == "wgk-chain/2" || format == "wgk-chain/1";
}

ChainTable parseChainEvidence(const nlohmann::json& doc, const std::string& source) {
  if (!isChainEvidence(doc) || !doc.contains("chains") || !doc["chains"].is_array())
    throw Error(ErrorCode::Parse, "'" + source +
                                      "' is not a wgk chain evidence file (format \"wgk-chain/2\" or "
                                      "\"wgk-chain/1\", with \"chains\")");
  ChainTable t{source, productName(doc.value("device", nlohmann::json::object())), {}};
  if (auto d = str(doc, "date"); !d.empty()) t.device += ", " + d.substr(0, 10);
  if (auto g = doc.find("targets"); g != doc.end() && g->is_object())
    t.targets = {num2(*g, "unbatchedUsPerOp", "unbatched_us_per_op"),
                 num2(*g, "batchedUsPerOp", "batched_us_per_op"),
                 num2(*g, "replayedUsPerOp", "replayed_us_per_op"), num2(*g, "warmCallUs", "warm_call_us")};
  for (const auto& c : doc["chains"]) {
    if (!c.is_object() || !c.contains("name"))
      throw Error(ErrorCode::Parse, "'" + source + "': every chain needs a name");
    ChainRow r;
    r.name = str(c, "name");
    r.warmCall = num2(c, "warmCallUsMedian", "warm_call_us_median");
    const nlohmann::json modes = c.value("modes", nlohmann::json::object());
    double* slot[] = {&r.unbatched, &r.batched, &r.replayed};
    const char* names[] = {"unbatched", "batched", "replayed"};
    for (int i = 0; i < 3; ++i)
      if (modes.contains(names[i]) && modes[names[i]].is_object())
        *slot[i] = num2(modes[names[i]], "perOpUsMedian", "per_op_us_median");
    t.rows.push_back(std::move(r));
  }
  return t;
}

void loadEvidenceFile(const std::string& path, std::vector<Evidence>* bench,
                      std::vector<ChainTable>* chains) {
  readJson(path, "evidence file", [&](const nlohmann::json& doc) {
    if (isChainEvidence(doc))
      chains->push_back(parseChainEvidence(doc, path));
    else
      bench->push_back(parseEvidence(doc, path));
  });
}

Evidence loadEvidence(const std::string& path) {
  return readJson(path, "evidence file", [&](const nlohmann::json& doc) { return parseEvidence(doc, path); });
}

std::string PeerRow::bestLabel() const {
  return compileUs > 0 ? "torch.compile" : graphUs > 0 ? "torch (CUDA graph)" : "torch eager";
}

const PeerRow* Peers::find(const std::string& opId, uint64_t bytes) const {
  auto it = rows.find({shortOp(opId), bytes});
  return it == rows.end() ? nullptr : &it->second;
}

const PeerRow* Peers::find(const std::string& opId, uint64_t bytes, const std::string& caseName) const {
  auto it = byName.find({shortOp(opId), caseName});
  if (it != byName.end() && it->second.first == bytes) return &it->second.second;
  return find(opId, bytes);
}

Peers parsePeers(const nlohmann::json& doc, const std::string& source) {
  if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array())
    throw Error(ErrorCode::Parse, "'" + source + "' is not a torch peers file (no \"cases\" array)");
  Peers p;
  p.device = str(doc, "device");
  if (doc.contains("copy_1GiB") && doc["copy_1GiB"].is_object()) p.copyGbps = num(doc["copy_1GiB"], "GBps");
  for (const auto& c : doc["cases"]) {
    if (!c.is_object() || !c.contains("op") || !c.contains("bytes") || !c["bytes"].is_number_unsigned())
      throw Error(ErrorCode::Parse, "'" + source + "': every case needs op and bytes");
    PeerRow r{num(c, "eager_GBps"), num(c, "compile_GBps"), num(c, "eager_us"), num(c, "compile_us")};
    r.flops = num(c, "flops");
    r.eagerTflops = num(c, "eager_TFLOPS");
    r.compileTflops = num(c, "compile_TFLOPS");
    r.graphUs = num(c, "graph_us");
    r.graphGbps = num(c, "graph_GBps");
    r.graphTflops = num(c, "graph_TFLOPS");
    if (r.flops > 0 && r.graphTflops < 0 && r.graphUs > 0) r.graphTflops = r.flops / r.graphUs / 1e6;
    // TFLOPS from the flops and the time where the file gives only those.
    if (r.flops > 0 && r.eagerTflops < 0 && r.eagerUs > 0) r.eagerTflops = r.flops / r.eagerUs / 1e6;
    if (r.flops > 0 && r.compileTflops < 0 && r.compileUs > 0) r.compileTflops = r.flops / r.compileUs / 1e6;
    const std::string op = shortOp(str(c, "op"));
    const uint64_t bytes = c["bytes"].get<uint64_t>();
    p.rows[{op, bytes}] = r;  // the last row of these bytes (as before names were matched)
    if (const std::string name = str(c, "case"); !name.empty()) p.byName[{op, name}] = {bytes, r};
  }
  if (doc.contains("chains") && doc["chains"].is_array())
    for (const auto& c : doc["chains"])
      if (c.is_object() && c.contains("name"))
        p.chains[str(c, "name")] = {num(c, "eager_us_per_op"), num(c, "graph_us_per_op")};
  return p;
}

Peers loadPeers(const std::string& path) {
  return readJson(path, "peers file", [&](const nlohmann::json& doc) { return parsePeers(doc, path); });
}

bool CaseRow::computeBound(size_t d) const {
  if (d >= byDevice.size()) return false;
  for (const auto& c : byDevice[d])
    if (c.error.empty() && c.skipped.empty() && !c.bound.empty()) return c.computeBound();
  return false;
}

bool CaseRow::computeBoundAnywhere() const {
  for (size_t d = 0; d < byDevice.size(); ++d)
    if (computeBound(d)) return true;
  return false;
}

const PeerRow* peerFor(const ReportModel& model, const CaseRow& row) {
  return model.peers ? model.peers->find(row.op, row.bytes, row.caseName) : nullptr;
}

bool opHasFlops(const ReportModel& model, const std::string& op) {
  for (const auto& r : model.cases)
    if (r.op == op && r.flops > 0) return true;
  return false;
}

ReportModel ReportModel::build(const std::vector<Evidence>& files, std::optional<Peers> peers) {
  ReportModel model;
  model.peers = std::move(peers);
  const size_t nDev = files.size();
  for (const auto& f : files) {
    model.devices.push_back(f.device + (f.date.empty() ? "" : ", " + f.date.substr(0, 10)));
    model.sources.push_back(f.source);
  }
  for (size_t d = 0; d < nDev; ++d) {
    for (const auto& m : files[d].doc["measurements"]) {
      const std::string op = str(m, "package"), name = str(m, "case");
      if (std::find(model.ops.begin(), model.ops.end(), op) == model.ops.end()) model.ops.push_back(op);
      auto row = std::find_if(model.cases.begin(), model.cases.end(),
                              [&](const CaseRow& r) { return r.op == op && r.caseName == name; });
      if (row == model.cases.end()) {
        CaseRow r{
            op, name, {}, m["bytes"].get<uint64_t>(), num(m, "flops"), std::vector<std::vector<Cell>>(nDev)};
        if (m.contains("tags") && m["tags"].is_array())
          for (const auto& t : m["tags"])
            if (t.is_string()) r.tags.push_back(t.get<std::string>());
        model.cases.push_back(std::move(r));
        row = model.cases.end() - 1;
      }
      Cell c;
      c.variant = str(m, "variant");
      c.selectedBy = str(m, "selectedBy");
      c.error = str(m, "error");
      c.skipped = str(m, "skipped");
      c.isDefault = m.value("default", false);
      c.gpuUs = num2(m, "gpuUsMedian", "gpu_us_median");
      c.gbps = num(m, "gbps");
      c.ratio = num2(m, "rooflineRatio", "roofline_ratio");
      c.copyGbps = num2(m, "copyGbps", "copy_gbps");
      c.coldMs = num2(m, "coldMs", "cold_ms");
      c.wallUs = num2(m, "wallUsMedian", "wall_us_median");
      c.tflops = num(m, "tflops");
      c.fmaPeak = num(m, "fmaPeakTflops");
      c.ofFmaPeak = num(m, "ofFmaPeak");
      c.matrixPeak = num(m, "matrixPeakTflops");
      c.ofMatrixPeak = num(m, "ofMatrixPeak");
      c.bound = str(m, "bound");
      c.passes = readPasses(m);
      if (row->flops < 0) row->flops = num(m, "flops");
      row->byDevice[d].push_back(std::move(c));
    }
  }
  // Group by op, keeping first-appearance order inside each op.
  std::stable_sort(model.cases.begin(), model.cases.end(), [&](const CaseRow& a, const CaseRow& b) {
    auto ia = std::find(model.ops.begin(), model.ops.end(), a.op),
         ib = std::find(model.ops.begin(), model.ops.end(), b.op);
    return ia < ib;
  });
  return model;
}

}  // namespace wgk::harness

#include "cli/support_process_start.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "cli/support_processes.h"
#include "hub/fs_util.h"
#include "io/npy.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::cli {

const package::BenchCase& smallestBenchCase(const package::BenchFile& bench, const std::string& file) {
  if (bench.cases.empty()) throw Error(ErrorCode::Manifest, file + " has no cases");
  auto bytesOf = [](const package::BenchCase& c) {
    uint64_t n = 0;
    for (const auto& [name, t] : c.inputs) n += tensorBytes(t.dtype, t.shape);
    return n;
  };
  return *std::min_element(bench.cases.begin(), bench.cases.end(),
                           [&](const auto& a, const auto& b) { return bytesOf(a) < bytesOf(b); });
}

nlohmann::json ProcessStart::toJson() const {
  return {
      {"command", "wgk run " + repo}, {"case", benchCase},           {"coldMs", coldMs}, {"warmMs", warmMs},
      {"coldMsMedian", coldMsMedian}, {"warmMsMedian", warmMsMedian}};
}

ProcessStart measureProcessStart(const std::string& repo, const package::BenchCase& c, int rounds) {
  namespace fs = std::filesystem;
  hub::TempDir tmp(fs::temp_directory_path(), "wgk-process-start-");
  std::vector<std::string> args = {"wgk",       "run",          repo,
                                   "--offline", "--output-dir", (tmp.path() / "out").string()};
  for (const auto& [name, t] : package::materializeInputs(c)) {
    const std::string file = (tmp.path() / (name + ".npy")).string();
    writeNpy(file, t);
    args.insert(args.end(), {"--input", name + "=" + file});
  }
  for (const auto& [name, v] : c.attrs) args.insert(args.end(), {"--attr", name + "=" + v.toJson().dump()});
  ProcessStart out;
  out.repo = repo;
  out.benchCase = c.name;
  for (int i = 0; i < rounds; ++i) {
    // WGK_CACHE: the pipeline cache (and the hub cache, unused offline with an embedded package).
    const std::map<std::string, std::string> env = {
        {"WGK_CACHE", (tmp.path() / ("cache" + std::to_string(i))).string()}};
    out.coldMs.push_back(timeChild(args, env).count());
    out.warmMs.push_back(timeChild(args, env).count());
  }
  out.coldMsMedian = spreadOf(out.coldMs).median;
  out.warmMsMedian = spreadOf(out.warmMs).median;
  return out;
}

}  // namespace wgk::cli

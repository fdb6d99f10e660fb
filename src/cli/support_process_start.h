// The cold and warm process start of `wgk run` (issue 25 item 7, reported by `wgk chain`): the wall
// time from spawning a fresh `wgk run` of a package's smallest bench case to its exit, once with an
// empty pipeline cache (cold: every shader compiled) and once more with the folder the first run
// left (warm: the persistent pipeline cache of runtime/pipeline_store.h answers Dawn).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "package/test_spec.h"

namespace wgk::cli {

// The bench case with the fewest input bytes (the first of equals): where host work, not GPU work,
// is the largest share of a call. Error(Manifest) naming `file` when it has no cases.
const package::BenchCase& smallestBenchCase(const package::BenchFile& bench, const std::string& file);

struct ProcessStart {
  std::string repo, benchCase;
  std::vector<double> coldMs, warmMs;  // one pair per round, in run order
  double coldMsMedian = 0, warmMsMedian = 0;
  nlohmann::json toJson() const;
};

// `rounds` pairs of runs of `wgk run <repo>` on `c`'s inputs (written as .npy files into a temporary
// folder, removed afterwards), each pair in a fresh empty cache folder (WGK_CACHE, --offline).
// Error(Io) when a run fails.
ProcessStart measureProcessStart(const std::string& repo, const package::BenchCase& c, int rounds);

}  // namespace wgk::cli

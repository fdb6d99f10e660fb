// Measurements across fresh processes (`wgk overhead --processes N`, `wgk chain --processes N`): a
// figure measured in one process says little about the next (thread placement, allocator and
// driver state differ per process), so the command runs itself again in N children and reports
// the spread of their figures.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace wgk::cli {

// This process's command line (/proc/self/cmdline) without its --processes option and without
// --out (children write no evidence files), with --json added when absent: what each child runs.
std::vector<std::string> childArguments();

// Runs /proc/self/exe with `args` (args[0] is the program name) `n` times, one after another (so
// the children do not compete for the machine), and parses each one's stdout as JSON. Error(Io)
// naming the child when it cannot start, exits non-zero or prints something that is not JSON.
// Each child's stderr goes to this process's stderr.
std::vector<nlohmann::json> runChildren(const std::vector<std::string>& args, int n);

// Wall time of one run of /proc/self/exe with `args` and these extra environment variables, from
// spawning it to its exit; stdout is discarded. Error(Io) when it cannot start or fails.
std::chrono::duration<double, std::milli> timeChild(const std::vector<std::string>& args,
                                                    const std::map<std::string, std::string>& env);

// The spread of one figure across processes: the median of the per-process values, their min
// and max, and (max - min) / median in percent.
struct Spread {
  std::vector<double> values;  // one per process, in run order
  double median = 0, min = 0, max = 0, spreadPct = 0;
  nlohmann::json toJson() const;
};
Spread spreadOf(std::vector<double> values);

}  // namespace wgk::cli

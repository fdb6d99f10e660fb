// Per-device tuning tables written by `wgk tune`: for a package and a request signature (dtypes,
// shapes, absent inputs, attributes), the variant that measured fastest on that device. The
// runtime passes it to the planner as a preference, which the planner follows only when that
// variant is eligible — a tuning file can never make an ineligible variant run.
//
//   {"format": "wgk-tuning/1", "device": {"vendor": ..., "architecture": ..., "description": ...},
//    "entries": [{"package": "ai.onnx.RMSNormalization", "signature": "...", "case": "...",
//                 "variant": "last_axis_row_vec4", "gbps": 4100.0, "candidates": {...}}]}
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/plan.h"
#include "wgk/device.h"

namespace wgk::runtime {

struct TuningEntry {
  std::string package, signature, caseName, variant;
  double gbps = 0;
  nlohmann::json candidates = nlohmann::json::object();  // variant -> measured GB/s
};

class TuningTable {
 public:
  // Error(Io/Parse/Manifest) for an unreadable or malformed file.
  static TuningTable load(const std::string& path);
  void save(const std::string& path) const;  // atomic (temp + rename)

  std::string deviceKey;  // identifies the device the table was measured on
  nlohmann::json device = nlohmann::json::object();
  std::vector<TuningEntry> entries;

  bool matchesDevice(const DeviceProfile& profile) const { return deviceKey == deviceKeyOf(profile); }
  // The preferred variant for this package and signature, or nullptr.
  const TuningEntry* find(const std::string& package, const std::string& signature) const;
  void set(TuningEntry entry);  // replaces an entry with the same package and signature

  static std::string deviceKeyOf(const DeviceProfile& profile);
};

// What identifies a request for tuning: inputs (dtype + shape), absent inputs and attributes.
std::string tuningSignature(const plan::PlanRequest& request);

}  // namespace wgk::runtime

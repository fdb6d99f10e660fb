// Per-device tuning tables written by `wgk tune`: for a package and a request signature (dtypes,
// shapes, attributes), the variant — and the manifest tunables, e.g. a workgroup size — that
// measured fastest on that device.
//
//   {"format": "wgk-tuning/1", "deviceKey": "...", "device": {"vendor": ..., "architecture": ...},
//    "entries": [{"package": "com.microsoft.FastGelu", "signature": "...", "case": "...",
//                 "variant": "vec4_bias", "tunables": {"WORKGROUP_SIZE": 128}, "gbps": 4100.0,
//                 "candidates": {"vec4_bias": 3900.0, "vec4_bias WORKGROUP_SIZE=128": 4100.0}}]}
//
// How the runtime uses an entry (applyTuning, then the planner): the entry's variant becomes
// PlanRequest::preferredVariant and its tunables PlanRequest::tunables, as one pair. The planner
// applies the tunables and takes the preferred variant only when it is eligible with them;
// otherwise it plans as if there were no entry (the manifest's tunables, static priority). So a
// tuning file can never make an ineligible variant run, and never changes what runs except to the
// tuned, eligible (variant, tunables) pair. A forced variant (CallOptions::variant) or tunables the
// caller set itself turn the table off for that call. Tunables the manifest does not have, or of
// another type, are an error (Error(InvalidArgument) naming the tunable and the package): the
// table no longer fits the package.
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
  nlohmann::json candidates = nlohmann::json::object();  // "variant" or "variant NAME=VALUE" -> GB/s
  nlohmann::json tunables = nlohmann::json::object();    // manifest tunable -> value (scalars); may be empty
};

class TuningTable {
 public:
  // Error(Io/Parse/Manifest) for an unreadable or malformed file (the message names the JSON path).
  static TuningTable load(const std::string& path);
  // load() and check the table was measured on `profile`'s device: Error(InvalidArgument) otherwise.
  // What the runtime (RuntimeOptions::tuningFile, WGK_TUNING) and `wgk plan --tuning` use.
  static TuningTable loadFor(const std::string& path, const DeviceProfile& profile);
  void save(const std::string& path) const;  // atomic (temp + rename)

  std::string deviceKey;  // identifies the device the table was measured on
  nlohmann::json device = nlohmann::json::object();
  std::vector<TuningEntry> entries;

  bool matchesDevice(const DeviceProfile& profile) const { return deviceKey == deviceKeyOf(profile); }
  // The entry for this package and signature, or nullptr.
  const TuningEntry* find(const std::string& package, const std::string& signature) const;
  void set(TuningEntry entry);  // replaces an entry with the same package and signature

  static std::string deviceKeyOf(const DeviceProfile& profile);
};

// What identifies a request for tuning: inputs (dtype + shape) and attributes. Explicitly absent
// inputs are left out (unlisted optional inputs are absent anyway, and a call never lists them).
std::string tuningSignature(const plan::PlanRequest& request);

// The entry's tunables as planner values.
std::map<std::string, expr::Value> tunableValues(const TuningEntry& entry);

// Sets request.preferredVariant and request.tunables from the table's entry for `package` and the
// request's signature, and returns that entry; nullptr (request unchanged) when there is none or
// when the request forces a variant or sets tunables itself.
const TuningEntry* applyTuning(const TuningTable& table, const std::string& package,
                               plan::PlanRequest& request);

}  // namespace wgk::runtime

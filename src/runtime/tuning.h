// Per-device tuning tables written by `wgk tune`: for a package and a request signature (dtypes,
// shapes, attributes), the variant — and the manifest tunables, e.g. a workgroup size — that
// measured fastest on that device.
//
//   {"format": "wgk-tuning/1", "deviceKey": "...", "device": {"vendor": ..., "architecture": ...},
//    "entries": [{"package": "com.microsoft.FastGelu", "signature": "...", "case": "...",
//                 "variant": "vec4_bias", "tunables": {"WORKGROUP_SIZE": 128}, "gbps": 4100.0,
//                 "candidates": {"vec4_bias": 3900.0, "vec4_bias WORKGROUP_SIZE=128": 4100.0}}]}
//
// A shipped table (under the embedded packages' root, tuning/*.json: shippedTuningFor) also has a
// "name" ("nvidia-h200") and a "match" instead of an exact deviceKey:
//   "match": {"vendor": "nvidia", "device": "NVIDIA H200", "backendType": "vulkan",
//             "driverMin": "580", "driverBelow": "600"}
// vendor, device and backendType equal the adapter's (case-insensitive); the driver version is the
// first dotted number in the adapter's description ("NVIDIA: 580.159.04 ..." -> 580.159.4),
// compared numerically: driverMin <= version < driverBelow (either bound optional). A device whose
// description carries no version matches no table that states a driver bound.
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
#include <optional>
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
  std::string name;                                 // a shipped table's name ("nvidia-h200")
  nlohmann::json match = nlohmann::json::object();  // a shipped table's device rule (above)
  std::string path;                                 // the file it was loaded from

  // The match rule when the table has one, else the exact deviceKey.
  bool matchesDevice(const DeviceProfile& profile) const;
  // How plans name the table: "nvidia-h200 table", or "tuning file PATH" for a user's.
  std::string label() const { return name.empty() ? "file " + path : name + " table"; }
  // The entry for this package and signature, or nullptr.
  const TuningEntry* find(const std::string& package, const std::string& signature) const;
  void set(TuningEntry entry);  // replaces an entry with the same package and signature

  static std::string deviceKeyOf(const DeviceProfile& profile);
};

// The first shipped table (packagesRoot/tuning/*.json, in name order) whose match rule accepts the
// device; nullopt when none does or the folder is absent. A shipped table that is malformed or
// has no name and match is Error(Manifest) naming the file.
std::optional<TuningTable> shippedTuningFor(const std::string& packagesRoot, const DeviceProfile& profile);

// The table a runtime on `profile` uses: none for tuningFile "none"; the user's file (loadFor)
// when one is named (RuntimeOptions::tuningFile, WGK_TUNING, `--tuning`); else the shipped table
// matching the device, if any. One rule for the runtime, `wgk plan` and `wgk devices`.
std::optional<TuningTable> tuningFor(const std::string& tuningFile, const std::string& packagesRoot,
                                     const DeviceProfile& profile);

// The adapter's driver version: the first dotted number in its description, as numbers ([] if none).
std::vector<int64_t> driverVersion(const DeviceProfile& profile);

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

// wgk/plan.h — what a call would do, without running it (Kernel::plan): the variant the request
// gets, why every other variant was not chosen, the outputs, the intermediates and the passes with
// their dispatch sizes. `wgk plan` prints the same plan.
//
//   wgk::Kernel gelu = rt->load("webgpu-kernels/com.microsoft.FastGelu");
//   wgk::KernelPlan p = gelu.plan({{"X", {wgk::DType::Float16, {4096, 16384}}},
//                                  {"bias", {wgk::DType::Float16, {16384}}}});
//   std::cout << p.variant << " by " << p.selectedBy << "\n";            // "... by priority"
//   for (const auto& v : p.variants)
//     if (!v.eligible) std::cout << v.id << ": " << v.reason << "\n";    // why not this one
//   p.passes[0].dispatch;                                                 // {x, y, z} workgroups
//
//   // For another device (its `wgk devices --json` profile), with the shaders rendered:
//   wgk::KernelPlan h = gelu.plan(inputs, {.device = wgk::DeviceProfile::load("h200.json"),
//                                          .wgsl = true});
//
// Errors are those of a call's planning: Error(Contract) for inputs that break the op contract,
// Error(NoVariant) when no variant is eligible (the message lists each one's reason).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "wgk/attribute.h"
#include "wgk/device.h"
#include "wgk/dtype.h"

namespace wgk {

// A tensor as planning sees it: its dtype and shape, no data.
struct TensorSpec {
  DType dtype = DType::Float32;
  Shape shape;
};

struct PlanOptions {
  std::map<std::string, Attribute> attrs;  // as CallOptions::attrs
  std::map<std::string, Attribute> args;   // as CallOptions::args
  std::string variant;                     // force a variant id (it must be eligible)
  // Plan for this device profile instead of the runtime's device; the runtime's tuning table
  // (RuntimeOptions::tuningFile) is then not applied, since it belongs to the runtime's device.
  std::optional<DeviceProfile> device;
  bool wgsl = false;  // render every pass's WGSL into PlanPass::wgsl
};

// One variant's verdict for the request.
struct PlanVariant {
  std::string id;
  double priority = 0;
  bool eligible = false;
  bool demoted = false;  // eligible, but ranked below the undemoted ones (reason says why)
  std::string reason;    // why ineligible or demoted; empty otherwise
};

// An output (by arg name) or an intermediate buffer (by id) the plan allocates.
struct PlanTensor {
  std::string name;
  DType dtype = DType::Float32;
  Shape shape;
  uint64_t bytes = 0;     // intermediates: device bytes
  bool zeroInit = false;  // intermediates: cleared before the first pass that uses them
};

struct PlanPass {
  std::string id;  // a repeated pass's id is "<group>[<i>].<pass>"
  std::string name;
  std::string shader;                           // the template file
  std::array<uint64_t, 3> workgroups{0, 0, 0};  // as the manifest asks
  std::array<uint32_t, 3> dispatch{0, 0, 0};    // what is dispatched (folded into y past the limit)
  bool folded = false;
  bool skipped = false;  // zero workgroups: nothing runs
  std::string wgsl;      // the rendered shader (PlanOptions::wgsl), else empty
};

struct KernelPlan {
  std::string op;                     // "com.microsoft.FastGelu"
  std::string variant;                // the variant the request gets
  std::string selectedBy;             // "priority", "forced" or "tuning"
  std::vector<PlanVariant> variants;  // every variant, manifest order
  std::vector<PlanTensor> outputs;
  std::vector<PlanTensor> intermediates;
  std::vector<PlanPass> passes;
  // The whole plan as one JSON object, what `wgk plan --json` prints for it: the fields above and
  // the details a kernel author reads (each pass's bindings, uniform values and bytes, WGSL
  // declarations, tunables, the tuning table consulted). Python's Kernel.plan() returns it parsed.
  std::string json;
};

}  // namespace wgk

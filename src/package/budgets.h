// Whole-object budgets of a package and of one call planned from it (issue 28, docs/reliability.md
// "Limits"). Each is checked before the object is built, from counts the manifest states, so a
// small manifest cannot make wgk allocate without bound (a 100 KB family of 2,000 x 2,000 axis
// entries once expanded into 4 million variants until std::bad_alloc aborted `wgk info`).
#pragma once

#include <cstddef>
#include <cstdint>

namespace wgk::package {

// Plain variants of one package once every family is expanded (cases x templates, or the axes'
// cells x templates). The embedded packages hold at most a few dozen.
inline constexpr size_t kMaxVariants = 4096;

// Passes of one call once repeat groups are expanded (the spec lets one group repeat 65,535
// times). The runtime creates one bind group and one uniform buffer per pass: 65,535 of them
// crashed the Vulkan driver during `wgk run`.
inline constexpr size_t kMaxPassesPerCall = 8192;
// Bind groups one call creates: one per pass that binds anything.
inline constexpr size_t kMaxBindGroupsPerCall = kMaxPassesPerCall;
// Distinct shaders (compute pipelines) of one call: each is compiled and kept by the runtime;
// 65,535 passes with different shaders grew memory by about 110 MB/s.
inline constexpr size_t kMaxPipelinesPerCall = 1024;

}  // namespace wgk::package

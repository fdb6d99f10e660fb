// Writers of the manifest model, one per dialect: the inverse of the readers, used by
// `wgk convert` (docs/hub.md "Converting between dialects"). Each writes a manifest that its
// dialect's reader turns back into a model that plans like the given one (same variant, dispatch,
// uniforms and WGSL for every request the original accepts). Where the two dialects give a
// construct different meanings, the writer spells the original meaning out:
//   seeds -> 2.1: a variant's `derive` (visible to `when`) is hoisted into the top-level derive as
//     `<variant>__<name>` and aliased back in the variant's derive; `constants` become the
//     variant's derive (`constants.x` reads as `derive.x`); a pass `source` becomes the pass derive
//     `sourceInputs` (templates are rewritten to match: `source.` is a reserved name in 2.1);
//     `{threads, workgroupSize}` becomes the explicit balanced fold {x, y, z} the seeds planner
//     applies; `{workgroups, z}` the row-stride fold; semantics (`shapes.X` for arg `x`) are
//     rewritten to the port names; attribute min/max become top-level `when` entries.
//   2.1 -> seeds: the reverse where the seeds have the construct; anything else (scalar args,
//     repeat groups, variant tunables, requires limits, zeroInit, supersededBy, ...) is
//     Error(Unsupported) naming the construct and where it is.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "package/json_reader.h"
#include "package/manifest.h"

namespace wgk::package {

Json writeSpec21Manifest(const Manifest& m);
Json writeSeedsManifest(const Manifest& m);
Json writeManifest(const Manifest& m, Dialect to);

// A template's text as the other dialect's pass scope names its values: inside {{ }} and {% %}
// tags only, the seeds' `source.` <-> spec 2.1's `sourceInputs.` (nothing else changes, so the
// rendered WGSL is the same).
std::string rewriteTemplate(const std::string& text, Dialect to);

// The pass derive name a seeds `source` map gets in spec 2.1.
inline constexpr const char* kSourceInputs = "sourceInputs";

}  // namespace wgk::package

namespace wgk::package {

class Package;

// Writes `pkg` re-expressed in `to` into <outPackageDir>/build/webgpu/: manifest.json, every
// template rewritten for the dialect's pass scope, every other file (test.json, bench.json,
// card.json, ...) copied; README.md of the package folder too. metadata.json is not written (the
// hub generates it: its digests are of these files). Returns the files written (relative paths).
std::vector<std::string> convertPackage(const Package& pkg, Dialect to,
                                        const std::filesystem::path& outPackageDir);

}  // namespace wgk::package

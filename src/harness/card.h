// Kernel cards: the README.md of a package, generated (never hand-written) by `wgk card` from
// build/webgpu/manifest.json, test.json, the list of build/webgpu files and an optional card.json
// in the package root (docs/cli.md). Sections: front matter, title, description, inputs, outputs,
// attributes, type constraints, implementation variants, device requirements, files, tolerances,
// usage from C++ and from the command line.
//
//   auto pkg = wgk::package::Package::open("packages/webgpu-kernels/com.microsoft.FastGelu");
//   std::string readme = wgk::harness::generateCard(*pkg);
//
// card.json holds the prose a manifest cannot carry (all fields optional, unknown ones rejected):
//   {"operatorSpec": {"title": "...", "url": "https://..."},
//    "tolerances": {"float16": "why this tolerance", "float32": "..."}}
// When card.json exists, every output dtype that test.json checks must have a tolerance note.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "package/package.h"
#include "package/test_spec.h"

namespace wgk::harness {

struct CardNotes {
  bool present = false;  // card.json exists
  std::string specTitle, specUrl;
  // The card's description when the manifest has none (the Hub's spec 2.1 manifests carry no
  // `description`); a manifest's own description wins.
  std::string description;
  std::map<std::string, std::string> tolerances;  // output dtype name -> justification
};

// Reads <packageRoot>/card.json; `present` false when there is none. Error(Manifest) naming the
// JSON path for a malformed file.
CardNotes loadCardNotes(const package::Package& pkg);

// One row of the tolerance table: the tolerance test.json uses for outputs of `outputDtype` in
// cases whose inputs have the dtypes `inputDtypes` ("x float16, scale float32"), and how many
// cases use it.
struct ToleranceUse {
  std::string outputDtype;
  std::string inputDtypes;
  package::Tolerance tolerance;
  int cases = 0;
};

// Distinct (output dtype, input dtypes, tolerance) triples of a test file, in order of first
// appearance. A case counts once per triple even when several outputs share it.
std::vector<ToleranceUse> toleranceUses(const package::Manifest& m, const package::TestFile& file);
// "ulp: 1, abs: 0.004"; "exact" for an empty tolerance.
std::string toleranceText(const package::Tolerance& t);
// "x float16, scale float32": the dtypes of a request's inputs, in the manifest's args order.
std::string inputDtypesText(const package::Manifest& m, const std::map<std::string, DType>& inputs);

// The tolerance test.json uses most often for `outputDtype` with these input dtypes (ties: the
// first seen). nullopt when no case checks that combination. Used by `wgk demo`.
std::optional<package::Tolerance> typicalTolerance(const package::Manifest& m, const package::TestFile& file,
                                                   const std::string& outputDtype,
                                                   const std::string& inputDtypes);

// The whole README.md.
std::string generateCard(const package::Package& pkg);

// Pieces of the card, exposed for tests.
std::string variantsSection(const package::Manifest& m);
std::string deviceRequirementsSection(const package::Manifest& m);
std::string usageSection(const package::Manifest& m, const std::string& repoId,
                         const package::TestFile& tests);

}  // namespace wgk::harness

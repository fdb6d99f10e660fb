// The other package files (src/package, src/hub): test.json, bench.json and metadata.json. The
// first byte picks the reader, so one corpus covers all three and seeds cross-pollinate.
#include "fuzz_common.h"
#include "hub/metadata.h"
#include "package/package.h"
#include "package/test_spec.h"

using namespace wgk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t which = data[0] % 4;
  std::string_view body = fuzz::text(data + 1, size - 1);
  fuzz::expectOnlyWgkErrors([&] {
    if (which == 3) {  // raw manifest bytes, as the hub reads them for facts
      (void)hub::manifestFacts(package::readManifest(std::string(body), "manifest.json"));
      return;
    }
    nlohmann::json j;
    if (!fuzz::parseJsonInput(body, j)) return;
    if (which == 0) {
      package::TestFile t = package::parseTestFile(j);
      // Materialising allocates host tensors: only small ones, so the fuzzer tests parsing.
      for (const auto& c : t.cases) {
        uint64_t elems = 0;
        for (const auto& [name, in] : c.inputs) {
          uint64_t n = 1;
          for (int64_t d : in.shape)
            n = (d < 0 || d > (1 << 16)) ? (1ull << 40) : std::min<uint64_t>(n * d, 1ull << 40);
          elems += n;
        }
        if (elems <= (1u << 16)) (void)package::materializeInputs(c);
      }
    } else if (which == 1) {
      (void)package::parseBenchFile(j);
    } else {
      (void)package::manifestSpecOf(j);
      (void)hub::contentRevision(std::string(body));
    }
  });
  return 0;
}

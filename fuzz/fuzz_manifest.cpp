// Manifest loaders (src/package): the input is manifest.json, read both as the seeds' dialect and
// as spec 2.1 (and by detection), as a downloaded package's would be.
#include "fuzz_common.h"
#include "package/manifest.h"

using namespace wgk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expectOnlyWgkErrors([&] {
    nlohmann::json j;
    if (!fuzz::parseJsonInput(fuzz::text(data, size), j)) return;
    fuzz::expectOnlyWgkErrors([&] {
      package::Manifest m = package::parseManifest(j);
      (void)m.shaderFiles();
    });
    fuzz::expectOnlyWgkErrors([&] { (void)package::parseManifest(j, std::string("2.1")); });
    fuzz::expectOnlyWgkErrors([&] { (void)package::readSeedsManifest(j); });
  });
  return 0;
}

// A whole package at once (issue 28): manifest.json, metadata.json, test.json and templates, each a
// section of the input (fuzz_archive.h), written to a folder and loaded as `wgk test` loads one:
// Package::open (metadata's manifestSpec, then the manifest), metadata.json against the manifest
// as the hub checks a download (digests aside: the fuzzer cannot forge sha256), the templates the
// variants name with their includes, test.json, and each of its first cases planned on the
// lavapipe profile with shaders rendered. Every answer must be a result or a wgk::Error.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "fuzz_archive.h"
#include "fuzz_common.h"
#include "hub/downloader.h"
#include "hub/metadata.h"
#include "package/package.h"
#include "package/test_spec.h"
#include "plan/plan.h"

using namespace wgk;
namespace fs = std::filesystem;

namespace {

// The package folder, rewritten for every input: in /dev/shm when there is one (a file system in
// memory: on disk, the writes took a quarter of the time).
const fs::path& folder() {
  static const fs::path dir = [] {
    std::error_code ec;
    const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path d = base / ("wgk-fuzz-package-" + std::to_string(::getpid()));
    fs::create_directories(d / "build" / "webgpu");
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(folder(), ignored);
    });
    return d;
  }();
  return dir;
}

const DeviceProfile& lavapipe() {
  // WGK_FUZZ_SOURCE_DIR: the checkout when the target runs on another machine than it was built on.
  const char* src = std::getenv("WGK_FUZZ_SOURCE_DIR");
  static const DeviceProfile p =
      DeviceProfile::load(std::string(src ? src : WGK_SOURCE_DIR) + "/tests/data/profiles/lavapipe.json");
  return p;
}

// A file name the archive may use: one plain component (the package's own confinement is tested
// by the loaders; here the files must land inside the folder).
bool plainName(const std::string& n) {
  if (n.empty() || n.size() > 64 || n == "." || n == "..") return false;
  for (char c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
  return true;
}

uint64_t elements(const Shape& shape) {
  uint64_t n = 1;
  for (int64_t d : shape) n = (d < 0 || d > (1 << 16)) ? (1ull << 40) : std::min<uint64_t>(n * d, 1ull << 40);
  return n;
}

void planCases(const plan::Planner& planner, const package::TestFile& t) {
  size_t planned = 0;
  for (const auto& c : t.cases) {
    if (++planned > 4) break;
    plan::PlanRequest r;
    uint64_t total = 0;
    for (const auto& [name, in] : c.inputs) {
      r.inputs[name] = {in.dtype, in.shape};
      total += elements(in.shape);
    }
    r.attrs = c.attrs;
    fuzz::expectOnlyWgkErrors([&] { (void)planner.plan(r, lavapipe()); });
    if (total <= (1u << 16)) fuzz::expectOnlyWgkErrors([&] { (void)package::materializeInputs(c); });
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::Sections files = fuzz::splitSections(fuzz::text(data, size));
  const std::string* manifest = fuzz::section(files, "manifest.json");
  if (!manifest) return 0;
  const fs::path dir = folder() / "build" / "webgpu";
  for (const auto& e : fs::directory_iterator(dir)) fs::remove_all(e.path());
  std::set<std::string> written;
  for (const auto& [name, body] : files) {
    if (!plainName(name) || !written.insert(name).second) continue;
    std::ofstream(dir / name, std::ios::binary).write(body.data(), std::streamsize(body.size()));
  }
  std::shared_ptr<package::Package> pkg;
  fuzz::expectOnlyWgkErrors([&] { pkg = package::Package::open(folder().string()); });
  std::vector<std::string> metaTemplates;
  if (const std::string* meta = fuzz::section(files, "metadata.json"))
    fuzz::expectOnlyWgkErrors([&] {
      hub::HttpResponse r;
      r.body = *meta;
      // The repo a download of this package asks: named after the manifest's op (metadata.json
      // naming another package is refused here, as checkManifestAgainstMetadata would). Parsing
      // metadata.json first for its name read it twice per input.
      const std::string repoName = pkg ? hub::manifestFacts(pkg->manifest()).opId() : "fuzz";
      const hub::PackageMetadata m = hub::metadataFromResponse({"fuzz", repoName}, r);
      // The manifest as Package::open read it, with metadata.json's manifestSpec as a download
      // reads it: parsed once per input (parsing it again took a quarter of the time; the bytes
      // overload is fed by fuzz_hub_response). A manifest Package::open refused is refused there.
      if (pkg) hub::checkManifestAgainstMetadata({"fuzz", m.name}, m, pkg->manifest());
      const std::set<std::string> all = m.allTemplates();
      metaTemplates.assign(all.begin(), all.end());
      (void)hub::templatesWithIncludes(dir, metaTemplates);
    });
  if (!pkg) return 0;
  fuzz::expectOnlyWgkErrors([&] {
    std::set<std::string> shaders;
    for (const auto& [vid, s] : hub::manifestFacts(pkg->manifest()).variantShaders)
      shaders.insert(s.begin(), s.end());
    // The same list as metadata.json's (the usual case once it passed the check): scanned already.
    const std::vector<std::string> list(shaders.begin(), shaders.end());
    if (list != metaTemplates) (void)hub::templatesWithIncludes(dir, list);
  });
  if (!written.count("test.json")) return 0;
  fuzz::expectOnlyWgkErrors([&] {
    const package::TestFile t = package::loadTestFile((dir / "test.json").string());
    planCases(plan::Planner(pkg), t);
  });
  return 0;
}

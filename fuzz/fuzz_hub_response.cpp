// What the hub client parses from a server (issue 28), without sockets: each section of the input
// (fuzz_archive.h) is one HTTP response as the wire carries it, a status line and header lines up
// to a blank line, then the body. Headers go through ResponseHeaders (libcurl's header callback:
// Content-Length, control characters, repeated hops), a redirect's Location through urlOrigin,
// then the download's own steps: the commit from X-Repo-Commit or the content revision, metadata.json
// for the repo id the "repo" section names, and manifest.json against it (digests aside: the
// fuzzer cannot forge sha256). Every answer must be a result or a wgk::Error.
#include "fuzz_archive.h"
#include "fuzz_common.h"
#include "hub/cache.h"
#include "hub/downloader.h"
#include "hub/http_client.h"
#include "hub/metadata.h"

using namespace wgk;

namespace {

// One response: ResponseHeaders over each header line; false when the client would refuse it.
bool readResponse(const std::string& wire, hub::HttpResponse& out) {
  size_t end = wire.find("\r\n\r\n");
  const size_t bodyAt = end == std::string::npos ? wire.size() : end + 4;
  if (end == std::string::npos) end = wire.size();
  hub::ResponseHeaders h;
  for (size_t at = 0; at < end;) {
    size_t eol = wire.find('\n', at);
    eol = eol == std::string::npos || eol > end ? end : eol + 1;
    if (!h.add(std::string_view(wire).substr(at, eol - at))) return false;
    at = eol;
  }
  out.status = 200;
  out.headers = std::move(h.headers);
  out.body = wire.substr(bodyAt);
  out.finalUrl = "https://hub.example/fuzz/resolve/v1/build/webgpu/file";
  if (auto loc = out.headers.find("location"); loc != out.headers.end())
    fuzz::expectOnlyWgkErrors([&] { (void)hub::urlOrigin(loc->second); });
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::Sections s = fuzz::splitSections(fuzz::text(data, size));
  hub::RepoId repo{"webgpu-kernels", "ai.onnx.Add"};
  hub::PackageRequest request;
  if (const std::string* r = fuzz::section(s, "repo"))
    fuzz::expectOnlyWgkErrors([&] { repo = hub::parseRepoId(r->substr(0, r->find('\n'))); });
  if (const std::string* r = fuzz::section(s, "revision"))
    fuzz::expectOnlyWgkErrors([&] { request = hub::PackageRequest::make(std::nullopt, r->substr(0, 40)); });
  const std::string* metaWire = fuzz::section(s, "metadata.json");
  hub::CommitAnswer answer;
  if (!metaWire || !readResponse(*metaWire, answer.metadata)) return 0;
  fuzz::expectOnlyWgkErrors([&] { hub::commitFromResponse(answer, request); });
  fuzz::expectOnlyWgkErrors([&] {
    const hub::PackageMetadata meta = hub::metadataFromResponse(repo, answer.metadata);
    (void)hub::requiredFiles(meta, true);
    hub::HttpResponse manifest;
    if (const std::string* w = fuzz::section(s, "manifest.json"); w && readResponse(*w, manifest))
      hub::checkManifestAgainstMetadata(repo, meta, manifest.body);
  });
  // Any other section is one more file of the download: its headers are parsed the same way.
  for (const auto& [name, wire] : s) {
    hub::HttpResponse r;
    if (name != "metadata.json" && name != "manifest.json" && name != "repo" && name != "revision")
      (void)readResponse(wire, r);
  }
  return 0;
}

// Helpers for the hub tests: a scratch folder, a small package built from a seed manifest, and the
// loopback Hub server (hub_server.py) as a child process.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hub/hub_config.h"

namespace wgk::hub::test {

namespace fs = std::filesystem;

// A fresh folder under the system temp dir, removed at the end of the test.
class Scratch {
 public:
  Scratch();
  ~Scratch();
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void writeText(const fs::path& file, const std::string& text);
std::string readText(const fs::path& file);

// <root>/<org>/com.microsoft.FastGelu/build/webgpu/ from the FastGelu seed manifest, a template
// that includes a second one, test.json and bench.json; metadata.json generated. `flavour` changes
// the template's bytes (so two packages differ). Returns the package folder.
fs::path makeFastGeluPackage(const fs::path& root, const std::string& org, const std::string& flavour = "a");

inline const std::string kRepo = "webgpu-kernels/com.microsoft.FastGelu";

// hub_server.py serving `root` on 127.0.0.1; killed in the destructor.
class HubServer {
 public:
  explicit HubServer(const fs::path& root);
  ~HubServer();
  // http://127.0.0.1:<port>/<mode>
  std::string endpoint(const std::string& mode) const;
  int port() const { return port_; }
  // The request log: one JSON object per request ({"path", "host", "auth"}).
  std::vector<std::string> log() const;
  bool alive() const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  fs::path logFile_;
};

// Options for tests: the given endpoint (also the trusted one) and cache, short timeouts, two
// attempts, no progress, no embedded packages, no environment token.
HubOptions testOptions(const std::string& endpoint, const fs::path& cache);

// Number of staging folders left in a cache (must be 0 after any failure).
int stagingLeftovers(const fs::path& cache);

}  // namespace wgk::hub::test

#include "hub_test_support.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "hub/fs_util.h"
#include "hub/metadata.h"

namespace wgk::hub::test {

Scratch::Scratch() {
  std::random_device rd;
  path_ =
      fs::temp_directory_path() / ("wgk-hub-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
  fs::create_directories(path_);
}

Scratch::~Scratch() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void writeText(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

std::string readText(const fs::path& file) {
  return readFileBytes(file);
}

fs::path makeFastGeluPackage(const fs::path& root, const std::string& org, const std::string& flavour) {
  fs::path pkg = root / org / "com.microsoft.FastGelu";
  fs::path dir = webgpuDir(pkg);
  writeText(dir / "manifest.json",
            readText(fs::path(WGK_SEEDS_DIR) / "com.microsoft.FastGelu.manifest.json"));
  writeText(dir / "elementwise-bias-gelu.wgsl.jinja",
            "// dummy template, flavour " + flavour + "\n{% include \"gelu-common.wgsl.jinja\" %}\n");
  writeText(dir / "gelu-common.wgsl.jinja", "fn gelu(x: f32) -> f32 { return x; }\n");
  writeText(dir / "test.json", "{\"cases\": []}\n");
  writeText(dir / "bench.json", "{\"cases\": []}\n");
  writeText(pkg / "README.md", "# FastGelu\n");
  writeText(dir / "metadata.json", generateMetadata(pkg, org).serialize());
  return pkg;
}

HubServer::HubServer(const fs::path& root) {
  logFile_ = root / ("server-log-" + std::to_string(::getpid()) + ".jsonl");
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execlp("python3", "python3", WGK_HUB_SERVER, root.c_str(), logFile_.c_str(), (char*)nullptr);
    ::_exit(127);
  }
  ::close(fds[1]);
  // The first line is the port; bounded by the pipe closing if the server fails to start.
  std::string line;
  char c;
  while (::read(fds[0], &c, 1) == 1 && c != '\n') line += c;
  ::close(fds[0]);
  port_ = std::atoi(line.c_str());
  if (port_ <= 0) throw std::runtime_error("hub_server.py did not start (output: \"" + line + "\")");
}

HubServer::~HubServer() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

bool HubServer::alive() const {
  int status = 0;
  return ::waitpid(pid_, &status, WNOHANG) == 0;
}

std::string HubServer::endpoint(const std::string& mode) const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/" + mode;
}

std::vector<std::string> HubServer::log() const {
  std::vector<std::string> lines;
  std::ifstream in(logFile_);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

HubOptions testOptions(const std::string& endpoint, const fs::path& cache) {
  HubOptions o;
  o.endpoint = endpoint;
  // The loopback server is the trusted endpoint of these tests (hub_trust_test.cpp tests trust).
  o.trustedEndpoint = endpoint;
  o.cacheDir = cache.string();
  o.token = "";
  o.http.connectTimeoutMs = 2000;
  o.http.lowSpeedTimeSec = 1;
  o.http.totalTimeoutSec = 10;
  o.http.maxAttempts = 2;
  o.http.backoffMs = 50;
  o.http.progress = false;
  return o;
}

int stagingLeftovers(const fs::path& cache) {
  std::error_code ec;
  if (!fs::exists(cache / ".tmp", ec)) return 0;
  int n = 0;
  for (auto it = fs::directory_iterator(cache / ".tmp", ec); it != fs::directory_iterator(); ++it) ++n;
  return n;
}

}  // namespace wgk::hub::test

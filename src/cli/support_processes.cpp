#include "cli/support_processes.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "wgk/error.h"

extern char** environ;

namespace wgk::cli {
namespace {

// Spawns /proc/self/exe; its stdout goes to `outFd` (-1: /dev/null). Returns the child's pid.
pid_t spawnSelf(const std::vector<std::string>& args, const std::vector<std::string>& env, int outFd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (outFd >= 0)
    posix_spawn_file_actions_adddup2(&actions, outFd, STDOUT_FILENO);
  else
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv, envp;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error(ErrorCode::Io, std::string("cannot start a child wgk: ") + std::strerror(rc));
  return pid;
}

// Waits for `pid`; Error(Io) "<what> failed (exit status N)" unless it exited with 0.
void reap(pid_t pid, const std::string& what) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw Error(ErrorCode::Io, "cannot wait for " + what + ": " + std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  const std::string how = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                            : "signal " + std::to_string(WTERMSIG(status));
  throw Error(ErrorCode::Io, what + " failed (" + how + ")");
}

std::vector<std::string> currentEnvironment() {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
  return env;
}

}  // namespace

std::vector<std::string> childArguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> raw;
  for (size_t at = 0; at < all.size();) {
    const size_t end = all.find('\0', at);
    raw.push_back(all.substr(at, end - at));
    at = end == std::string::npos ? all.size() : end + 1;
  }
  std::vector<std::string> out;
  bool json = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    const std::string& a = raw[i];
    if (a == "--processes" || a == "--out") {
      ++i;  // and its value
      continue;
    }
    if (a.rfind("--processes=", 0) == 0 || a.rfind("--out=", 0) == 0) continue;
    json = json || a == "--json";
    out.push_back(a);
  }
  if (!json) out.push_back("--json");
  return out;
}

std::vector<nlohmann::json> runChildren(const std::vector<std::string>& args, int n) {
  std::vector<nlohmann::json> out;
  const std::vector<std::string> env = currentEnvironment();
  for (int i = 0; i < n; ++i) {
    const std::string what = "child process " + std::to_string(i + 1) + " of " + std::to_string(n);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw Error(ErrorCode::Io, std::string("pipe: ") + std::strerror(errno));
    pid_t pid = 0;
    try {
      pid = spawnSelf(args, env, fds[1]);
    } catch (...) {
      ::close(fds[0]);
      ::close(fds[1]);
      throw;
    }
    ::close(fds[1]);
    std::string text;
    char buf[65536];
    for (ssize_t got; (got = ::read(fds[0], buf, sizeof buf)) != 0;) {
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) break;
      text.append(buf, static_cast<size_t>(got));
    }
    ::close(fds[0]);
    reap(pid, what);
    try {
      out.push_back(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception& e) {
      throw Error(ErrorCode::Io, what + " printed no JSON report: " + e.what());
    }
  }
  return out;
}

std::chrono::duration<double, std::milli> timeChild(const std::vector<std::string>& args,
                                                    const std::map<std::string, std::string>& env) {
  std::vector<std::string> vars;
  for (const std::string& e : currentEnvironment())
    if (!env.count(e.substr(0, e.find('=')))) vars.push_back(e);
  for (const auto& [k, v] : env) vars.push_back(k + "=" + v);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = spawnSelf(args, vars, -1);
  reap(pid, "the timed `wgk " + (args.size() > 1 ? args[1] : std::string()) + "` process");
  return std::chrono::steady_clock::now() - t0;
}

Spread spreadOf(std::vector<double> values) {
  Spread s;
  s.values = values;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  s.min = values.front();
  s.max = values.back();
  s.spreadPct = s.median > 0 ? 100.0 * (s.max - s.min) / s.median : 0;
  return s;
}

nlohmann::json Spread::toJson() const {
  return {{"perProcess", values}, {"median", median}, {"min", min}, {"max", max}, {"spreadPct", spreadPct}};
}

}  // namespace wgk::cli

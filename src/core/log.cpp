#include "core/log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "core/environment.h"

namespace wgk::log {
namespace {

std::mutex& sinkMutex() {
  static std::mutex m;
  return m;
}

Sink& sink() {
  static Sink s;
  return s;
}

// Read once, on first use: the environment is the only configuration a library has before any
// call (a program that links wgk gets the same quiet default as the CLI).
std::atomic<int>& level() {
  static std::atomic<int> l = [] {
    const std::string env = readEnvironment().log;
    if (env.empty()) return static_cast<int>(Level::Warn);
    if (auto parsed = parseLevel(env)) return static_cast<int>(*parsed);
    std::fprintf(stderr, "wgk: warning: WGK_LOG='%s' is not one of error, warn, info, debug; using warn\n",
                 env.c_str());
    return static_cast<int>(Level::Warn);
  }();
  return l;
}

}  // namespace

std::optional<Level> parseLevel(std::string_view t) {
  if (t == "error") return Level::Error;
  if (t == "warn" || t == "warning") return Level::Warn;
  if (t == "info") return Level::Info;
  if (t == "debug") return Level::Debug;
  return std::nullopt;
}

std::string_view levelName(Level l) {
  switch (l) {
    case Level::Error:
      return "error";
    case Level::Warn:
      return "warning";
    case Level::Info:
      return "info";
    case Level::Debug:
      return "debug";
  }
  return "?";
}

Level threshold() {
  return static_cast<Level>(level().load());
}
void setThreshold(Level l) {
  level().store(static_cast<int>(l));
}
bool enabled(Level l) {
  return static_cast<int>(l) <= level().load();
}

void write(Level l, std::string_view source, std::string_view message) {
  if (!enabled(l)) return;
  std::string line = "wgk: " + std::string(levelName(l)) + ": ";
  if (!source.empty()) line += "[" + std::string(source) + "] ";
  line += message;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  std::lock_guard lock(sinkMutex());
  if (sink()) {
    sink()(l, line);
    return;
  }
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void setSink(Sink s) {
  std::lock_guard lock(sinkMutex());
  sink() = std::move(s);
}

}  // namespace wgk::log

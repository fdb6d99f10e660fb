#include "core/log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

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

std::atomic<int>& level() {
  static std::atomic<int> l{static_cast<int>(Level::Warn)};
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

Level levelFromText(std::string_view text, std::string_view from) {
  if (text.empty()) return Level::Warn;
  if (auto parsed = parseLevel(text)) return *parsed;
  // Straight to stderr, whatever the sink: the threshold this would set is not known yet.
  std::fprintf(stderr, "wgk: warning: %.*s='%.*s' is not one of error, warn, info, debug; using warn\n",
               static_cast<int>(from.size()), from.data(), static_cast<int>(text.size()), text.data());
  return Level::Warn;
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

// wgk's own log: one place where diagnostics that are not errors go (Dawn's messages, notes from
// the runtime), each with a level. Quiet by default: only warnings and errors reach stderr unless
// a program lowers the threshold. The library reads no environment: the edges (the wgk command,
// the Python package) apply WGK_LOG (error|warn|info|debug) at start with levelFromText, and
// `wgk --verbose` / `--quiet` after it.
//
//   log::warn("gpu", "the adapter reports no timestamp-query");
//   if (log::enabled(log::Level::Debug)) log::debug("plan", expensiveDescription());
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace wgk::log {

enum class Level { Error = 0, Warn = 1, Info = 2, Debug = 3 };

// "error", "warn" (or "warning"), "info", "debug"; nullopt for anything else.
std::optional<Level> parseLevel(std::string_view text);
std::string_view levelName(Level level);

// The threshold set by a text such as WGK_LOG's value (`from` names it): Warn when empty; an
// unknown value also means Warn, with a warning on stderr saying so.
//   log::setThreshold(log::levelFromText(readEnvironment().log, "WGK_LOG"));   // at an edge
Level levelFromText(std::string_view text, std::string_view from);

// The threshold: messages at or above it (Error is the most severe) are written. Starts at Warn.
Level threshold();
void setThreshold(Level level);
bool enabled(Level level);

// Writes "wgk: <level>: [<source>] <message>" to the sink (stderr unless replaced). Thread-safe.
void write(Level level, std::string_view source, std::string_view message);
inline void error(std::string_view source, std::string_view m) {
  write(Level::Error, source, m);
}
inline void warn(std::string_view source, std::string_view m) {
  write(Level::Warn, source, m);
}
inline void info(std::string_view source, std::string_view m) {
  write(Level::Info, source, m);
}
inline void debug(std::string_view source, std::string_view m) {
  write(Level::Debug, source, m);
}

// Replaces the sink (tests, embedders); an empty function restores stderr. The sink gets the
// formatted line without its newline, only for messages that pass the threshold.
using Sink = std::function<void(Level level, const std::string& line)>;
void setSink(Sink sink);

}  // namespace wgk::log

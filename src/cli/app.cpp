// The command-line front end as a function: the `wgk` executable (main.cpp) and `python3 -m wgk`
// (python/) both run it. Subcommands live in cmd_*.cpp and register themselves; a program gets the
// commands whose files it links.
#include "cli/app.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/environment.h"
#include "core/foreign_errors.h"
#include "core/log.h"
#include "wgk/error.h"

namespace wgk::cli {

ExitCode& exitCode() {
  static ExitCode code;
  return code;
}

std::vector<CommandAdder>& commandRegistry() {
  static std::vector<CommandAdder> registry;
  return registry;
}

int exitCodeFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument:
      return 2;
    case ErrorCode::Setup:
      return 3;
    case ErrorCode::Parse:
    case ErrorCode::Expression:
    case ErrorCode::Template:
    case ErrorCode::Manifest:
    case ErrorCode::Contract:
    case ErrorCode::NoVariant:
    case ErrorCode::NotFound:
    case ErrorCode::Unsupported:
      return 4;
    case ErrorCode::Io:
    case ErrorCode::Network:
      return 5;
    case ErrorCode::Integrity:
    case ErrorCode::Trust:
      return 6;
    case ErrorCode::Gpu:
    case ErrorCode::OutOfMemory:
    case ErrorCode::DeviceLost:
      return 7;
    case ErrorCode::Internal:
      return 70;
  }
  return 70;
}

namespace {

// Every command's output goes to stdout, and a full disk or a closed pipe must not pass for
// success (`wgk lock > /dev/full` used to exit 0 with an empty lock file). Checked once, after the
// command, for iostream and stdio writes alike: flushing reports what buffering had hidden.
// Returns the system's reason, or "" when everything written reached the file.
std::string stdoutFailure() {
  errno = 0;
  std::cout.flush();  // synced with stdio: this flushes stdout's buffer too
  const int streamErr = errno;
  const bool streamFailed = !std::cout;
  errno = 0;
  const bool flushFailed = std::fflush(stdout) != 0;
  const int flushErr = errno;
  if (!streamFailed && !flushFailed && !std::ferror(stdout)) return "";
  // A write that failed before this flush leaves no errno behind; say what usually causes it.
  if (const int err = flushFailed && flushErr ? flushErr : streamErr) return std::strerror(err);
  return "a write failed (a full disk, or a closed pipe)";
}

// `--json` among the arguments (before a lone "--"): an error is then also one JSON object on
// stdout, {"error": {"code", "message", "context"}}, so a program reading stdout gets an answer.
bool wantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) return false;
    if (std::strcmp(argv[i], "--json") == 0) return true;
  }
  return false;
}

// The one-line error on stderr (`wgk: error [<code>]: <message>` and its context lines) and,
// with --json, the same on stdout as an object. Returns rc.
int reportError(bool json, const std::string& code, const std::string& message,
                const std::vector<std::string>& context, const std::string& stderrText, int rc) {
  std::cerr << stderrText << "\n";
  if (json)
    std::cout << nlohmann::json{{"error", {{"code", code}, {"message", message}, {"context", context}}}}.dump(
                     2)
              << "\n";
  return rc;
}

int reportError(bool json, ErrorCode code, const std::string& message, int rc) {
  const std::string name(errorCodeName(code));
  return reportError(json, name, message, {}, "wgk: error [" + name + "]: " + message, rc);
}

}  // namespace

int run(int argc, char** argv) {
  exitCode() = {};  // a process (Python) may run several commands
  // A stdout error of an earlier command in this process is not this one's.
  std::cout.clear();
  std::clearerr(stdout);
  // WGK_LOG, then --verbose / --quiet (their callbacks run while parsing) over it.
  log::setThreshold(log::levelFromText(readEnvironment().log, "WGK_LOG"));
  CLI::App app{"wgk: a native runtime and catalogue of versioned WebGPU kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("wgk ") + WGK_VERSION);
  // Quiet by default (core/log.h): --verbose shows info (Dawn's messages among them), twice debug.
  // Accepted before or after the subcommand (fallthrough).
  app.fallthrough();
  // An option callback runs while parsing, before any subcommand's callback does its work.
  app.add_flag_function(
      "--verbose,-v",
      [](int64_t count) { log::setThreshold(count > 1 ? log::Level::Debug : log::Level::Info); },
      "log more: once info (Dawn's messages), twice debug (default: WGK_LOG, else warnings only)");
  // --quiet: errors only, as WGK_LOG=error (hides the note that the Hub could not be reached).
  app.add_flag_callback(
         "--quiet,-q", [] { log::setThreshold(log::Level::Error); },
         "log errors only: no warnings or notes, as WGK_LOG=error")
      ->excludes("--verbose");
  for (auto& add : commandRegistry()) add(app);
  int rc = 0;
  const bool json = wantsJson(argc, argv);
  try {
    // CLI11 reports an unknown first word as "A subcommand is required": name the word instead.
    std::string known;
    bool found = false;
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      found = found || (argc > 1 && sub->get_name() == argv[1]);
    }
    if (argc > 1 && argv[1][0] != '-' && !found) {
      const std::string message =
          "unknown subcommand '" + std::string(argv[1]) + "' (subcommands: " + known + "; see wgk --help)";
      return reportError(json, std::string(errorCodeName(ErrorCode::InvalidArgument)), message, {},
                         "wgk: " + message, 2);
    }
    // A filesystem or JSON exception that escaped a command is reported as the wgk::Error it
    // stands for (Io, Parse, Manifest), not as an internal error.
    asWgkErrors([&] { app.parse(argc, argv); });
    rc = exitCode().value;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      rc = app.exit(e);  // --help or --version: CLI11 prints them
    } else {
      // A usage error reads like every other error (`wgk: error [invalid-argument]: ...`, exit 2),
      // not as CLI11's bare "--output-dir is required / Run with --help ...".
      std::string sub;
      for (int i = 1; i < argc && sub.empty(); ++i)
        for (CLI::App* s : app.get_subcommands([](CLI::App*) { return true; }))
          if (s->get_name() == argv[i]) sub = s->get_name() + " ";
      rc = reportError(json, ErrorCode::InvalidArgument, e.what() + (" (see wgk " + sub + "--help)"), 2);
    }
  } catch (const Error& e) {
    const std::string name(errorCodeName(e.code()));
    rc = reportError(json, name, e.message(), e.context(), "wgk: error [" + name + "]: " + e.what(),
                     exitCodeFor(e.code()));
  } catch (const std::bad_alloc&) {
    // Whatever made wgk allocate came from an input (a package, a tensor file): exit 4 like a
    // package that breaks a budget. A server's answer is recoded as Network (5) in the hub.
    rc = reportError(json, ErrorCode::Manifest,
                     "ran out of host memory (std::bad_alloc): the input asks for more than this machine "
                     "can hold; see the budgets in docs/reliability.md",
                     exitCodeFor(ErrorCode::Manifest));
  } catch (const std::exception& e) {
    rc = reportError(json, std::string(errorCodeName(ErrorCode::Internal)), e.what(), {},
                     std::string("wgk: internal error: ") + e.what(), 70);
  }
  if (const std::string why = stdoutFailure(); !why.empty()) {
    std::cerr << "wgk: error [io]: cannot write to standard output: " << why << "\n";
    if (rc == 0) rc = exitCodeFor(ErrorCode::Io);
    std::cout.clear();
    std::clearerr(stdout);
  }
  return rc;
}

}  // namespace wgk::cli

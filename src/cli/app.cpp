// The command-line front end as a function: the `wgk` executable (main.cpp) and `python3 -m wgk`
// (python/) both run it. Subcommands live in cmd_*.cpp and register themselves; a program gets the
// commands whose files it links.
#include "cli/app.h"

#include <iostream>

#include "cli/command.h"
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

int run(int argc, char** argv) {
  exitCode() = {};  // a process (Python) may run several commands
  CLI::App app{"wgk: a native runtime and catalogue of versioned WebGPU kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("wgk ") + WGK_VERSION);
  for (auto& add : commandRegistry()) add(app);
  int rc = 0;
  try {
    app.parse(argc, argv);
    rc = exitCode().value;
  } catch (const CLI::ParseError& e) {
    rc = app.exit(e) == 0 ? 0 : 2;
  } catch (const Error& e) {
    std::cerr << "wgk: error [" << errorCodeName(e.code()) << "]: " << e.what() << "\n";
    rc = exitCodeFor(e.code());
  } catch (const std::exception& e) {
    std::cerr << "wgk: internal error: " << e.what() << "\n";
    rc = 70;
  }
  std::cout.flush();
  return rc;
}

}  // namespace wgk::cli

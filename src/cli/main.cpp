// wgk: the command-line front end. Subcommands live in cmd_*.cpp and register themselves.
#include <cstdio>
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
    case ErrorCode::InvalidArgument: return 2;
    case ErrorCode::Setup: return 3;
    case ErrorCode::Parse:
    case ErrorCode::Expression:
    case ErrorCode::Template:
    case ErrorCode::Manifest:
    case ErrorCode::Contract:
    case ErrorCode::NoVariant:
    case ErrorCode::NotFound:
    case ErrorCode::Unsupported: return 4;
    case ErrorCode::Io:
    case ErrorCode::Network: return 5;
    case ErrorCode::Integrity:
    case ErrorCode::Trust: return 6;
    case ErrorCode::Gpu:
    case ErrorCode::OutOfMemory:
    case ErrorCode::DeviceLost: return 7;
    case ErrorCode::Internal: return 70;
  }
  return 70;
}

}  // namespace wgk::cli

int main(int argc, char** argv) {
  CLI::App app{"wgk: a native runtime and catalogue of versioned WebGPU kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("wgk ") + WGK_VERSION);
  for (auto& add : wgk::cli::commandRegistry()) add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  } catch (const wgk::Error& e) {
    std::cerr << "wgk: error [" << wgk::errorCodeName(e.code()) << "]: " << e.what() << "\n";
    return wgk::cli::exitCodeFor(e.code());
  } catch (const std::exception& e) {
    std::cerr << "wgk: internal error: " << e.what() << "\n";
    return 70;
  }
  return wgk::cli::exitCode().value;
}

// CLI subcommands register themselves: each src/cli/cmd_<name>.cpp defines a function that adds
// one subcommand to the app and registers it with WGK_REGISTER_COMMAND. The subcommand's callback
// does the work and returns the process exit code through `ExitCode`.
//
// Exit codes (docs/cli.md): 0 success; 1 a check failed (wgk test, wgk digest, cache verify);
// 2 usage error; 3 setup (WebGPU library, driver, adapter); 4 package, manifest or contract
// error (no variant, bad input); 5 I/O or network; 6 integrity or trust; 7 GPU error or device
// lost; 70 internal error.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace wgk::cli {

struct ExitCode {
  int value = 0;
};

// The exit code the running subcommand wants (set it inside the callback).
ExitCode& exitCode();

using CommandAdder = std::function<void(CLI::App& app)>;
std::vector<CommandAdder>& commandRegistry();

struct CommandRegistration {
  explicit CommandRegistration(CommandAdder add) { commandRegistry().push_back(std::move(add)); }
};

#define WGK_REGISTER_COMMAND(fn) static ::wgk::cli::CommandRegistration wgk_register_##fn(fn)

}  // namespace wgk::cli

// Runs the wgk command line (`wgk <subcommand> ...`) in this process and returns its exit code
// (docs/cli.md); errors are printed on stderr, never thrown.
#pragma once

#include "wgk/error.h"

namespace wgk::cli {

int run(int argc, char** argv);

// The exit code the CLI uses for an error code (docs/cli.md).
int exitCodeFor(ErrorCode code);

}  // namespace wgk::cli

// wgk: the command-line front end (cli/app.h). Subcommands live in cmd_*.cpp and register themselves.
#include "cli/app.h"

int main(int argc, char** argv) {
  return wgk::cli::run(argc, argv);
}

// _cli_main: `python3 -m wgk` (wgk/__main__.py) runs the CLI front end in this process with the
// commands linked into this module (list, info, plan, run: src/cli, docs/cli.md).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.h"
#include "cli/app.h"

namespace wgk::python {

void bindCli(py::module_& m) {
  m.def(
      "_cli_main",
      [](std::vector<std::string> argv) {
        std::vector<char*> args;
        for (auto& a : argv) args.push_back(a.data());
        args.push_back(nullptr);
        py::gil_scoped_release unlocked;
        return cli::run(static_cast<int>(argv.size()), args.data());
      },
      py::arg("argv"), "Runs `wgk ARGS...` (argv[0] is the program name) and returns its exit code.");
}

}  // namespace wgk::python

// Shared pieces of the commands that load and run packages (run, test, bench, demo, tune, info):
// creating the runtime from the hub options, and parsing NAME=VALUE arguments.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/shape_text.h"
#include "cli/support_hub_options.h"
#include "wgk/runtime.h"

namespace wgk::cli {

// A runtime on the local device, resolving packages as the hub options say.
std::shared_ptr<Runtime> openRuntime(const HubCliOptions& hub, const std::string& tuningFile = {});
LoadOptions loadOptionsFor(const HubCliOptions& hub);
// Repo ids of the embedded packages, sorted ("webgpu-kernels/ai.onnx.Add", ...); Error(NotFound)
// when there are none (the commands that default to every package: overhead, chain).
std::vector<std::string> embeddedPackageRepos();
// "NAME=REST" -> (NAME, REST); Error(InvalidArgument) naming `what` when malformed.
std::pair<std::string, std::string> splitAssignment(const std::string& text, const std::string& what);
std::map<std::string, Attribute> parseAttributes(const std::vector<std::string>& assignments);

}  // namespace wgk::cli

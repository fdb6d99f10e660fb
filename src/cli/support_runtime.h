// Shared pieces of the commands that load and run packages (run, test, bench, demo, tune, info):
// creating the runtime from the hub options, and parsing NAME=VALUE arguments.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/support_hub_options.h"
#include "core/shape_text.h"
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
// Where a loaded package came from, for a text header: "cache 1f2e...", "path", and for an
// embedded package (whose display revision is "embedded:<sha>") "embedded copy <sha>", not
// "embedded embedded:<sha>".
std::string sourceLabel(const std::string& origin, const std::string& revision);
// A dtype as a command line names it: a manifest name ("float16"), or the short name wgk prints
// elsewhere (the WGSL scalar "f16" of `dtypes.T == "f16"` in `wgk info`, "i8", ...). Only the CLI
// takes the short names; manifests keep the one spelling. nullopt when neither.
std::optional<DType> dtypeFromCliName(std::string_view name);
// Every spelling dtypeFromCliName accepts, for error messages: "float32 (f32), float16 (f16), ...".
std::string cliDtypeNames();

}  // namespace wgk::cli

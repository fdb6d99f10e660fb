// wgk run PACKAGE --input NAME=FILE.npy|FILE.safetensors[:TENSOR] ... [--cast float32] [--attr NAME=VALUE
// ...]
//         [--variant ID] --output-dir DIR [--output-format npy|safetensors] [--json] [hub options]
// Runs a kernel on tensor files and writes DIR/<output arg>.npy for each output (or all outputs in
// DIR/outputs.safetensors). --cast float32 (or float16) accepts float64 inputs, NumPy's default.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "io/file.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "io/tensor_file.h"
#include "wgk/error.h"

namespace {

void addRunCommand(CLI::App& app) {
  struct State {
    std::string package, outputDir, variant, cast, outputFormat = "npy";
    std::vector<std::string> inputs, attrs, args;
    bool json = false;
    wgk::cli::HubCliOptions hub;
  };
  auto s = std::make_shared<State>();
  auto* cmd = app.add_subcommand("run", "Run a kernel on .npy inputs and write its outputs as .npy files");
  cmd->add_option("package", s->package, "repo id (webgpu-kernels/<domain>.<Op>) or package folder")
      ->required();
  cmd->add_option("--input,-i", s->inputs, "NAME=FILE.npy or NAME=FILE.safetensors[:TENSOR] (args names)");
  cmd->add_option("--cast", s->cast, "read float64 inputs as this dtype")
      ->check(CLI::IsMember({"float32", "float16", "f32", "f16"}));
  cmd->add_option("--attr,-a", s->attrs, "NAME=VALUE (VALUE read as JSON, else as a string)");
  cmd->add_option("--arg", s->args, "NAME=VALUE: a scalar arg of a spec 2.1 package (VALUE read as JSON)");
  cmd->add_option("--variant", s->variant, "force this variant (must be eligible)");
  cmd->add_option("--output-dir,-o", s->outputDir, "folder for <output>.npy files")->required();
  cmd->add_option("--output-format", s->outputFormat, "npy (a file per output) or safetensors (one file)")
      ->check(CLI::IsMember({"npy", "safetensors"}));
  cmd->add_flag("--json", s->json, "report as JSON on stdout");
  wgk::cli::addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    std::map<std::string, wgk::HostTensor> tensors;
    for (const auto& in : s->inputs) {
      auto [name, file] = wgk::cli::splitAssignment(in, "--input");
      if (tensors.count(name))
        throw wgk::Error(wgk::ErrorCode::InvalidArgument, "input '" + name + "' is given twice");
      std::optional<wgk::DType> cast;
      if (!s->cast.empty()) cast = wgk::cli::dtypeFromCliName(s->cast);
      tensors.emplace(name, wgk::withContext("while reading input " + name,
                                             [&] { return wgk::readTensorFile(file, name, cast); }));
    }
    wgk::CallOptions options;
    options.attrs = wgk::cli::parseAttributes(s->attrs);
    options.args = wgk::cli::parseAttributes(s->args);
    options.variant = s->variant;
    options.placement = wgk::OutputPlacement::Host;
    options.timestamps = true;

    // File errors before any GPU work: the output folder must be usable now, not after the kernel ran.
    wgk::prepareOutputFolder(s->outputDir);
    auto rt = wgk::cli::openRuntime(s->hub);
    wgk::Kernel kernel = rt->load(s->package, wgk::cli::loadOptionsFor(s->hub));
    std::map<std::string, wgk::TensorRef> refs;
    for (const auto& [k, v] : tensors) refs.emplace(k, wgk::TensorRef(v));
    wgk::CallResult r = kernel.call(refs, options);

    const auto& src = kernel.source();
    nlohmann::json outputs = nlohmann::json::object();
    const bool st = s->outputFormat == "safetensors";
    const std::string stPath = (std::filesystem::path(s->outputDir) / "outputs.safetensors").string();
    for (const auto& [name, t] : r.host) {
      // Output names come from the package; the manifest loader holds them to identifiers, and
      // this keeps the file inside --output-dir whatever a name holds.
      const std::string path = st ? stPath : wgk::pathInsideFolder(s->outputDir, name, ".npy");
      if (!st) wgk::writeNpy(path, t);
      outputs[name] = {{"file", path}, {"dtype", wgk::dtypeName(t.dtype())}, {"shape", t.shape()}};
    }
    if (st) wgk::writeSafetensors(stPath, r.host, {{"producer", "wgk run " + src.opId}});
    if (s->json) {
      nlohmann::json j = {{"package", src.opId},         {"repo", src.repo},
                          {"revision", src.revision},    {"origin", src.origin},
                          {"variant", r.variant},        {"selectedBy", r.selectedBy},
                          {"outputs", outputs},          {"uploadUs", r.timings.uploadUs},
                          {"gpuUs", r.timings.gpuUs},    {"readbackUs", r.timings.readbackUs},
                          {"totalUs", r.timings.totalUs}};
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << src.opId << " (" << wgk::cli::sourceLabel(src.origin, src.revision) << "): variant "
                << r.variant << " (" << r.selectedBy << ")\n";
      for (const auto& [name, o] : outputs.items())
        std::cout << "  " << name << ": " << o["dtype"].get<std::string>() << " " << o["shape"].dump()
                  << " -> " << o["file"].get<std::string>() << "\n";
      std::printf("  upload %.1f us, gpu %.1f us, readback %.1f us, total %.1f us\n", r.timings.uploadUs,
                  r.timings.gpuUs, r.timings.readbackUs, r.timings.totalUs);
    }
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addRunCommand);

// wgk generate MODEL_DIR --tokens 2,651,... [--max-new N] [--json] [--logits FILE.npy] [--bench]
// Greedy generation with a Gemma checkpoint in the Hugging Face layout (include/wgk/model.h).
// There is no tokenizer: token ids in, token ids out. --bench times a random prompt of
// --prompt-len tokens and --max-new new tokens beside the weight-streaming roofline (weight bytes
// one decode step reads / the copy bandwidth measured in the same run).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/support_runtime.h"
#include "cli/support_terminal.h"
#include "harness/roofline.h"
#include "io/npy.h"
#include "wgk/error.h"
#include "wgk/model.h"

namespace wgk::cli {
namespace {

struct GenerateArgs {
  std::string modelDir, tokens, logitsFile;
  std::vector<int64_t> stop;
  int64_t maxNew = 32, maxLength = 0, prefillBlock = 0, promptLen = 128, repeats = 1, readbackEvery = 8;
  bool json = false, noGraph = false, bench = false, quiet = false, profile = false;
  HubCliOptions hub;
};

std::vector<int64_t> parseTokens(const std::string& text) {
  std::vector<int64_t> ids;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = std::string::npos;
    }
    if (item.empty() || used != item.size())
      throw Error(ErrorCode::InvalidArgument, "--tokens: '" + item +
                                                  "' is not a token id (expected comma-separated integers, "
                                                  "e.g. --tokens 2,651,6037; wgk has no tokenizer)");
    ids.push_back(v);
    at = comma + 1;
  }
  return ids;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// A profile's calls summed per (op, variant), largest GPU time first.
nlohmann::json profileJson(const std::vector<ProfiledCall>& calls) {
  std::map<std::pair<std::string, std::string>, std::pair<int64_t, double>> sums;
  double total = 0;
  for (const ProfiledCall& c : calls) {
    auto& [n, us] = sums[{c.op, c.variant}];
    ++n;
    us += std::max(c.gpuUs, 0.0);
    total += std::max(c.gpuUs, 0.0);
  }
  std::vector<nlohmann::json> rows;
  for (const auto& [key, v] : sums)
    rows.push_back({{"op", key.first}, {"variant", key.second}, {"calls", v.first}, {"gpuUs", v.second}});
  std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
    return x["gpuUs"].template get<double>() > y["gpuUs"].template get<double>();
  });
  return {{"calls", calls.size()}, {"gpuUs", total}, {"byOp", rows}};
}

void printProfile(const char* what, const nlohmann::json& p) {
  std::printf("profile, %s: %zu calls, %.1f us of GPU time (single calls with timestamps)\n", what,
              p["calls"].get<size_t>(), p["gpuUs"].get<double>());
  for (const auto& r : p["byOp"])
    std::printf("  %9.1f us  %4lld x  %s %s\n", r["gpuUs"].get<double>(), r["calls"].get<long long>(),
                r["op"].get<std::string>().c_str(), r["variant"].get<std::string>().c_str());
}

nlohmann::json configJson(const GemmaConfig& c) {
  return {{"vocabSize", c.vocabSize}, {"hiddenSize", c.hiddenSize},  {"intermediateSize", c.intermediateSize},
          {"numLayers", c.numLayers}, {"numHeads", c.numHeads},      {"numKvHeads", c.numKvHeads},
          {"headDim", c.headDim},     {"weightDtype", c.weightDtype}};
}

void runGenerate(const GenerateArgs& a) {
  using Clock = std::chrono::steady_clock;
  std::vector<int64_t> prompt;
  if (a.bench && a.tokens.empty()) {
    if (a.promptLen < 1) throw Error(ErrorCode::InvalidArgument, "--prompt-len must be at least 1");
  } else {
    if (a.tokens.empty())
      throw Error(ErrorCode::InvalidArgument,
                  "give the prompt as token ids: --tokens 2,651,... (wgk has no tokenizer)");
    prompt = parseTokens(a.tokens);
  }
  if (a.maxNew < 1) throw Error(ErrorCode::InvalidArgument, "--max-new must be at least 1");
  if (a.repeats < 1) throw Error(ErrorCode::InvalidArgument, "--repeat must be at least 1");
  if (a.readbackEvery < 1) throw Error(ErrorCode::InvalidArgument, "--readback-every must be at least 1");
  std::shared_ptr<Runtime> rt = openRuntime(a.hub);
  GemmaOptions go;
  go.maxLength = a.maxLength;
  // A benchmark's cache holds what it generates (prompt + new tokens), as the torch peer's static
  // cache does: attention then spans the same positions in both.
  if (a.bench && !a.maxLength)
    go.maxLength = (prompt.empty() ? a.promptLen : static_cast<int64_t>(prompt.size())) + a.maxNew;
  go.prefillBlock = a.prefillBlock;
  go.captureGraph = !a.noGraph;
  const auto t0 = Clock::now();
  Gemma model = Gemma::load(rt, a.modelDir, go);
  const double loadMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (a.bench && prompt.empty()) {
    std::mt19937_64 rng(1234);
    std::uniform_int_distribution<int64_t> pick(3, model.config().vocabSize - 1);
    for (int64_t i = 0; i < a.promptLen; ++i) prompt.push_back(pick(rng));
  }
  GenerateOptions opts;
  opts.maxNew = a.maxNew;
  opts.stopTokens = a.stop;
  opts.returnLogits = !a.logitsFile.empty();
  opts.readbackEvery = a.readbackEvery;
  Progress progress("generate");
  const bool showProgress = Progress::isTerminal() && !a.quiet;
  opts.onToken = [&](int64_t step, int64_t, double) {
    if (showProgress) progress.show("token", static_cast<size_t>(step + 1), static_cast<size_t>(a.maxNew));
  };
  std::vector<GenerateResult> runs;
  for (int64_t r = 0; r < a.repeats; ++r) runs.push_back(model.generate(prompt, opts));
  progress.clear();
  const GenerateResult& res = runs.back();
  if (!a.logitsFile.empty()) writeNpy(a.logitsFile, res.logits);

  std::vector<double> prefill, decode;
  for (const GenerateResult& g : runs) {
    prefill.push_back(g.prefillMs);
    decode.push_back(median(g.tokenMs));
  }
  const double stepMs = median(decode), prefillMs = median(prefill);
  nlohmann::json out = {
      {"model", a.modelDir},
      {"config", configJson(model.config())},
      {"prompt", prompt},
      {"tokens", res.tokens},
      {"maxLength", model.maxLength()},
      {"readbackEvery", opts.returnLogits ? int64_t{1} : a.readbackEvery},
      {"decodeCalls", model.decodeCalls()},
      {"decodeDispatches", model.decodeDispatches()},
      {"weightBytes", model.weightBytes()},
      {"timings",
       {{"loadMs", loadMs},
        {"prefillMs", prefillMs},
        {"tokenMs", res.tokenMs},
        {"decodeMsMedian", stepMs},
        {"decodeTokensPerSecond", stepMs > 0 ? 1000.0 / stepMs : 0.0},
        {"prefillTokensPerSecond", prefillMs > 0 ? 1000.0 * prompt.size() / prefillMs : 0.0},
        {"runs", {{"prefillMs", prefill}, {"decodeMsMedian", decode}}}}}};
  if (a.bench) {
    // The bar: one decode step cannot beat reading its weights once at copy speed.
    harness::CopyRoofline roof(*rt);
    const harness::CopyMeasurement& copy = roof.measure(uint64_t{1} << 30, 3, 20, 500);
    const double rooflineMs = static_cast<double>(model.weightBytes()) / (copy.gbps * 1e9) * 1e3;
    out["bench"] = {{"copyGbps", copy.gbps},
                    {"copyKernel", copy.kernel},
                    {"rooflineMsPerToken", rooflineMs},
                    {"shareOfRoofline", stepMs > 0 ? rooflineMs / stepMs : 0.0},
                    {"prefillVsDecodeSteps", prefillMs > 0 ? stepMs * prompt.size() / prefillMs : 0.0}};
  }
  if (a.profile) {
    const GemmaProfile p = model.profile(prompt);
    out["profile"] = {{"decodeStep", profileJson(p.decodeStep)},
                      {"prefillBlock", profileJson(p.prefillBlock)}};
  }
  if (a.json) {
    std::cout << out.dump() << "\n";
    return;
  }
  const GemmaConfig& c = model.config();
  std::printf("model: %s (gemma, %lld layers, hidden %lld, vocab %lld, %s weights; loaded in %.0f ms)\n",
              a.modelDir.c_str(), static_cast<long long>(c.numLayers), static_cast<long long>(c.hiddenSize),
              static_cast<long long>(c.vocabSize), c.weightDtype.c_str(), loadMs);
  std::printf("prompt: %zu token ids; new: ", prompt.size());
  for (size_t i = 0; i < res.tokens.size(); ++i)
    std::printf("%s%lld", i ? "," : "", static_cast<long long>(res.tokens[i]));
  std::printf("\n(no tokenizer: token ids in, token ids out)\n");
  std::printf(
      "prefill %.2f ms (%.0f tokens/s); decode %.3f ms/token median (%.1f tokens/s), %zu calls per step\n",
      prefillMs, prefillMs > 0 ? 1000.0 * prompt.size() / prefillMs : 0.0, stepMs,
      stepMs > 0 ? 1000.0 / stepMs : 0.0, model.decodeCalls());
  if (a.bench)
    std::printf(
        "weight-streaming roofline: %.3f ms/token (%.1f MB of weights at copy %.0f GB/s): %.1f%% of it\n",
        out["bench"]["rooflineMsPerToken"].get<double>(), model.weightBytes() / 1e6,
        out["bench"]["copyGbps"].get<double>(), 100 * out["bench"]["shareOfRoofline"].get<double>());
  if (a.profile) {
    printProfile("one decode step", out["profile"]["decodeStep"]);
    printProfile("one prefill block", out["profile"]["prefillBlock"]);
  }
}

void addGenerateCommand(CLI::App& app) {
  auto a = std::make_shared<GenerateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "generate",
      "Greedy token generation with a Gemma checkpoint (Hugging Face layout; token ids, no tokenizer)");
  cmd->add_option("MODEL_DIR", a->modelDir,
                  "Folder with config.json and model.safetensors (or shards + index)")
      ->required();
  cmd->add_option("--tokens", a->tokens, "Prompt token ids, comma-separated (e.g. 2,651,6037)");
  cmd->add_option("--max-new", a->maxNew, "New tokens to generate (default 32)");
  cmd->add_option(
      "--max-length", a->maxLength,
      "KV-cache positions (default min(max_position_embeddings, 4096); with --bench: prompt + new tokens)");
  cmd->add_option(
      "--prefill-block", a->prefillBlock,
      "Prompt tokens per prefill batch (default 128; 1: token by token through the decode graph)");
  cmd->add_option("--stop", a->stop, "Stop after generating this token id (repeatable)");
  cmd->add_option("--readback-every", a->readbackEvery,
                  "Decode steps run before the host reads their tokens back (default 8; 1: every step; "
                  "--logits implies 1)");
  cmd->add_option("--logits", a->logitsFile, "Write the logits of every step as float32 .npy [steps, vocab]");
  cmd->add_flag("--no-graph", a->noGraph,
                "Record each decode step as a new batch instead of replaying a graph");
  cmd->add_flag("--json", a->json, "Print one JSON object (tokens, timings, config)");
  cmd->add_flag("--quiet", a->quiet, "No progress line");
  cmd->add_flag("--profile", a->profile,
                "Afterwards, run one prefill block and one decode step as single timed calls and "
                "report GPU time per op and variant");
  cmd->add_flag(
      "--bench", a->bench,
      "Time a random --prompt-len prompt and --max-new tokens against the weight-streaming roofline");
  cmd->add_option("--prompt-len", a->promptLen,
                  "Prompt length of --bench without --tokens (default 128, random ids)");
  cmd->add_option("--repeat", a->repeats, "Generate this many times (fresh cache each) and report medians");
  addHubOptions(cmd, a->hub, /*withLock=*/true, /*withRequest=*/false);
  cmd->callback([a] { runGenerate(*a); });
}

WGK_REGISTER_COMMAND(addGenerateCommand);

}  // namespace
}  // namespace wgk::cli

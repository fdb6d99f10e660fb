// wgk.Gemma: a Gemma checkpoint decoded on wgk's kernels (wgk::Gemma, include/wgk/model.h).
// Bindings only: loading, generation and every check live in the C++ library.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "arrays.h"
#include "bindings.h"
#include "values.h"
#include "wgk/model.h"

namespace wgk::python {
namespace {

constexpr const char* kGemmaDoc = R"(A Gemma checkpoint (Hugging Face layout: config.json and
model.safetensors or shards with model.safetensors.index.json) on wgk's kernels: greedy decoding,
one graph replay per new token. No tokenizer: token ids in, token ids out.

Example:
    >>> model = wgk.Gemma.load("path/to/gemma-2b")            # into wgk.default_runtime()
    >>> out = model.generate([2, 651, 6037], max_new=16, return_logits=True)
    >>> out.tokens                                             # 16 new token ids
    >>> out.logits.shape                                       # (16, vocab_size), float32 numpy
)";

struct PyGemma {
  std::shared_ptr<Runtime> runtime;
  Gemma model;
};

struct PyGeneration {
  std::vector<int64_t> tokens;
  py::object logits = py::none();
  double prefillMs = 0;
  std::vector<double> tokenMs;
};

}  // namespace

void bindModel(py::module_& m) {
  py::class_<PyGeneration>(m, "Generation", "What Gemma.generate returns: tokens, logits, timings.")
      .def_readonly("tokens", &PyGeneration::tokens,
                    "tokens: List[int]\n\nThe new token ids (the prompt is not repeated).")
      .def_readonly("logits", &PyGeneration::logits,
                    "logits: Optional[np.ndarray]\n\nfloat32 numpy [len(tokens), vocab] when "
                    "return_logits=True (row i: the distribution token i was picked from), else None.")
      .def_readonly("prefill_ms", &PyGeneration::prefillMs,
                    "prefill_ms: float\n\nWall time of the prompt up to the first token.")
      .def_readonly("token_ms", &PyGeneration::tokenMs,
                    "token_ms: List[float]\n\nWall time of each decode step after the first token.")
      .def("__repr__", [](const PyGeneration& g) {
        return "<wgk.Generation " + std::to_string(g.tokens.size()) + " tokens>";
      });

  py::class_<PyGemma>(m, "Gemma", kGemmaDoc)
      .def_static(
          "load",
          [](py::object modelDir, py::object runtime, int64_t maxLength, int64_t prefillBlock,
             bool captureGraph) {
            if (runtime.is_none()) runtime = py::module_::import("wgk").attr("default_runtime")();
            const std::shared_ptr<Runtime> rt = runtime.cast<const PyRuntime&>().runtime;
            const std::string dir = py::str(py::module_::import("os").attr("fspath")(modelDir));
            GemmaOptions o;
            o.maxLength = maxLength;
            o.prefillBlock = prefillBlock;
            o.captureGraph = captureGraph;
            py::gil_scoped_release unlocked;
            return PyGemma{rt, Gemma::load(rt, dir, o)};
          },
          py::arg("model_dir"), py::kw_only(), py::arg("runtime") = py::none(), py::arg("max_length") = 0,
          py::arg("prefill_block") = 0, py::arg("capture_graph") = true,
          "load(model_dir: Union[str, os.PathLike], *, runtime: Optional[Runtime] = None, "
          "max_length: int = 0, prefill_block: int = 0, capture_graph: bool = True) -> Gemma\n\n"
          "Reads, checks and uploads the checkpoint; captures the decode graph. max_length: KV-cache "
          "positions (0: min(max_position_embeddings, 4096)); prefill_block: prompt tokens per prefill "
          "batch (0: 128).")
      .def(
          "generate",
          [](PyGemma& self, std::vector<int64_t> prompt, int64_t maxNew, std::vector<int64_t> stop,
             bool returnLogits, int64_t readbackEvery) {
            GenerateOptions o;
            o.maxNew = maxNew;
            o.stopTokens = std::move(stop);
            o.returnLogits = returnLogits;
            o.readbackEvery = readbackEvery;
            GenerateResult r;
            {
              py::gil_scoped_release unlocked;
              r = self.model.generate(prompt, o);
            }
            PyGeneration g;
            g.tokens = std::move(r.tokens);
            if (returnLogits) g.logits = toNumpy(std::move(r.logits));
            g.prefillMs = r.prefillMs;
            g.tokenMs = std::move(r.tokenMs);
            return g;
          },
          py::arg("prompt"), py::kw_only(), py::arg("max_new") = 32, py::arg("stop") = std::vector<int64_t>{},
          py::arg("return_logits") = false, py::arg("readback_every") = 8,
          "generate(self, prompt: Sequence[int], *, max_new: int = 32, stop: Sequence[int] = (), "
          "return_logits: bool = False, readback_every: int = 8) -> Generation\n\n"
          "Greedy decoding from the prompt's token ids; returns a wgk.Generation. readback_every: decode "
          "steps submitted before their tokens are read back (the GPU runs ahead; a stop token ends the "
          "output at the readback; return_logits reads every step).\n\n"
          "Example:\n    >>> model.generate([2, 651], max_new=4).tokens")
      .def_property_readonly(
          "config",
          [](const PyGemma& self) {
            const GemmaConfig& c = self.model.config();
            py::dict d;
            d["vocab_size"] = c.vocabSize;
            d["hidden_size"] = c.hiddenSize;
            d["intermediate_size"] = c.intermediateSize;
            d["num_hidden_layers"] = c.numLayers;
            d["num_attention_heads"] = c.numHeads;
            d["num_key_value_heads"] = c.numKvHeads;
            d["head_dim"] = c.headDim;
            d["weight_dtype"] = c.weightDtype;
            return d;
          },
          "config: Dict[str, Any]\n\nThe architecture config.json states (after checks).")
      .def_property_readonly(
          "max_length", [](const PyGemma& self) { return self.model.maxLength(); },
          "max_length: int\n\nKV-cache positions: prompt plus generated tokens.")
      .def_property_readonly(
          "decode_calls", [](const PyGemma& self) { return self.model.decodeCalls(); },
          "decode_calls: int\n\nKernel calls per decode step.");
}

}  // namespace wgk::python

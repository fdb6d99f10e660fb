// wgk.Batch and wgk.Graph: many calls, one submission, and recorded calls replayed with new data
// (wgk::Batch and wgk::Graph, include/wgk/batch.h, whose rules they follow). The Python side adds
// what C++ leaves to the caller: outputs that cannot be read before their work runs (Pending), a
// `with` block that submits on success and discards on an exception, and a refusal (not a data
// race) when two threads use one batch or graph at once.
#include <pybind11/stl.h>

#include "arrays.h"
#include "bindings.h"
#include "call_args.h"
#include "errors.h"
#include "values.h"
#include "wgk/batch.h"
#include "wgk/error.h"

namespace wgk::python {
namespace {

constexpr const char* kBatchDoc = R"(Kernel calls recorded into one command buffer and submitted together
(Runtime.batch). Calling it records a call and returns its outputs at once, as wgk.DeviceTensor
that later calls of the batch may take; their contents exist once the batch is submitted.

A `with` block submits on exit (it does not wait: a download does); an exception in the block
discards what it recorded. Reading an output before then (.numpy(), a single call) is refused.
Host inputs are uploaded when recorded; device inputs are read when the batch runs.

Example:
    >>> with rt.batch() as b:
    ...     h = b(gelu, X=x, bias=bias)["Y"]          # a wgk.DeviceTensor, computed at submit
    ...     y = b(rms, x=h, scale=s, epsilon=1e-6)["y"]
    >>> y.numpy()                                     # bit-identical to two single calls
)";

constexpr const char* kCallDoc =
    R"(__call__(self, kernel: Kernel, inputs: Optional[Mapping[str, TensorLike]] = None, /, *, attrs: Optional[Mapping[str, AttributeValue]] = None, args: Optional[Mapping[str, AttributeValue]] = None, variant: Optional[str] = None, outputs: Optional[Mapping[str, DeviceTensor]] = None, **tensors_and_attributes: Any) -> Dict[str, DeviceTensor]

Records one call of `kernel` (arguments as for calling the kernel,
without placement and timestamps) and returns its outputs by name as wgk.DeviceTensor. The GIL is
released while the call is planned, uploaded and encoded.

Example:
    >>> yd = b(gelu, X=xd)["Y"]
)";

constexpr const char* kGraphDoc = R"(Calls captured once (Runtime.capture) and replayed with new input data:
each replay re-submits the recorded commands without planning or allocating.

Graph inputs are the tensors the captured calls read that no captured call wrote, named by the arg
that first reads them ("X"; "<call>.<arg>" when the name was taken, calls counted from 0).
Dtypes, shapes, attributes, scalar args and variants are fixed at capture. Every replay writes the
same output tensors: `outputs` is what the capture function returned, and replay() returns it.

Example:
    >>> g = rt.capture(lambda b: b(rms, x=b(gelu, X=xd)["Y"], scale=s)["y"])
    >>> y = g.replay(X=x1).numpy()                    # new data for input "X"
    >>> g.inputs                                      # {'X': ('float16', (4, 64)), ...}
)";

struct PyBatch {
  std::shared_ptr<Runtime> runtime;  // first: destroyed after the batch
  Batch owned;                       // rt.batch()
  bool capture = false;              // the batch a capture function records into
  Batch* borrowed = nullptr;         // capture: the C++ batch, only while the function runs
  std::shared_ptr<Pending> epoch;    // what the outputs recorded since the last submit wait for
  bool busy = false;

  PyBatch(std::shared_ptr<Runtime> rt, bool forCapture, std::shared_ptr<Pending> e)
      : runtime(std::move(rt)), capture(forCapture), epoch(std::move(e)) {
    if (!capture) owned = runtime->batch();
  }
  PyBatch(PyBatch&&) = default;
  ~PyBatch() {
    // Dropped with calls recorded: C++ discards them, so their outputs never get contents.
    if (!capture && owned.size() && epoch) epoch->state = Pending::State::Discarded;
  }

  Batch& get() {
    if (!capture) return owned;
    if (!borrowed)
      invalidArgument(
          "this wgk.Batch belonged to a graph capture that has finished: record into the batch that "
          "rt.capture passes to the function, while the function runs");
    return *borrowed;
  }
  void restart() {  // a new epoch for what is recorded next
    epoch = std::make_shared<Pending>();
    epoch->graph = capture;
  }
};

// Marks a batch or graph busy while the GIL is released, so a second thread is refused instead of
// racing (a C++ Batch or Graph is used by one thread at a time).
class Busy {
 public:
  Busy(bool& flag, const char* what) : flag_(flag) {
    if (flag_)
      invalidArgument(std::string("this wgk.") + what +
                      " is in use by another thread: a batch or graph is used by one thread at a time "
                      "(give each thread its own; the runtime is shared safely)");
    flag_ = true;
  }
  ~Busy() { flag_ = false; }

 private:
  bool& flag_;
};

py::dict record(PyBatch& self, const py::args& positional, py::object attrs, py::object args,
                py::object variant, py::object outputs, const py::kwargs& kwargs) {
  if (positional.size() == 0 || !py::isinstance<PyKernel>(positional[0]))
    invalidArgument("a batch call takes the wgk.Kernel to call first, b(kernel, X=...), got " +
                    (positional.size() ? describeValue(positional[0]) : std::string("no arguments")));
  PyKernel& k = positional[0].cast<PyKernel&>();
  // Kernel.__call__'s options a batch has no use for would otherwise read as unknown attributes.
  const KernelSignature& m = signatureOf(k);
  if (kwargs.contains("placement") && !m.findAttribute("placement") && !m.findPort("placement"))
    invalidArgument(
        "a batch leaves outputs on the device: placement= is not taken (download the outputs after "
        "submit)");
  if (kwargs.contains("timestamps") && !m.findAttribute("timestamps") && !m.findPort("timestamps"))
    invalidArgument(
        "timestamps are not available in a batch (time a single call with Kernel.call(..., "
        "timestamps=True), or the batch on the host)");
  Batch& batch = self.get();
  CallArgs a;
  prepareCall(k, positionalInputs(k, positional, 1), attrs, args, variant, outputs, kwargs, CallSite::Batch,
              a);
  if (k.runtime != self.runtime)
    invalidArgument("the kernel was loaded by another wgk.Runtime than the batch's");
  std::map<std::string, DeviceTensor> device;
  {
    Busy busy(self.busy, "Batch");
    py::gil_scoped_release unlocked;
    device = batch.call(k.kernel, a.refs, a.options);
  }
  a.torch = false;  // a batch has no host outputs
  return outputsDict(k, a, {}, std::move(device), self.epoch);
}

void submit(PyBatch& self) {
  Batch& batch = self.get();
  Busy busy(self.busy, "Batch");
  try {
    py::gil_scoped_release unlocked;
    batch.submit();
  } catch (const Error&) {
    if (!self.capture) self.epoch->state = Pending::State::Discarded;  // a failed submit discards all
    self.restart();
    throw;
  }
  self.epoch->state = Pending::State::Done;
  self.restart();
}

void discard(PyBatch& self) {
  if (self.capture) return;  // the capture fails with the exception, which discards it all
  self.owned = self.runtime->batch();
  self.epoch->state = Pending::State::Discarded;
  self.restart();
}

struct PyGraph {
  std::shared_ptr<Runtime> runtime;  // first: destroyed after the graph
  Graph graph;
  py::object outputs;                // what the capture function returned
  std::shared_ptr<Pending> pending;  // its outputs: Done after the first replay
  bool busy = false;
};

PyGraph capture(const PyRuntime& rt, py::object fn) {
  if (!PyCallable_Check(fn.ptr()))
    invalidArgument(
        "capture takes a function that records calls into the batch it is given, "
        "rt.capture(lambda b: b(kernel, X=...)), got " +
        describeValue(fn));
  auto pending = std::make_shared<Pending>();
  pending->graph = true;
  py::object batchObject = py::cast(PyBatch(rt.runtime, true, pending));
  PyBatch& b = batchObject.cast<PyBatch&>();
  py::object result = py::none();
  Graph g;
  try {
    // The GIL stays held: the function is Python; each call it records releases the GIL itself.
    g = rt.runtime->capture([&](Batch& cb) {
      struct Unborrow {
        PyBatch& b;
        ~Unborrow() { b.borrowed = nullptr; }
      } unborrow{b};
      b.borrowed = &cb;
      result = fn(batchObject);
    });
  } catch (...) {
    pending->state = Pending::State::Discarded;
    throw;
  }
  return PyGraph{rt.runtime, std::move(g), std::move(result), std::move(pending)};
}

py::object replay(PyGraph& self, const py::args& positional, const py::kwargs& kwargs) {
  if (positional.size() > 1)
    invalidArgument("replay takes its inputs by name (replay(X=...)) or as one dict; got " +
                    std::to_string(positional.size()) + " positional arguments");
  const py::object inputs = positional.size() ? py::object(positional[0]) : py::none();
  std::map<std::string, HostTensor> host;
  std::map<std::string, TensorRef> refs;
  auto add = [&](const std::string& name, py::handle v) {
    const std::string what = "replay input '" + name + "'";
    if (refs.count(name)) invalidArgument("'" + name + "' is given twice (as a keyword and in inputs=)");
    if (const PyDeviceTensor* d = asDeviceTensor(v)) {
      if (d->runtime != self.runtime)
        invalidArgument(what + " is a device tensor of another wgk.Runtime: download it (.numpy()) first");
      if (d->pending && d->pending->state == Pending::State::Discarded) checkDefined(*d, what);
      refs.emplace(name, TensorRef(d->tensor));
    } else {
      refs.emplace(name, TensorRef(host.emplace(name, toHostTensor(v, what)).first->second));
    }
  };
  if (!inputs.is_none()) {
    if (!py::isinstance<py::dict>(inputs))
      invalidArgument("replay takes its inputs by name (replay(X=...)) or as one dict; got " +
                      describeValue(inputs) + " as a positional argument");
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(inputs)) add(py::str(key), value);
  }
  for (auto [key, value] : kwargs) add(py::str(key), value);
  {
    Busy busy(self.busy, "Graph");
    py::gil_scoped_release unlocked;
    self.graph.replay(refs);
  }
  self.pending->state = Pending::State::Done;
  return self.outputs;
}

py::dict graphInputs(const PyGraph& self) {
  py::dict out;
  for (const GraphInput& in : self.graph.inputs())
    out[py::str(in.name)] = py::make_tuple(std::string(dtypeName(in.dtype)), shapeTuple(in.shape));
  return out;
}

}  // namespace

void bindBatch(py::module_& m) {
  py::class_<PyBatch>(m, "Batch", kBatchDoc)
      .def("__call__", &record, py::arg("attrs") = py::none(), py::arg("args") = py::none(),
           py::arg("variant") = py::none(), py::arg("outputs") = py::none(), kCallDoc)
      .def("submit", &submit,
           "submit(self) -> None\n\n"
           "Encodes the recorded calls into one command buffer and submits them (does not wait); the "
           "batch is then empty and may record again. The GIL is released meanwhile.")
      .def(
          "__len__", [](PyBatch& self) { return self.capture && !self.borrowed ? 0 : self.get().size(); },
          "__len__(self) -> int\n\nThe calls recorded since the last submit.")
      .def(
          "__enter__", [](py::object self) { return self; },
          "__enter__(self) -> Batch\n\nThe batch itself: `with rt.batch() as b:`.")
      .def(
          "__exit__",
          [](PyBatch& self, py::handle type, py::handle, py::handle) {
            if (type.is_none())
              submit(self);
            else
              discard(self);
            return false;
          },
          "__exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool\n\n"
          "Submits on a normal exit; on an exception discards the calls recorded since the last submit.")
      .def("__repr__", [](PyBatch& self) {
        const size_t n = self.capture && !self.borrowed ? 0 : self.get().size();
        return std::string(self.capture ? "wgk.Batch(capture, " : "wgk.Batch(") + std::to_string(n) +
               " call(s) recorded)";
      });

  py::class_<PyGraph>(m, "Graph", kGraphDoc)
      .def("replay", &replay,
           "replay(self, inputs: Optional[Mapping[str, TensorLike]] = None, /, "
           "**tensors: TensorLike) -> Any\n\n"
           "Copies the given inputs (host arrays or device tensors, by graph input name) into the "
           "graph's input buffers and re-submits every captured call; does not wait. Returns "
           "`outputs`. The GIL is released meanwhile.\n\n"
           "Example:\n    >>> y = g.replay(X=x1)\n    >>> y.numpy()")
      .def_property_readonly("inputs", &graphInputs,

                             "inputs: Dict[str, Tuple[str, Tuple[int, ...]]]\n\n"
                             "The graph inputs replay() takes: name -> (dtype, shape), in capture order.")
      .def_readonly(
          "outputs", &PyGraph::outputs,
          "outputs: Any\n\nWhat the capture function returned (device tensors overwritten by each replay).")
      .def_property_readonly(
          "calls", [](const PyGraph& self) { return self.graph.calls(); },
          "calls: int\n\nKernel calls captured.")
      .def_property_readonly(
          "dispatches", [](const PyGraph& self) { return self.graph.dispatches(); },
          "dispatches: int\n\nCompute dispatches per replay.")
      .def("__repr__", [](const PyGraph& self) {
        return "wgk.Graph(" + std::to_string(self.graph.calls()) +
               " call(s), inputs=" + std::string(py::repr(graphInputs(self).attr("keys")())) + ")";
      });

  auto runtime = py::reinterpret_borrow<py::class_<PyRuntime>>(m.attr("Runtime"));
  runtime
      .def(
          "batch",
          [](const PyRuntime& self) { return PyBatch(self.runtime, false, std::make_shared<Pending>()); },
          "batch(self) -> Batch\n\nA new wgk.Batch: calls recorded, then submitted together (use it in a "
          "`with` block).\n\n"
          "Example:\n    >>> with rt.batch() as b:\n    ...     y = b(gelu, X=x, bias=bias)[\"Y\"]\n"
          "    >>> y.numpy()")
      .def("capture", &capture, py::arg("fn"),
           "capture(self, fn: Callable[[Batch], Any]) -> Graph\n\n"
           "Calls fn(batch) once to record kernel calls into a graph (nothing runs) and returns the "
           "wgk.Graph; its `outputs` are what fn returned.\n\n"
           "Example:\n    >>> g = rt.capture(lambda b: b(gelu, X=xd)[\"Y\"])\n    >>> g.replay(X=x).numpy()");
}

}  // namespace wgk::python

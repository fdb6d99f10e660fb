// wgk._reference (private, for the pytest suite): a package's test.json cases with their inputs and
// expected outputs as the harness prepares them (given data, else wgk's CPU reference; exact
// float16 rounding), the harness's tolerance comparison, and a way to raise each wgk::Error code.
// Generic over packages: a package added later is covered by its own test.json.
#include <pybind11/stl.h>

#include "arrays.h"
#include "errors.h"
#include "harness/test_runner.h"
#include "package/package.h"
#include "reference/compare.h"
#include "reference/registry.h"
#include "values.h"
#include "wgk/error.h"

namespace py = pybind11;
using namespace wgk;

namespace {

struct OpenedTests {
  std::string opId;
  package::TestFile file;
};

OpenedTests openTests(const std::string& folder) {
  auto pkg = package::Package::open(folder);
  const std::string opId = pkg->manifest().id();
  return {opId, withContext("while reading test.json of " + opId, [&] {
            return package::loadTestFile((pkg->webgpuDir() / "test.json").string());
          })};
}

py::object optionalNumber(const std::optional<double>& v) {
  return v ? py::object(py::float_(*v)) : py::object(py::none());
}

std::optional<double> numberOrNone(const py::dict& d, const char* key) {
  if (!d.contains(key) || d[key].is_none()) return std::nullopt;
  return d[key].cast<double>();
}

// cases, prepare, compare, reference_ops.
void addCaseFunctions(py::module_& m) {
  m.def(
      "cases",
      [](const std::string& folder) {
        py::list out;
        for (const auto& c : openTests(folder).file.cases) {
          py::dict d;
          d["name"] = c.name;
          d["variant"] = c.variant ? py::object(py::str(*c.variant)) : py::object(py::none());
          d["skip"] = c.skipGpu ? py::object(py::str(c.skipGpu->category + ": " + c.skipGpu->reason))
                                : py::object(py::none());
          out.append(d);
        }
        return out;
      },
      py::arg("folder"),
      "The cases of a package's test.json: name, variant (targeted, or None), skip (or None).");

  m.def(
      "prepare",
      [](const std::string& folder, const std::string& name) {
        OpenedTests t = openTests(folder);
        const package::TestCase* c = t.file.findCase(name);
        if (!c) throw Error(ErrorCode::NotFound, "test.json of " + t.opId + " has no case '" + name + "'");
        harness::PreparedCase p;
        {
          py::gil_scoped_release unlocked;
          p = harness::prepareCase(t.opId, *c);
        }
        py::dict inputs, expected, tolerance, attrs;
        for (auto& [k, v] : p.inputs) inputs[py::str(k)] = wgk::python::toNumpy(std::move(v));
        for (auto& [k, v] : p.expected) expected[py::str(k)] = wgk::python::toNumpy(std::move(v));
        for (const auto& [k, o] : c->outputs) {
          const Tolerance tol = harness::toleranceOf(o);
          py::dict d;
          d["abs"] = optionalNumber(tol.abs);
          d["rel"] = optionalNumber(tol.rel);
          d["ulp"] = optionalNumber(tol.ulp);
          d["allowNaN"] = tol.allowNaN;
          tolerance[py::str(k)] = d;
        }
        for (const auto& [k, v] : c->attrs) attrs[py::str(k)] = wgk::python::fromJsonText(v.toJson().dump());
        py::dict out;
        out["inputs"] = inputs;
        out["expected"] = expected;
        out["tolerance"] = tolerance;
        out["attrs"] = attrs;
        return out;
      },
      py::arg("folder"), py::arg("name"),
      "A case's inputs, attrs, expected outputs (given data, else the CPU reference's) and tolerances.");

  m.def(
      "compare",
      [](py::object got, py::object want, const py::dict& tolerance) {
        Tolerance tol;
        tol.abs = numberOrNone(tolerance, "abs");
        tol.rel = numberOrNone(tolerance, "rel");
        tol.ulp = numberOrNone(tolerance, "ulp");
        tol.allowNaN = tolerance.contains("allowNaN") && tolerance["allowNaN"].cast<bool>();
        const CompareResult r = compareTensors(wgk::python::toHostTensor(got, "got"),
                                               wgk::python::toHostTensor(want, "want"), tol);
        py::dict d;
        d["pass"] = r.pass;
        d["summary"] = r.summary();
        d["max_abs"] = r.maxAbsError;
        d["max_ulp"] = r.maxUlpError;
        return d;
      },
      py::arg("got"), py::arg("want"), py::arg("tolerance"),
      "The harness's comparison (src/reference/compare.h) under a test.json tolerance.");

  m.def("reference_ops", &reference::referenceOpIds, "The op ids with a CPU reference.");
}

// error_codes, raise_error.
void addErrorFunctions(py::module_& m) {
  m.def(
      "error_codes",
      [] {
        std::vector<std::string> out;
        for (int i = 0; errorCodeName(static_cast<ErrorCode>(i)) != "unknown"; ++i)
          out.emplace_back(errorCodeName(static_cast<ErrorCode>(i)));
        return out;
      },
      "Every wgk::ErrorCode's stable name, in enum order.");

  m.def(
      "raise_error",
      [](const std::string& code, const std::string& message, const std::vector<std::string>& context) {
        for (int i = 0; errorCodeName(static_cast<ErrorCode>(i)) != "unknown"; ++i)
          if (errorCodeName(static_cast<ErrorCode>(i)) == code) {
            throw Error(static_cast<ErrorCode>(i), message, context);
          }
        wgk::python::invalidArgument("no error code '" + code + "'");
      },
      py::arg("code"), py::arg("message"), py::arg("context") = std::vector<std::string>{},
      "Throws a C++ wgk::Error with this code, message and context chain (to test the translation).");
}

}  // namespace

PYBIND11_MODULE(_reference, m) {
  m.doc() = "Private to wgk's tests: test.json cases, CPU reference outputs and the harness's comparison.";
  addCaseFunctions(m);
  addErrorFunctions(m);
}

#include "package/test_spec.h"

#include <cmath>
#include <set>

#include "package/manifest.h"
#include "wgk/error.h"

namespace wgk::package {

namespace {

DType readDType(const Json& j, const std::string& path) {
  const std::string s = readString(j, path);
  auto t = dtypeFromName(s);
  if (!t) schemaError(path, "unknown dtype '" + s + "'");
  return *t;
}

Shape readShape(const Json& j, const std::string& path) {
  readArray(j, path);
  Shape s;
  for (size_t i = 0; i < j.size(); ++i) {
    const int64_t d = readInt(j[i], jsonPath(path, i));
    if (d < 0) schemaError(jsonPath(path, i), "a dimension cannot be negative");
    s.push_back(d);
  }
  return s;
}

std::map<std::string, expr::Value> readAttrs(const Json& j, const std::string& path) {
  readObject(j, path);
  std::map<std::string, expr::Value> out;
  for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = literalValueFromJson(it.value());
  return out;
}

TensorSpec readTensor(const Json& j, const std::string& path, const FixtureArrays& fixtures,
                      bool dataRequired) {
  ObjectReader r(j, path);
  TensorSpec t;
  t.dtype = readDType(r.required("dtype"), r.path("dtype"));
  t.shape = readShape(r.required("shape"), r.path("shape"));
  if (const Json* d = dataRequired ? &r.required("data") : r.optional("data"))
    t.data = parseDataSpec(*d, r.path("data"), fixtures);
  r.finish();
  if (t.data && t.data->kind == DataSpec::Kind::Values &&
      static_cast<int64_t>(t.data->values.size()) != numel(t.shape))
    schemaError(r.path("data"), std::to_string(t.data->values.size()) + " values for shape of " +
                                    std::to_string(numel(t.shape)) + " elements");
  if (t.data) checkDataFitsDtype(*t.data, t.dtype, r.path("data"));
  return t;
}

Tolerance readTolerance(const Json& j, const std::string& path) {
  Tolerance t;
  if (j.is_number()) {
    t.abs = readNumber(j, path);
  } else {
    ObjectReader r(j, path);
    if (auto* v = r.optional("abs")) t.abs = readNumber(*v, r.path("abs"));
    if (auto* v = r.optional("rel")) t.rel = readNumber(*v, r.path("rel"));
    if (auto* v = r.optional("ulp")) t.ulp = readInt(*v, r.path("ulp"));
    r.finish();
  }
  if ((t.abs && *t.abs < 0) || (t.rel && *t.rel < 0) || (t.ulp && *t.ulp < 0))
    schemaError(path, "tolerances cannot be negative");
  return t;
}

ExpectedOutput readExpected(const Json& j, const std::string& path, const FixtureArrays& fixtures) {
  ObjectReader r(j, path);
  ExpectedOutput o;
  o.dtype = readDType(r.required("dtype"), r.path("dtype"));
  o.shape = readShape(r.required("shape"), r.path("shape"));
  if (auto* v = r.optional("tolerance")) o.tolerance = readTolerance(*v, r.path("tolerance"));
  if (auto* v = r.optional("data")) o.data = parseDataSpec(*v, r.path("data"), fixtures);
  if (auto* v = r.optional("allowNaN")) o.allowNaN = readBool(*v, r.path("allowNaN"));
  r.finish();
  if (o.data && o.data->kind == DataSpec::Kind::Values &&
      static_cast<int64_t>(o.data->values.size()) != numel(o.shape))
    schemaError(r.path("data"), std::to_string(o.data->values.size()) + " values for shape of " +
                                    std::to_string(numel(o.shape)) + " elements");
  if (o.data) checkDataFitsDtype(*o.data, o.dtype, r.path("data"));
  return o;
}

TestCase readTestCase(const Json& j, const std::string& path, const FixtureArrays& fixtures) {
  ObjectReader r(j, path);
  TestCase c;
  c.name = readString(r.required("name"), r.path("name"));
  if (auto* v = r.optional("description")) c.description = readString(*v, r.path("description"));
  if (auto* v = r.optional("variant")) c.variant = readString(*v, r.path("variant"));
  if (auto* v = r.optional("provenance")) {
    // Free-form: the Hub writes an object ({source, test, notes}); a plain note is accepted too.
    if (!v->is_object() && !v->is_string())
      schemaError(r.path("provenance"), "expected an object or a string");
    c.provenance = *v;
  }
  if (auto* v = r.optional("skipGpu")) {
    ObjectReader s(*v, r.path("skipGpu"));
    SkipGpu sk;
    sk.category = readString(s.required("category"), s.path("category"));
    sk.reason = readString(s.required("reason"), s.path("reason"));
    s.finish();
    c.skipGpu = sk;
  }
  if (auto* v = r.optional("attrs")) c.attrs = readAttrs(*v, r.path("attrs"));
  const Json& inputs = readObject(r.required("inputs"), r.path("inputs"));
  for (auto it = inputs.begin(); it != inputs.end(); ++it)
    c.inputs[it.key()] = readTensor(it.value(), jsonPath(r.path("inputs"), it.key()), fixtures, true);
  const Json& outputs = readObject(r.required("outputs"), r.path("outputs"));
  for (auto it = outputs.begin(); it != outputs.end(); ++it)
    c.outputs[it.key()] = readExpected(it.value(), jsonPath(r.path("outputs"), it.key()), fixtures);
  r.finish();
  return c;
}

}  // namespace

const TestCase* TestFile::findCase(std::string_view name) const {
  for (const auto& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

TestFile parseTestFile(const Json& j) {
  ObjectReader r(j, "");
  TestFile t;
  if (auto* v = r.optional("fixtureArrays")) {
    readObject(*v, "/fixtureArrays");
    for (auto it = v->begin(); it != v->end(); ++it)
      t.fixtureArrays[it.key()] = parseNumberList(it.value(), jsonPath("/fixtureArrays", it.key()));
  }
  const Json& cases = readArray(r.required("cases"), "/cases");
  std::set<std::string> names;
  for (size_t i = 0; i < cases.size(); ++i) {
    t.cases.push_back(readTestCase(cases[i], jsonPath("/cases", i), t.fixtureArrays));
    if (!names.insert(t.cases.back().name).second)
      schemaError(jsonPath("/cases", i) + "/name", "duplicate case name '" + t.cases.back().name + "'");
  }
  r.finish();
  return t;
}

TestFile loadTestFile(const std::string& file) {
  return loadOrderedJsonFile(file, parseTestFile);
}

std::map<std::string, HostTensor> materializeInputs(const TestCase& c) {
  std::map<std::string, HostTensor> out;
  // Init-captures (&t = t): clang 14, which the fuzz build uses, cannot capture structured bindings.
  for (const auto& [name, t] : c.inputs)
    out[name] = withContext("in test case " + c.name + " input " + name,
                            [&, &t = t] { return materialize(*t.data, t.dtype, t.shape); });
  return out;
}

std::optional<HostTensor> materializeExpected(const ExpectedOutput& o) {
  if (!o.data) return std::nullopt;
  return materialize(*o.data, o.dtype, o.shape);
}

const BenchCase* BenchFile::findCase(std::string_view name) const {
  for (const auto& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

BenchFile parseBenchFile(const Json& j) {
  ObjectReader r(j, "");
  BenchFile b;
  const FixtureArrays none;
  const Json& cases = readArray(r.required("cases"), "/cases");
  std::set<std::string> names;
  static const std::set<std::string> knownTags = {"decode", "prefill", "large", "compute", "smoke"};
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string p = jsonPath("/cases", i);
    ObjectReader cr(cases[i], p);
    BenchCase c;
    c.name = readString(cr.required("name"), cr.path("name"));
    if (!names.insert(c.name).second) schemaError(cr.path("name"), "duplicate case name '" + c.name + "'");
    if (auto* v = cr.optional("description")) c.description = readString(*v, cr.path("description"));
    if (auto* v = cr.optional("tags")) {
      c.tags = readStringList(*v, cr.path("tags"));
      for (size_t t = 0; t < c.tags.size(); ++t)
        if (!knownTags.count(c.tags[t]))
          schemaError(jsonPath(cr.path("tags"), t),
                      "unknown tag '" + c.tags[t] + "' (known: decode, prefill, large, compute, smoke)");
    }
    const Json& inputs = readObject(cr.required("inputs"), cr.path("inputs"));
    for (auto it = inputs.begin(); it != inputs.end(); ++it)
      c.inputs[it.key()] = readTensor(it.value(), jsonPath(cr.path("inputs"), it.key()), none, false);
    if (auto* v = cr.optional("attrs")) c.attrs = readAttrs(*v, cr.path("attrs"));
    if (auto* v = cr.optional("flops")) {
      c.flops = readNumber(*v, cr.path("flops"));
      if (!(*c.flops >= 0) || !std::isfinite(*c.flops))
        schemaError(cr.path("flops"), "must be a finite number >= 0 (floating-point operations of one call)");
    }
    if (auto* v = cr.optional("absent")) {
      c.absent = readStringList(*v, cr.path("absent"));
      for (size_t a = 0; a < c.absent.size(); ++a)
        if (c.inputs.count(c.absent[a]))
          schemaError(jsonPath(cr.path("absent"), a), "'" + c.absent[a] + "' is both an input and absent");
    }
    cr.finish();
    b.cases.push_back(std::move(c));
  }
  if (auto* v = r.optional("report")) {
    ObjectReader rr(*v, "/report");
    if (auto* w = rr.optional("warmup")) b.report.warmup = readInt(*w, "/report/warmup");
    if (auto* w = rr.optional("iterations")) b.report.iterations = readInt(*w, "/report/iterations");
    rr.finish();
    if (b.report.warmup < 0 || b.report.iterations < 1)
      schemaError("/report", "warmup must be >= 0 and iterations >= 1");
  }
  r.finish();
  return b;
}

BenchFile loadBenchFile(const std::string& file) {
  return loadOrderedJsonFile(file, parseBenchFile);
}

std::map<std::string, HostTensor> materializeInputs(const BenchCase& c) {
  std::map<std::string, HostTensor> out;
  for (const auto& [name, t] : c.inputs) {
    DataSpec d;
    if (t.data) {
      d = *t.data;
    } else {
      d.kind = DataSpec::Kind::Random;
      d.seed = fnv1a64(c.name + ":" + name);
      d.min = -1;
      d.max = 1;
    }
    out[name] = withContext("in bench case " + c.name + " input " + name,
                            [&, &t = t] { return materialize(d, t.dtype, t.shape); });
  }
  return out;
}

uint64_t bytesMoved(const std::map<std::string, HostTensor>& inputs,
                    const std::map<std::string, std::pair<DType, Shape>>& outputs) {
  uint64_t total = 0;
  for (const auto& [n, t] : inputs) total += t.byteSize();
  for (const auto& [n, o] : outputs) total += static_cast<uint64_t>(numel(o.second)) * dtypeBytes(o.first);
  return total;
}

}  // namespace wgk::package

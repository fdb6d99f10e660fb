// The card's usage section: a C++ snippet (wgk::Runtime / wgk::Kernel, as in include/wgk/runtime.h)
// and the same call through `wgk run`. Shapes and dtypes come from one test.json case so the
// example is a request the package is tested on.
#include <algorithm>
#include <sstream>
#include <tuple>

#include "core/shape_text.h"
#include "harness/card.h"

namespace wgk::harness {
namespace {

std::string dtypeEnumerator(DType t) {
  switch (t) {
    case DType::Float32:
      return "Float32";
    case DType::Float16:
      return "Float16";
    case DType::Int32:
      return "Int32";
    case DType::Uint32:
      return "Uint32";
    case DType::Int8:
      return "Int8";
    case DType::Uint8:
      return "Uint8";
    case DType::Int16:
      return "Int16";
    case DType::Int64:
      return "Int64";
    case DType::Bool:
      return "Bool";
  }
  return "Float32";
}

// The example request: a case giving the most inputs (optional ones included), with default
// attributes, aimed at the highest-priority variant (the path most calls take), then the fewest
// elements (a readable shape); never one skipped on the GPU or empty. The first such on ties.
const package::TestCase* exampleCase(const package::Manifest& m, const package::TestFile& tests) {
  auto key = [&](const package::TestCase& c) {
    int64_t elements = 0;
    for (const auto& [name, t] : c.inputs) elements += numel(t.shape);
    const package::VariantSpec* target = c.variant ? m.findVariant(*c.variant) : nullptr;
    return std::tuple(c.inputs.size(), c.attrs.empty(), target ? target->priority : -1e300, -elements);
  };
  const package::TestCase* best = nullptr;
  for (const auto& c : tests.cases) {
    bool empty = false;
    for (const auto& [name, t] : c.inputs) empty = empty || numel(t.shape) == 0;
    if (c.skipGpu || empty) continue;
    if (!best || key(c) > key(*best)) best = &c;
  }
  return best;
}

}  // namespace

std::string usageSection(const package::Manifest& m, const std::string& repoId,
                         const package::TestFile& tests) {
  const package::TestCase* example = exampleCase(m, tests);
  std::vector<const package::PortSpec*> inputs, outputs = m.outputs();
  for (const package::PortSpec* p : m.inputs())
    if (!example || example->inputs.count(p->name)) inputs.push_back(p);
  std::vector<const package::AttributeSpec*> attrs;
  for (const auto& a : m.attributes)
    if (a.defaultValue) attrs.push_back(&a);
  std::ostringstream s;
  s << "## Use from C++ (wgk)\n\n\n"
    << "Output shapes and logical data types are inferred from the supplied inputs and attributes; result "
       "tensors are allocated automatically. Tensors are named by the manifest's `args` keys.\n\n\n"
    << "`.version = 1` selects the published kernel contract (branch `v1`); it is independent of any "
       "operator opset, contrib `since_version`, or model version. To pin exact artifact bytes, pass a "
       "40-character commit `.revision` instead of `.version`. Packages that ship with wgk resolve without "
       "network access.\n\n\n"
    << "Replace each `*Data` placeholder with a `std::vector<float>` holding the corresponding input data "
       "(float16 inputs are rounded to nearest even).\n\n\n";
  s << "```cpp\n#include <wgk/wgk.h>\n\n"
    << "auto rt = wgk::Runtime::create();\n"
    << "wgk::Kernel kernel = rt->load(\"" << repoId << "\", {.version = 1});\n";
  for (const auto* a : inputs) {
    DType dtype = DType::Float32;
    Shape shape;
    if (example) {
      dtype = example->inputs.at(a->name).dtype;
      shape = example->inputs.at(a->name).shape;
    }
    s << "wgk::HostTensor " << a->name
      << " = wgk::HostTensor::fromFloats(wgk::DType::" << dtypeEnumerator(dtype) << ", {" << joinDims(shape)
      << "}, " << a->name << "Data);\n";
  }
  s << "std::map<std::string, wgk::HostTensor> out = kernel({";
  for (size_t i = 0; i < inputs.size(); ++i)
    s << (i ? ", " : "") << "{\"" << inputs[i]->name << "\", " << inputs[i]->name << "}";
  s << "}";
  if (!attrs.empty()) {
    s << ",\n                                                 {";
    for (size_t i = 0; i < attrs.size(); ++i)
      s << (i ? ", " : "") << "{\"" << attrs[i]->name << "\", " << attrs[i]->defaultValue->repr() << "}";
    s << "}";
  }
  s << ");\n";
  for (const auto* a : outputs)
    s << "const wgk::HostTensor& " << a->name << " = out.at(\"" << a->name << "\");\n";
  s << "```\n\n\n";

  s << "## Use from the command line\n\n\n"
    << "`wgk run` reads each input from a `.npy` file and writes `<output>.npy` files; `wgk info` prints the "
       "contract, `wgk test` runs `test.json` on the local device.\n\n\n"
    << "```sh\nwgk run " << repoId;
  for (const auto* a : inputs) s << " \\\n  --input " << a->name << "=" << a->name << ".npy";
  for (const auto* attr : attrs) s << " \\\n  --attr " << attr->name << "=" << attr->defaultValue->repr();
  s << " \\\n  --output-dir out\n# writes";
  for (const auto* a : outputs) s << " out/" << a->name << ".npy";
  s << "\nwgk test " << repoId << " --all-variants\n```\n\n\n";
  return s.str();
}

}  // namespace wgk::harness

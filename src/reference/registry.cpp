#include "reference/registry.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "reference/ops.h"
#include "wgk/error.h"

namespace wgk::reference {
namespace {
using Inputs = std::map<std::string, HostTensor>;
using Attrs = std::map<std::string, double>;

struct OpEntry {
  std::vector<std::string> required;
  std::vector<std::string> optional;
  Attrs defaults;
  std::function<Inputs(const Inputs&, const Attrs&)> run;
  // Ops with integer-list attributes (Transpose's perm): their names, and run taking them too.
  std::vector<std::string> lists;
  std::function<Inputs(const Inputs&, const Attrs&, const ListAttrs&)> runWithLists;
};

int64_t integralAttr(const Attrs& a, const std::string& name) {
  const double v = a.at(name);
  if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9.0e15)
    throw Error(ErrorCode::Contract,
                "attribute " + name + " must be an integer (got " + std::to_string(v) + ")");
  return static_cast<int64_t>(v);
}

const std::map<std::string, OpEntry, std::less<>>& ops() {
  static const std::map<std::string, OpEntry, std::less<>> table = {
      {"ai.onnx.Add",
       {{"a", "b"},
        {},
        {},
        [](const Inputs& in, const Attrs&) {
          return Inputs{{"c", add(in.at("a"), in.at("b"))}};
        }}},
      {"ai.onnx.Mul",
       {{"a", "b"},
        {},
        {},
        [](const Inputs& in, const Attrs&) {
          return Inputs{{"c", mul(in.at("a"), in.at("b"))}};
        }}},
      {"ai.onnx.ArgMax",
       {{"x"},
        {},
        {{"axis", 0}, {"keepdims", 1}, {"select_last_index", 0}},
        [](const Inputs& in, const Attrs& a) {
          return Inputs{{"y", argMax(in.at("x"), integralAttr(a, "axis"), integralAttr(a, "keepdims"),
                                     integralAttr(a, "select_last_index"))}};
        }}},
      {"ai.onnx.Gather",
       {{"data", "indices"},
        {},
        {{"axis", 0}},
        [](const Inputs& in, const Attrs& a) {
          return Inputs{{"output", gather(in.at("data"), in.at("indices"), integralAttr(a, "axis"))}};
        }}},
      {"ai.onnx.TensorScatter",
       {{"cache", "update"},
        {"write_indices"},
        {{"axis", -2}},
        [](const Inputs& in, const Attrs& a) {
          auto w = in.find("write_indices");
          const HostTensor* indices = w == in.end() ? nullptr : &w->second;
          return Inputs{{"cache", tensorScatter(in.at("cache"), in.at("update"), indices,
                                                integralAttr(a, "axis"), /*circular=*/false)}};
        }}},
      {"ai.onnx.MatMul",
       {{"a", "b"},
        {},
        {},
        [](const Inputs& in, const Attrs&) {
          return Inputs{{"y", matmul(in.at("a"), in.at("b"))}};
        }}},
      {"ai.onnx.Transpose",
       {{"x"},
        {},
        {},
        nullptr,
        {"perm"},
        [](const Inputs& in, const Attrs&, const ListAttrs& l) {
          auto perm = l.find("perm");
          return Inputs{{"y", transpose(in.at("x"), perm == l.end() ? nullptr : &perm->second)}};
        }}},
      {"ai.onnx.Softmax",
       {{"x"},
        {},
        {{"axis", -1}},
        [](const Inputs& in, const Attrs& a) {
          return Inputs{{"y", softmax(in.at("x"), integralAttr(a, "axis"))}};
        }}},
      {"com.microsoft.FastGelu",
       {{"X"},
        {"bias"},
        {},
        [](const Inputs& in, const Attrs&) {
          auto b = in.find("bias");
          return Inputs{{"Y", fastGelu(in.at("X"), b == in.end() ? nullptr : &b->second)}};
        }}},
      {"ai.onnx.RMSNormalization",
       {{"x", "scale"},
        {},
        {{"axis", -1}, {"epsilon", 1e-05}, {"stash_type", 1}},
        [](const Inputs& in, const Attrs& a) {
          return Inputs{{"y", rmsNormalization(in.at("x"), in.at("scale"), integralAttr(a, "axis"),
                                               a.at("epsilon"), integralAttr(a, "stash_type"))}};
        }}},
      {"com.microsoft.GemmaRotaryEmbedding",
       {{"embT", "qT", "qRotT", "kT", "kRotT"},
        {},
        {},
        [](const Inputs& in, const Attrs&) {
          auto [o1, o2] =
              gemmaRotaryEmbedding(in.at("embT"), in.at("qT"), in.at("qRotT"), in.at("kT"), in.at("kRotT"));
          return Inputs{{"output1T", std::move(o1)}, {"output2T", std::move(o2)}};
        }}},
  };
  return table;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}
}  // namespace

std::vector<std::string> referenceOpIds() {
  std::vector<std::string> ids;
  for (const auto& [id, e] : ops()) ids.push_back(id);
  return ids;
}

bool hasReference(std::string_view opId) {
  return ops().find(opId) != ops().end();
}

Inputs runReference(std::string_view opId, const Inputs& inputs, const Attrs& attrs) {
  return runReference(opId, inputs, attrs, ListAttrs{});
}

Inputs runReference(std::string_view opId, const Inputs& inputs, const Attrs& attrs, const ListAttrs& lists) {
  auto it = ops().find(opId);
  if (it == ops().end())
    throw Error(ErrorCode::NotFound, "no CPU reference for op '" + std::string(opId) +
                                         "' (known: " + joined(referenceOpIds()) + ")");
  const OpEntry& op = it->second;
  return withContext("in the CPU reference of " + std::string(opId), [&] {
    std::vector<std::string> all = op.required;
    all.insert(all.end(), op.optional.begin(), op.optional.end());
    for (const auto& [name, t] : inputs)
      if (std::find(all.begin(), all.end(), name) == all.end())
        throw Error(ErrorCode::Contract, "unknown input '" + name + "' (inputs: " + joined(all) + ")");
    for (const auto& name : op.required)
      if (!inputs.count(name)) throw Error(ErrorCode::Contract, "missing required input '" + name + "'");
    Attrs merged = op.defaults;
    std::vector<std::string> known;
    for (const auto& [k, v] : op.defaults) known.push_back(k);
    for (const auto& [name, v] : attrs) {
      if (!op.defaults.count(name))
        throw Error(ErrorCode::Contract,
                    "unknown attribute '" + name + "' (attributes: " + joined(known) + ")");
      merged[name] = v;
    }
    for (const auto& [name, v] : lists)
      if (std::find(op.lists.begin(), op.lists.end(), name) == op.lists.end())
        throw Error(ErrorCode::Contract,
                    "unknown list attribute '" + name + "' (list attributes: " + joined(op.lists) + ")");
    return op.runWithLists ? op.runWithLists(inputs, merged, lists) : op.run(inputs, merged);
  });
}

}  // namespace wgk::reference

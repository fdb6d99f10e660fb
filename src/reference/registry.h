// The CPU references by op id, with the manifests' argument names: what `wgk test` calls when a
// test case has no expected data.
//
//   auto out = wgk::reference::runReference("ai.onnx.RMSNormalization",
//                                           {{"x", x}, {"scale", scale}}, {{"axis", -1}});
//   wgk::HostTensor y = out.at("y");
//
// Ops and names: "ai.onnx.Add" a, b -> c; "ai.onnx.Mul" a, b -> c; "ai.onnx.ArgMax" x -> y (attrs axis = 0,
// keepdims = 1, select_last_index = 0); "ai.onnx.MatMul" a, b -> y; "ai.onnx.Softmax" x -> y (attr axis =
// -1); "com.microsoft.FastGelu" X, bias? -> Y; "ai.onnx.RMSNormalization" x, scale -> y (attrs axis = -1,
// epsilon = 1e-05, stash_type = 1); "com.microsoft.GemmaRotaryEmbedding" embT, qT, qRotT, kT, kRotT ->
// output1T, output2T. Unknown op: Error(NotFound) listing the known ones. Unknown or missing inputs, unknown
// attributes, non-integral integer attributes: Error(Contract).
// "ai.onnx.Gather" data, indices -> output (attr axis = 0).
// "ai.onnx.TensorScatter" cache, update, write_indices? -> cache (attr axis = -2; mode linear only: the
// attributes are numbers, so circular cases carry their expected data).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "wgk/tensor.h"

namespace wgk::reference {

std::vector<std::string> referenceOpIds();  // sorted
bool hasReference(std::string_view opId);

std::map<std::string, HostTensor> runReference(std::string_view opId,
                                               const std::map<std::string, HostTensor>& inputsByArgName,
                                               const std::map<std::string, double>& attrs);

// Integer-list attributes by name ("ai.onnx.Transpose" x -> y, list attr perm, absent: the reversed
// axes); an op that declares none refuses them (Error(Contract)).
using ListAttrs = std::map<std::string, std::vector<int64_t>>;
std::map<std::string, HostTensor> runReference(std::string_view opId,
                                               const std::map<std::string, HostTensor>& inputsByArgName,
                                               const std::map<std::string, double>& attrs,
                                               const ListAttrs& lists);

}  // namespace wgk::reference

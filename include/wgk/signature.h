// wgk/signature.h — what a loaded kernel takes and gives: its tensors (ports) with their dtypes
// and ranks, its scalar args, its attributes with their defaults, and its variants, as the
// package's manifest declares them (Kernel::signature()).
//
//   wgk::Kernel rms = rt->load("webgpu-kernels/ai.onnx.RMSNormalization");
//   wgk::KernelSignature s = rms.signature();
//   for (const wgk::PortSignature* p : s.inputs())
//     std::cout << p->name << (p->optional ? " (optional)" : "") << "\n";   // x, scale, ...
//   const wgk::AttributeSignature* eps = s.findAttribute("epsilon");
//   double e = std::get<double>(*eps->defaultValue);                           // 1e-05
//   for (const auto& v : s.variants) std::cout << v.id << " " << v.priority << "\n";
//
// A name given to Kernel::call is a tensor when findPort() knows it, a scalar arg when findArg()
// does, an attribute when findAttribute() does; the runtime checks the rest (dtypes that must
// agree through a type variable, ranks derived from other inputs, attribute ranges) when it plans.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wgk/attribute.h"
#include "wgk/dtype.h"
#include "wgk/export.h"

namespace wgk {

enum class PortDirection {
  Input,   // read by the kernel
  Output,  // written by the kernel (allocated unless the caller gives a buffer)
  InOut,   // given as an input and written in place (spec 2.1 packages, e.g. a KV cache)
};

// One tensor of the kernel, by the name calls give it.
struct PortSignature {
  std::string name;
  PortDirection direction = PortDirection::Input;
  // The dtypes it takes (or, for an output, may have); empty: any dtype.
  std::vector<DType> dtypes;
  // The type variable ("T") ports that must share a dtype have in common; empty when the dtype is
  // fixed or free.
  std::string typeVariable;
  // The rank an input must have, when the manifest states a number; nullopt: any rank, or one the
  // manifest derives from other values.
  std::optional<int64_t> rank;
  bool rankChecked = true;  // false: the rank is informational (spec 2.1 packages, as the Hub's loader)
  bool optional = false;    // an input a call may leave out
  std::string description;
};

// A scalar passed by value (spec 2.1 packages' `args`), given in CallOptions::args.
struct ArgSignature {
  std::string name;
  std::string kind;  // "u32", "i32", "f32", "bool" or "string"
  bool required = true;
  std::vector<std::string> oneOf;  // string args: the values allowed (empty: any string)
  std::string description;
};

// An op attribute, given in CallOptions::attrs.
struct AttributeSignature {
  std::string name;
  std::optional<Attribute> defaultValue;  // nullopt: none (a call that needs it must give it)
  std::string description;
};

// One implementation of the op; Kernel::plan says which one a request gets, and why.
struct VariantSignature {
  std::string id;
  std::string name;
  std::string description;
  double priority = 0;  // higher is tried first
};

struct WGK_API KernelSignature {
  std::string op;  // "ai.onnx.RMSNormalization"
  std::string description;
  int64_t sinceVersion = 1;  // the ONNX opset the contract follows
  // Inputs in manifest order, then outputs; an InOut port appears once.
  std::vector<PortSignature> ports;
  std::vector<ArgSignature> args;
  std::vector<AttributeSignature> attributes;
  std::vector<VariantSignature> variants;  // declaration order

  std::vector<const PortSignature*> inputs() const;   // Input and InOut ports
  std::vector<const PortSignature*> outputs() const;  // Output and InOut ports
  // nullptr when the kernel has no such port, arg or attribute.
  const PortSignature* findPort(std::string_view name) const;
  const ArgSignature* findArg(std::string_view name) const;
  const AttributeSignature* findAttribute(std::string_view name) const;
};

}  // namespace wgk

// Kernel::signature(): the manifest's op contract as the public KernelSignature
// (include/wgk/signature.h), so that callers (the Python bindings among them) can sort and check a
// call's names without reading the internal package::Manifest.
#include "core/foreign_errors.h"
#include "runtime/runtime_impl.h"
#include "wgk/error.h"
#include "wgk/signature.h"

namespace wgk {
namespace {

PortDirection directionOf(package::PortDirection d) {
  switch (d) {
    case package::PortDirection::Input:
      return PortDirection::Input;
    case package::PortDirection::Output:
      return PortDirection::Output;
    case package::PortDirection::InOut:
      return PortDirection::InOut;
  }
  return PortDirection::Input;
}

// The dtypes a port takes: its fixed dtype, its type variable's constraint, or its own dtype name;
// empty (any) for a free type variable or no dtype at all. Names wgk has no DType for are left out:
// no tensor of theirs can be passed.
void fillDtypes(const package::Manifest& m, const package::PortSpec& p, PortSignature& out) {
  if (p.fixedDtype) {
    out.dtypes = {*p.fixedDtype};
    return;
  }
  if (auto it = m.typeConstraints.find(p.dtype); it != m.typeConstraints.end()) {
    out.typeVariable = p.dtype;
    for (const std::string& name : it->second)
      if (auto t = dtypeFromName(name)) out.dtypes.push_back(*t);
    return;
  }
  if (auto t = dtypeFromName(p.dtype)) {
    out.dtypes = {*t};
    return;
  }
  if (m.freeTypeVars.count(p.dtype)) out.typeVariable = p.dtype;
}

bool isWholeNumberList(const expr::List& l, bool ints) {
  for (const expr::Value& v : l)
    if (!(ints ? v.isInt() : v.isNumber())) return false;
  return true;
}

// A manifest default as an Attribute; null is no default. A JSON literal no Attribute kind holds
// (an object, a nested or mixed list) is given as its JSON text, so it is never lost.
std::optional<Attribute> attributeOf(const expr::Value& v) {
  if (v.isNone()) return std::nullopt;
  if (v.isBool()) return v.asBool();
  if (v.isInt()) return v.asInt();
  if (v.isFloat()) return v.asNumber();
  if (v.isString()) return v.asString();
  if (v.isList() && isWholeNumberList(v.asList(), true)) {
    std::vector<int64_t> out;
    for (const expr::Value& x : v.asList()) out.push_back(x.asInt());
    return out;
  }
  if (v.isList() && isWholeNumberList(v.asList(), false)) {
    std::vector<double> out;
    for (const expr::Value& x : v.asList()) out.push_back(x.asNumber());
    return out;
  }
  return v.toJson().dump();
}

KernelSignature signatureOf(const package::Manifest& m) {
  KernelSignature s;
  s.op = m.id();
  s.description = m.description;
  s.sinceVersion = m.sinceVersion;
  for (const package::PortSpec& p : m.ports) {
    PortSignature port;
    port.name = p.name;
    port.direction = directionOf(p.direction);
    fillDtypes(m, p, port);
    if (p.rank && p.rank->literalValue() && p.rank->literalValue()->isInt())
      port.rank = p.rank->literalValue()->asInt();
    port.rankChecked = p.rankChecked;
    port.optional = p.optional;
    port.description = p.description;
    s.ports.push_back(std::move(port));
  }
  for (const package::ScalarArgSpec& a : m.args)
    s.args.push_back({a.name, a.kind, a.required, a.oneOf, a.description});
  for (const package::AttributeSpec& a : m.attributes)
    s.attributes.push_back(
        {a.name, a.defaultValue ? attributeOf(*a.defaultValue) : std::nullopt, a.description});
  for (const package::VariantSpec& v : m.variants)
    s.variants.push_back({v.id, v.name, v.description, v.priority});
  return s;
}

template <class T>
const T* findNamed(const std::vector<T>& items, std::string_view name) {
  for (const T& item : items)
    if (item.name == name) return &item;
  return nullptr;
}

}  // namespace

KernelSignature Kernel::signature() const {
  if (!impl_) throw Error(ErrorCode::InvalidArgument, "wgk::Kernel is empty");
  return asWgkErrors([&] { return signatureOf(impl_->planner().package().manifest()); });
}

std::vector<const PortSignature*> KernelSignature::inputs() const {
  std::vector<const PortSignature*> out;
  for (const PortSignature& p : ports)
    if (p.direction != PortDirection::Output) out.push_back(&p);
  return out;
}

std::vector<const PortSignature*> KernelSignature::outputs() const {
  std::vector<const PortSignature*> out;
  for (const PortSignature& p : ports)
    if (p.direction != PortDirection::Input) out.push_back(&p);
  return out;
}

const PortSignature* KernelSignature::findPort(std::string_view name) const {
  return findNamed(ports, name);
}
const ArgSignature* KernelSignature::findArg(std::string_view name) const {
  return findNamed(args, name);
}
const AttributeSignature* KernelSignature::findAttribute(std::string_view name) const {
  return findNamed(attributes, name);
}

}  // namespace wgk

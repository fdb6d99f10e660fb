// The buffers and calls of a chain (chain_internal.h): a bench case fed back to itself, or the
// decode step of four ops.
#include <algorithm>
#include <set>

#include "harness/bench_case.h"
#include "harness/chain_internal.h"
#include "reference/random.h"
#include "runtime/attributes.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness::chain {
namespace {

// The same buffer seen with another shape (same element count): a free reshape between ops.
GpuTensor reshaped(const DeviceTensor& t, const Shape& shape) {
  GpuTensor g = t.view();
  g.shape = shape;
  return g;
}

Call makeCall(const Kernel& kernel, const std::map<std::string, GpuTensor>& inputs,
              const std::map<std::string, GpuTensor>& outputs, CallOptions options) {
  Call c{kernel, {}, std::move(options)};
  for (const auto& [name, t] : inputs) c.inputs.emplace(name, TensorRef(t));
  c.options.placement = OutputPlacement::Device;
  c.options.outputs = outputs;
  return c;
}

// An in/out port (spec 2.1: a name in inputs and outputs) is written in place: its input buffer
// is its output, so it feeds nothing and gets no buffer of its own.
bool inOut(const Kernel& kernel, const std::string& output) {
  const package::PortSpec* port = wgk::introspect::package(kernel).manifest().findPort(output);
  return port && port->isInput();
}

// output name -> input name it feeds: the first input (by name) of the same dtype and shape that
// no earlier output took.
std::map<std::string, std::string> feedback(const Kernel& kernel, const plan::Plan& p,
                                            const std::map<std::string, HostTensor>& host) {
  std::map<std::string, std::string> out;
  std::set<std::string> taken;
  for (const auto& o : p.outputs) {
    if (inOut(kernel, o.name)) continue;
    for (const auto& [name, t] : host)
      if (!taken.count(name) && t.dtype() == o.dtype && t.shape() == o.shape) {
        out[o.name] = name;
        taken.insert(name);
        break;
      }
  }
  return out;
}

}  // namespace

Builder caseBuilder(Kernel& kernel, const package::BenchCase& c, bool* fedBack) {
  const plan::Plan p = wgk::introspect::plan(kernel, benchCaseRequest(c), /*renderShaders=*/false);
  const std::map<std::string, HostTensor> host = package::materializeInputs(c);
  const std::map<std::string, std::string> feeds = feedback(kernel, p, host);
  if (fedBack) *fedBack = !feeds.empty();
  CallOptions options;
  options.attrs = runtime::fromValues(c.attrs);
  return [kernel, p, host, feeds, options](Runtime& rt) {
    State s;
    // Two sets of the fed inputs (ping, pong): call 0 reads set 0 and writes set 1, call 1 the
    // other way round. Inputs nothing feeds are shared; outputs that feed nothing are written by
    // both calls into one buffer.
    std::map<std::string, GpuTensor> in[2], out[2];
    std::set<std::string> fed;
    for (const auto& [o, i] : feeds) fed.insert(i);
    for (const auto& [name, t] : host) {
      s.buffers.push_back(rt.upload(t));
      in[0][name] = in[1][name] = s.buffers.back().view();
      if (fed.count(name)) {
        s.buffers.push_back(rt.allocate(t.dtype(), t.shape()));
        in[1][name] = s.buffers.back().view();
      }
    }
    for (const auto& o : p.outputs) {
      if (inOut(kernel, o.name)) continue;  // written in place, into the input's buffer
      if (auto f = feeds.find(o.name); f != feeds.end()) {
        out[0][o.name] = in[1][f->second];
        out[1][o.name] = in[0][f->second];
      } else {
        s.buffers.push_back(rt.allocate(o.dtype, o.shape));
        out[0][o.name] = out[1][o.name] = s.buffers.back().view();
      }
    }
    for (int k = 0; k < (feeds.empty() ? 1 : 2); ++k)
      s.cycle.push_back(makeCall(kernel, in[k], out[k], options));
    return s;
  };
}

Builder decodeStepBuilder(DecodeStepKernels& k, int64_t hidden) {
  if (hidden < 256 || hidden % 256 != 0)
    throw Error(ErrorCode::InvalidArgument,
                "the decode step's hidden size must be a positive multiple of 256 (heads of 256), not " +
                    std::to_string(hidden));
  return [k, hidden](Runtime& rt) {
    const DType f16 = DType::Float16;
    const Shape row{1, hidden}, vec{hidden}, heads{1, hidden / 256, 1, 256};
    State s;
    uint64_t seed = 1;
    auto random = [&](DType dt, const Shape& shape, double lo, double hi) {
      s.buffers.push_back(rt.upload(reference::randomTensor(dt, shape, seed++, lo, hi)));
      return s.buffers.back();
    };
    auto empty = [&](const Shape& shape) {
      s.buffers.push_back(rt.allocate(f16, shape));
      return s.buffers.back();
    };
    const DeviceTensor h = random(f16, row, -3, 3), bias = random(f16, vec, -1, 1);
    const DeviceTensor scale = random(f16, vec, -2, 2), resid = random(f16, row, -1, 1);
    const DeviceTensor emb = random(DType::Float32, {1, 1, 256}, 0, 1);
    const DeviceTensor qRot = random(f16, heads, -4, 4), key = random(f16, heads, -4, 4),
                       kRot = random(f16, heads, -4, 4);
    const DeviceTensor g = empty(row), r = empty(row), o1 = empty(heads), o2 = empty(heads);
    CallOptions rmsOptions;
    rmsOptions.attrs = {{"epsilon", 1e-6}};
    s.cycle.push_back(makeCall(k.fastGelu, {{"X", h.view()}, {"bias", bias.view()}}, {{"Y", g.view()}}, {}));
    s.cycle.push_back(
        makeCall(k.rmsNorm, {{"x", g.view()}, {"scale", scale.view()}}, {{"y", r.view()}}, rmsOptions));
    s.cycle.push_back(makeCall(k.rotary,
                               {{"embT", emb.view()},
                                {"qT", reshaped(r, heads)},
                                {"qRotT", qRot.view()},
                                {"kT", key.view()},
                                {"kRotT", kRot.view()}},
                               {{"output1T", o1.view()}, {"output2T", o2.view()}}, {}));
    s.cycle.push_back(
        makeCall(k.add, {{"a", reshaped(o1, row)}, {"b", resid.view()}}, {{"c", h.view()}}, {}));
    return s;
  };
}

std::vector<HostTensor> readBack(Runtime& rt, const State& s) {
  rt.waitIdle();
  std::vector<HostTensor> out;
  for (const auto& b : s.buffers) out.push_back(rt.download(b));
  return out;
}

}  // namespace wgk::harness::chain

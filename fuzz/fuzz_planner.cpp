// The planner (src/plan): random requests (dtypes, ranks, dimensions, attributes, scalar args,
// absent inputs, forced variants) against the embedded packages' manifests on the lavapipe and
// tiny-limits device profiles, shaders rendered. Every answer must be a plan or a wgk::Error.
#include <fuzzer/FuzzedDataProvider.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "fuzz_common.h"
#include "package/package.h"
#include "plan/plan.h"

using namespace wgk;

namespace {
struct World {
  std::vector<std::unique_ptr<plan::Planner>> planners;
  std::vector<DeviceProfile> profiles;
};

const World& world() {
  static World* w = [] {
    auto* out = new World;
    const std::filesystem::path root = std::filesystem::path(WGK_SOURCE_DIR) / "packages" / "webgpu-kernels";
    std::vector<std::filesystem::path> dirs;
    for (const auto& e : std::filesystem::directory_iterator(root)) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());  // stable mapping of input bytes to packages
    for (const auto& d : dirs)
      out->planners.push_back(std::make_unique<plan::Planner>(package::Package::open(d)));
    for (const char* p : {"lavapipe", "tiny-limits", "no-f16"})
      out->profiles.push_back(
          DeviceProfile::load(std::string(WGK_SOURCE_DIR) + "/tests/data/profiles/" + p + ".json"));
    return out;
  }();
  return *w;
}

expr::Value randomValue(FuzzedDataProvider& in, int depth = 0) {
  switch (in.ConsumeIntegralInRange<int>(0, depth < 2 ? 6 : 4)) {
    case 0:
      return in.ConsumeIntegralInRange<int64_t>(-4, 4);
    case 1:
      return in.ConsumeIntegral<int64_t>();
    case 2:
      return in.ConsumeFloatingPoint<double>();
    case 3:
      return in.ConsumeBool();
    case 4:
      return in.ConsumeRandomLengthString(16);
    case 5: {
      expr::List l;
      for (int i = in.ConsumeIntegralInRange<int>(0, 4); i > 0; --i) l.push_back(randomValue(in, depth + 1));
      return l;
    }
    default: {
      expr::Map m;
      for (int i = in.ConsumeIntegralInRange<int>(0, 3); i > 0; --i)
        m[in.ConsumeRandomLengthString(8)] = randomValue(in, depth + 1);
      return m;
    }
  }
}

int64_t randomDim(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return in.ConsumeIntegralInRange<int64_t>(0, 8);
    case 1:
      return in.ConsumeIntegralInRange<int64_t>(1, 4096);
    case 2:
      return int64_t{1} << in.ConsumeIntegralInRange<int>(0, 62);
    default:
      return in.ConsumeIntegral<int64_t>();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const World& w = world();
  FuzzedDataProvider in(data, size);
  const plan::Planner& planner = *w.planners[in.ConsumeIntegralInRange<size_t>(0, w.planners.size() - 1)];
  const DeviceProfile& device = w.profiles[in.ConsumeIntegralInRange<size_t>(0, w.profiles.size() - 1)];
  const package::Manifest& m = planner.package().manifest();
  static const DType kDtypes[] = {DType::Float32, DType::Float16, DType::Int32, DType::Int64, DType::Uint8};
  plan::PlanRequest r;
  for (const package::PortSpec* port : m.inputs()) {
    if (port->optional && in.ConsumeBool()) {
      r.absent.insert(port->name);
      continue;
    }
    plan::TensorDesc d;
    d.dtype = in.ConsumeBool() ? DType::Float32 : in.PickValueInArray(kDtypes);
    for (int i = in.ConsumeIntegralInRange<int>(0, 5); i > 0; --i) d.shape.push_back(randomDim(in));
    r.inputs[port->name] = d;
  }
  for (const auto& a : m.attributes)
    if (in.ConsumeBool()) r.attrs[a.name] = randomValue(in);
  for (const auto& a : m.args)
    if (in.ConsumeBool()) r.args[a.name] = randomValue(in);
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0 && !m.variants.empty())
    r.forcedVariant = m.variants[in.ConsumeIntegralInRange<size_t>(0, m.variants.size() - 1)].id;
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) r.attrs[in.ConsumeRandomLengthString(12)] = randomValue(in);
  fuzz::expectOnlyWgkErrors([&] {
    plan::Plan p = planner.plan(r, device);
    (void)p;
  });
  return 0;
}

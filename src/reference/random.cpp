#include "reference/random.h"

#include <cmath>

#include "wgk/error.h"

namespace wgk::reference {

std::vector<double> randomValues(size_t count, uint64_t seed, double min, double max) {
  if (!std::isfinite(min) || !std::isfinite(max) || min > max)
    throw Error(ErrorCode::InvalidArgument, "random data needs finite min <= max (got min " +
                                                std::to_string(min) + ", max " + std::to_string(max) + ")");
  std::vector<double> out(count);
  uint64_t state = seed;
  for (size_t i = 0; i < count; ++i) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const double u = static_cast<double>(z >> 11) * 0x1.0p-53;
    out[i] = min + (max - min) * u;
  }
  return out;
}

HostTensor randomTensor(DType dtype, const Shape& shape, uint64_t seed, double min, double max) {
  if (dtype != DType::Float32 && dtype != DType::Float16)
    throw Error(ErrorCode::Unsupported, "random data is defined for float32 and float16 tensors, not " +
                                            std::string(dtypeName(dtype)));
  HostTensor probe(dtype, shape);  // validates the shape before allocating the values
  return HostTensor::fromDoubles(dtype, shape,
                                 randomValues(static_cast<size_t>(probe.numel()), seed, min, max));
}

}  // namespace wgk::reference

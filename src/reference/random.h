// The deterministic data generator of test.json / bench.json: {"kind": "random", "seed": S,
// "min": a, "max": b}. splitmix64 with state S; element i takes the i-th output z, u = (z >> 11) * 2^-53,
// value = a + (b - a) * u in double, stored in the tensor's dtype (float16: nearest even, one rounding).
//
//   wgk::HostTensor x = wgk::reference::randomTensor(wgk::DType::Float16, {2, 8}, 42, -1.0, 1.0);
#pragma once

#include <cstdint>
#include <vector>

#include "wgk/tensor.h"

namespace wgk::reference {

// The doubles before rounding to a dtype. Error(InvalidArgument) unless min <= max, both finite.
std::vector<double> randomValues(size_t count, uint64_t seed, double min, double max);
// float32 and float16 only (Error(Unsupported) otherwise: the rule does not say how to make integers).
HostTensor randomTensor(DType dtype, const Shape& shape, uint64_t seed, double min, double max);

}  // namespace wgk::reference

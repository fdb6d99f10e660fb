// numpy's multidirectional broadcasting for the element-wise references (add.cpp, mul.cpp):
// internal to src/reference.
//
//   const Shape c = detail::broadcastShapes("Mul", a.shape(), b.shape());
//   detail::walkBroadcast(c, broadcastStrides(a.shape(), c), broadcastStrides(b.shape(), c),
//                         [&](int64_t i, int64_t oa, int64_t ob) { out[i] = xa[oa] * xb[ob]; });
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "wgk/tensor.h"

namespace wgk::reference::detail {

// Shapes aligned at the right, each dimension pair equal or one of them 1 (a 1 against a 0 gives
// 0). Error(Contract) "<op>: shapes [..] and [..] are not broadcast-compatible (...)" otherwise.
Shape broadcastShapes(std::string_view op, const Shape& a, const Shape& b);

// Element strides of `s` seen through the output shape `c`: 0 along broadcast dimensions.
std::vector<int64_t> broadcastStrides(const Shape& s, const Shape& c);

// Calls f(i, oa, ob) for every element i of `c` in C order, with the element offsets of the two
// operands (strides from broadcastStrides): an odometer over the multi-index, no division.
template <class F>
void walkBroadcast(const Shape& c, const std::vector<int64_t>& sa, const std::vector<int64_t>& sb, F&& f) {
  const int64_t n = numel(c);
  std::vector<int64_t> idx(c.size(), 0);
  int64_t oa = 0, ob = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(i, oa, ob);
    for (size_t d = c.size(); d-- > 0;) {
      oa += sa[d], ob += sb[d];
      if (++idx[d] < c[d]) break;
      oa -= sa[d] * c[d], ob -= sb[d] * c[d];
      idx[d] = 0;
    }
  }
}

}  // namespace wgk::reference::detail

#include "reference/broadcast.h"

#include <algorithm>
#include <string>

#include "reference/checks.h"

namespace wgk::reference::detail {

Shape broadcastShapes(std::string_view op, const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape c(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      contractError(op, "shapes " + shapeText(a) + " and " + shapeText(b) +
                            " are not broadcast-compatible (output dimension " + std::to_string(i) + ": " +
                            std::to_string(da) + " vs " + std::to_string(db) + ")");
    c[i] = da == 1 ? db : da;
  }
  return c;
}

std::vector<int64_t> broadcastStrides(const Shape& s, const Shape& c) {
  std::vector<int64_t> st(c.size(), 0);
  int64_t stride = 1;
  for (size_t k = 0; k < s.size(); ++k) {
    const size_t i = s.size() - 1 - k, o = c.size() - 1 - k;
    if (s[i] != 1) st[o] = stride;
    stride *= s[i];
  }
  return st;
}

}  // namespace wgk::reference::detail

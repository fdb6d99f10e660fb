// wgk/attribute.h — the value of an op attribute or a scalar arg, as calls pass it and
// signatures declare its default.
//
//   wgk::Attribute eps = 1e-6;                          // double
//   wgk::Attribute perm = std::vector<int64_t>{1, 0};   // a list of ints
//   if (auto* d = std::get_if<double>(&eps)) ...;
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace wgk {

// An attribute value: int, float, bool, string or a list of ints/floats.
using Attribute = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>, std::vector<double>>;

}  // namespace wgk

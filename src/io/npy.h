// NumPy .npy files <-> HostTensor.
//
// Reads format versions 1.0, 2.0 and 3.0; writes 1.0, or 2.0 when the header does not fit 1.0.
// Little-endian, C order only. dtypes: '<f4' float32, '<f2' float16, '<i4' int32, '<u4' uint32,
// '|i1' int8, '|u1' uint8, '<i2' int16, '<i8' int64, '|b1' bool. Everything else (big-endian,
// Fortran order, float64, structured dtypes, truncated or trailing bytes) is Error(Io) naming it.
//
//   wgk::HostTensor x = wgk::readNpy("x.npy");
//   wgk::writeNpy("y.npy", y);   // atomic: temp file + rename
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "wgk/tensor.h"

namespace wgk {

HostTensor parseNpy(std::span<const std::byte> bytes);
std::vector<std::byte> encodeNpy(const HostTensor& tensor);

HostTensor readNpy(const std::string& path);  // errors carry "while reading <path>"
void writeNpy(const std::string& path, const HostTensor& tensor);

}  // namespace wgk

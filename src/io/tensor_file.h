// One tensor from a file named on a command line, whatever its format, and float64 data cast on
// request (wgk kernels take float32 and float16; NumPy's default is float64).
//
//   FILE.npy                   the array
//   FILE.safetensors:TENSOR    the tensor named TENSOR
//   FILE.safetensors           the tensor named `fallbackName`, else the file's only tensor
//
//   HostTensor x = wgk::readTensorFile("x.safetensors:hidden", "X", DType::Float32);
#pragma once

#include <optional>
#include <span>
#include <string>

#include "wgk/tensor.h"

namespace wgk {

// `float64As`: the dtype float64 data becomes (float32 or float16); without it float64 is refused
// with a message naming --cast. Errors are Error(Io) (file, format) or Error(InvalidArgument).
HostTensor readTensorFile(const std::string& spec, const std::string& fallbackName,
                          std::optional<DType> float64As = std::nullopt);

// A .npy file's bytes whose dtype is '<f8', read with every check parseNpy makes (float64 data).
// Returns nullopt when the file is not float64 (read it with parseNpy).
std::optional<HostTensor> parseNpyFloat64(std::span<const std::byte> bytes, DType as);

}  // namespace wgk

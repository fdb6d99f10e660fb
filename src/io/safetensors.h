// safetensors files <-> named HostTensors.
//
// Layout: 8-byte little-endian header length N, N bytes of JSON header
// {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ..., "__metadata__": {...}},
// then the data buffer; offsets are relative to the buffer. dtypes: F32, F16, I32, U32, I8, U8, I16,
// I64, BOOL; BF16, F64 and the rest are refused by name. Reading validates everything a crafted
// file could get wrong: header size (cap 100 MB), JSON, unique names, offsets in bounds, matching
// the shape, non-overlapping and covering the buffer exactly. Errors are Error(Io).
//
//   auto tensors = wgk::readSafetensors("inputs.safetensors");   // std::map<name, HostTensor>
//   wgk::writeSafetensors("out.safetensors", tensors, {{"producer", "wgk"}});
#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "wgk/tensor.h"

namespace wgk {

constexpr size_t kSafetensorsMaxHeaderBytes = 100u * 1000u * 1000u;

struct SafetensorsFile {
  std::map<std::string, HostTensor> tensors;
  std::map<std::string, std::string> metadata;  // the optional "__metadata__" (string values only)
};

SafetensorsFile parseSafetensors(std::span<const std::byte> bytes);
// Tensors are laid out in name order; the header is padded with spaces to a multiple of 8 bytes.
std::vector<std::byte> encodeSafetensors(const std::map<std::string, HostTensor>& tensors,
                                         const std::map<std::string, std::string>& metadata = {});

std::map<std::string, HostTensor> readSafetensors(const std::string& path);
SafetensorsFile readSafetensorsFile(const std::string& path);  // with metadata
void writeSafetensors(const std::string& path, const std::map<std::string, HostTensor>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

}  // namespace wgk

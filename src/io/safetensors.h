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
#include <optional>
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

// One tensor a header describes, for readers that fetch the data themselves (a model's weights:
// gigabytes, read tensor by tensor). BF16 and F64 are described (wgkDtype empty) but
// parseSafetensors refuses them.
struct SafetensorsEntry {
  std::string name;
  std::string dtype;               // as stored: "F16", "BF16", "F32", ...
  std::optional<DType> wgkDtype;   // nullopt for BF16 and F64
  Shape shape;
  uint64_t begin = 0, end = 0;     // byte range in the data buffer (add dataStart for the file)
};
struct SafetensorsHeader {
  std::vector<SafetensorsEntry> entries;  // sorted by begin
  std::map<std::string, std::string> metadata;
  uint64_t dataStart = 0;                 // file offset of the data buffer
};
// The checks parseSafetensors makes, on the header alone: `bytes` holds at least the length and
// the header, `fileSize` is the whole file's size (the tensors must tile the rest exactly).
SafetensorsHeader parseSafetensorsHeader(std::span<const std::byte> bytes, uint64_t fileSize);
SafetensorsHeader readSafetensorsHeader(const std::string& path);  // reads only the header
// Tensors are laid out in name order; the header is padded with spaces to a multiple of 8 bytes.
std::vector<std::byte> encodeSafetensors(const std::map<std::string, HostTensor>& tensors,
                                         const std::map<std::string, std::string>& metadata = {});

std::map<std::string, HostTensor> readSafetensors(const std::string& path);
SafetensorsFile readSafetensorsFile(const std::string& path);  // with metadata
void writeSafetensors(const std::string& path, const std::map<std::string, HostTensor>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

}  // namespace wgk

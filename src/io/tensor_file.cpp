#include "io/tensor_file.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/json_read.h"

#include "core/half.h"
#include "io/file.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "wgk/error.h"

namespace wgk {
namespace {

// 8-byte words (the bits of doubles, held in an int64 tensor) -> float32 or float16.
HostTensor castDoubles(const HostTensor& words, DType as) {
  if (as != DType::Float32 && as != DType::Float16)
    throw Error(ErrorCode::InvalidArgument,
                "--cast " + std::string(dtypeName(as)) + ": float64 data can be cast to float32 or float16");
  const size_t n = static_cast<size_t>(words.numel());
  std::vector<std::byte> out(n * dtypeBytes(as));
  const std::byte* src = words.bytes().data();
  for (size_t i = 0; i < n; ++i) {
    double d;
    std::memcpy(&d, src + 8 * i, 8);
    if (as == DType::Float32) {
      const float f = static_cast<float>(d);
      std::memcpy(out.data() + 4 * i, &f, 4);
    } else {
      const uint16_t h = floatToHalf(static_cast<float>(d));
      std::memcpy(out.data() + 2 * i, &h, 2);
    }
  }
  return HostTensor(as, words.shape(), std::move(out));
}

[[noreturn]] void needsCast(const std::string& spec) {
  throw Error(ErrorCode::InvalidArgument,
              "'" + spec +
                  "' holds float64 data; wgk kernels take float32 or float16: "
                  "pass --cast float32 (or convert it, e.g. arr.astype('float32'))");
}

// The safetensors header with F64 tensors relabelled I64 (same 8-byte elements), so that the
// reader checks the file as usual; returns the rewritten bytes and the F64 names.
std::vector<std::byte> relabelF64(std::span<const std::byte> bytes, std::vector<std::string>& f64) {
  if (bytes.size() < 8) return {bytes.begin(), bytes.end()};
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  if (n > kSafetensorsMaxHeaderBytes || n > bytes.size() - 8) return {bytes.begin(), bytes.end()};
  // Not JSON, too deep or with duplicate keys: left for the reader, which refuses it in its words.
  nlohmann::json header;
  try {
    header = parseJsonOrDiscarded(std::string_view(reinterpret_cast<const char*>(bytes.data()) + 8, n), "header");
  } catch (const Error&) {
    return {bytes.begin(), bytes.end()};
  }
  if (!header.is_object()) return {bytes.begin(), bytes.end()};
  for (auto it = header.begin(); it != header.end(); ++it)
    if (it->is_object() && it->value("dtype", "") == "F64") {
      (*it)["dtype"] = "I64";
      f64.push_back(it.key());
    }
  if (f64.empty()) return {bytes.begin(), bytes.end()};
  std::string text = header.dump();
  while (text.size() % 8) text += ' ';
  std::vector<std::byte> out(8 + text.size());
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::byte>((text.size() >> (8 * i)) & 0xff);
  std::memcpy(out.data() + 8, text.data(), text.size());
  out.insert(out.end(), bytes.begin() + static_cast<ptrdiff_t>(8 + n), bytes.end());
  return out;
}

HostTensor fromSafetensors(const std::string& path, std::string tensor, const std::string& spec,
                           const std::string& fallbackName, std::optional<DType> float64As) {
  std::vector<std::string> f64;
  const std::vector<std::byte> bytes = relabelF64(readFileBytes(path), f64);
  SafetensorsFile file = withContext("while reading " + path, [&] { return parseSafetensors(bytes); });
  if (tensor.empty()) {
    if (file.tensors.count(fallbackName))
      tensor = fallbackName;
    else if (file.tensors.size() == 1)
      tensor = file.tensors.begin()->first;
    else
      throw Error(ErrorCode::InvalidArgument, "'" + path + "' holds " + std::to_string(file.tensors.size()) +
                                                  " tensors and none is named '" + fallbackName +
                                                  "': name one as " + path + ":TENSOR");
  }
  auto it = file.tensors.find(tensor);
  if (it == file.tensors.end()) {
    std::string names;
    for (const auto& [k, v] : file.tensors) names += (names.empty() ? "" : ", ") + k;
    throw Error(ErrorCode::NotFound, "'" + path + "' has no tensor '" + tensor + "' (it has: " + names + ")");
  }
  if (std::find(f64.begin(), f64.end(), tensor) != f64.end()) {
    if (!float64As) needsCast(spec);
    return castDoubles(it->second, *float64As);
  }
  return std::move(it->second);
}

}  // namespace

std::optional<HostTensor> parseNpyFloat64(std::span<const std::byte> bytes, DType as) {
  // The header is ASCII text right after the magic and lengths; '<f8' becomes '<i8' (same size)
  // so parseNpy checks shape, order and length as for any file.
  const size_t scan = std::min<size_t>(bytes.size(), 4096 + 12);
  std::string head(reinterpret_cast<const char*>(bytes.data()), scan);
  const size_t at = head.find("'<f8'");
  if (at == std::string::npos || head.find("descr") == std::string::npos) return std::nullopt;
  std::vector<std::byte> copy(bytes.begin(), bytes.end());
  copy[at + 2] = static_cast<std::byte>('i');
  return castDoubles(parseNpy(copy), as);
}

HostTensor readTensorFile(const std::string& spec, const std::string& fallbackName,
                          std::optional<DType> float64As) {
  // FILE.safetensors[:TENSOR]: the last ':' after ".safetensors" separates the tensor name.
  const size_t st = spec.find(".safetensors");
  if (st != std::string::npos) {
    const size_t end = st + std::string(".safetensors").size();
    const std::string path = spec.substr(0, end);
    std::string tensor;
    if (end < spec.size()) {
      if (spec[end] != ':')
        throw Error(ErrorCode::InvalidArgument, "'" + spec + "': write FILE.safetensors:TENSOR");
      tensor = spec.substr(end + 1);
    }
    return fromSafetensors(path, tensor, spec, fallbackName, float64As);
  }
  const std::vector<std::byte> bytes = readFileBytes(spec);
  return withContext("while reading " + spec, [&] {
    if (auto f = parseNpyFloat64(bytes, float64As.value_or(DType::Float32))) {
      if (!float64As) needsCast(spec);
      return std::move(*f);
    }
    return parseNpy(bytes);
  });
}

}  // namespace wgk

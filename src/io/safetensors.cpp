#include "io/safetensors.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "core/json_read.h"
#include "io/file.h"
#include "wgk/error.h"

static_assert(std::endian::native == std::endian::little, "wgk tensor files assume a little-endian host");

namespace wgk {
namespace {
[[noreturn]] void badSafetensors(const std::string& what) {
  throw Error(ErrorCode::Io, "invalid safetensors file: " + what);
}

struct StDType {
  std::string_view name;
  DType dtype;
};
constexpr StDType kDTypes[] = {
    {"F32", DType::Float32}, {"F16", DType::Float16}, {"I32", DType::Int32},
    {"U32", DType::Uint32},  {"I8", DType::Int8},     {"U8", DType::Uint8},
    {"I16", DType::Int16},   {"I64", DType::Int64},   {"BOOL", DType::Bool},
};
// Stored types wgk has no DType for, which a header may still describe (the caller converts them:
// a model loader widens or narrows bfloat16 weights itself).
struct RawDType {
  std::string_view name;
  uint64_t bytes;
};
constexpr RawDType kRawDTypes[] = {{"BF16", 2}, {"F64", 8}};

std::string safetensorsDTypeList() {
  std::string s;
  for (const auto& d : kDTypes) s += (s.empty() ? "" : ", ") + std::string(d.name);
  return s;
}

DType dtypeFromName(const std::string& tensor, const std::string& name) {
  for (const auto& d : kDTypes)
    if (d.name == name) return d.dtype;
  badSafetensors("tensor '" + tensor + "' has unsupported dtype '" + name +
                 "' (supported: " + safetensorsDTypeList() + ")");
}

// Element bytes and the DType (nullopt for a raw-only type) of a stored dtype name.
std::pair<uint64_t, std::optional<DType>> storedType(const std::string& tensor, const std::string& name) {
  for (const auto& d : kRawDTypes)
    if (d.name == name) return {d.bytes, std::nullopt};
  const DType t = dtypeFromName(tensor, name);
  return {dtypeBytes(t), t};
}

std::string_view nameOf(DType t) {
  for (const auto& d : kDTypes)
    if (d.dtype == t) return d.name;
  throw Error(ErrorCode::Internal, "no safetensors name for dtype " + std::string(dtypeName(t)));
}

// The shared parser refuses duplicate keys (nlohmann would silently keep the last) and deep nesting.
nlohmann::json parseUniqueKeys(std::string_view text) {
  try {
    return parseJson(text, "header");
  } catch (const Error& e) {
    badSafetensors(e.message());
  }
}

uint64_t offsetValue(const nlohmann::json& v, const std::string& tensor) {
  if (!v.is_number_unsigned())
    badSafetensors("tensor '" + tensor + "': data_offsets must be non-negative integers");
  return v.get<uint64_t>();
}

using Entry = SafetensorsEntry;

Entry parseEntry(const std::string& name, const nlohmann::json& info) {
  if (!info.is_object())
    badSafetensors("tensor '" + name + "': expected an object with dtype, shape, data_offsets");
  for (const auto& [k, v] : info.items())
    if (k != "dtype" && k != "shape" && k != "data_offsets")
      badSafetensors("tensor '" + name + "': unexpected field '" + k + "'");
  for (const char* k : {"dtype", "shape", "data_offsets"})
    if (!info.contains(k)) badSafetensors("tensor '" + name + "': missing field '" + k + "'");
  if (!info["dtype"].is_string()) badSafetensors("tensor '" + name + "': dtype must be a string");
  Entry e;
  e.name = name;
  e.dtype = info["dtype"].get<std::string>();
  const auto [elementBytes, wgkDtype] = storedType(name, e.dtype);
  e.wgkDtype = wgkDtype;
  const auto& shape = info["shape"];
  if (!shape.is_array()) badSafetensors("tensor '" + name + "': shape must be an array");
  uint64_t bytes = elementBytes;
  bool empty = false;
  for (const auto& d : shape) {
    if (!d.is_number_unsigned())
      badSafetensors("tensor '" + name + "': shape entries must be non-negative integers");
    const uint64_t v = d.get<uint64_t>();
    if (v > (uint64_t{1} << 56))
      badSafetensors("tensor '" + name + "': dimension " + std::to_string(v) + " is too large");
    if (v == 0)
      empty = true;
    else if (bytes > (uint64_t{1} << 62) / v)
      badSafetensors("tensor '" + name + "': shape is too large");
    else
      bytes *= v;
    e.shape.push_back(static_cast<int64_t>(v));
  }
  if (empty) bytes = 0;
  const auto& off = info["data_offsets"];
  if (!off.is_array() || off.size() != 2)
    badSafetensors("tensor '" + name + "': data_offsets must be [begin, end]");
  e.begin = offsetValue(off[0], name);
  e.end = offsetValue(off[1], name);
  if (e.end < e.begin)
    badSafetensors("tensor '" + name + "': data_offsets end " + std::to_string(e.end) + " is before begin " +
                   std::to_string(e.begin));
  if (e.end - e.begin != bytes)
    badSafetensors("tensor '" + name + "': data_offsets span " + std::to_string(e.end - e.begin) +
                   " bytes but " + e.dtype + " shape needs " + std::to_string(bytes));
  return e;
}

uint64_t headerLength(std::span<const std::byte> bytes, uint64_t fileSize) {
  if (fileSize < 8 || bytes.size() < 8) badSafetensors("shorter than the 8-byte header length");
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  if (n > kSafetensorsMaxHeaderBytes)
    badSafetensors("header length " + std::to_string(n) + " exceeds the cap of " +
                   std::to_string(kSafetensorsMaxHeaderBytes));
  if (n > fileSize - 8)
    badSafetensors("truncated header (length " + std::to_string(n) + ", file has " +
                   std::to_string(fileSize - 8) + " bytes after the length)");
  return n;
}
}  // namespace

SafetensorsHeader parseSafetensorsHeader(std::span<const std::byte> bytes, uint64_t fileSize) {
  const uint64_t n = headerLength(bytes, fileSize);
  if (n > bytes.size() - 8)
    badSafetensors("the header is cut short (" + std::to_string(bytes.size()) + " bytes given)");
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + 8, n);
  if (text.empty() || text.front() != '{') badSafetensors("header does not start with '{'");
  const nlohmann::json header = parseUniqueKeys(text);
  if (!header.is_object()) badSafetensors("header is not a JSON object");

  SafetensorsHeader file;
  file.dataStart = 8 + n;
  std::vector<Entry>& entries = file.entries;
  for (const auto& [key, value] : header.items()) {
    if (key == "__metadata__") {
      if (!value.is_object()) badSafetensors("__metadata__ must be an object of strings");
      for (const auto& [mk, mv] : value.items()) {
        if (!mv.is_string()) badSafetensors("__metadata__ value '" + mk + "' is not a string");
        file.metadata[mk] = mv.get<std::string>();
      }
      continue;
    }
    entries.push_back(parseEntry(key, value));
  }

  // The tensors must tile the buffer: sorted by begin, each starts where the previous ended.
  const uint64_t bufferSize = fileSize - 8 - n;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t cursor = 0;
  for (const Entry& e : entries) {
    if (e.end > bufferSize)
      badSafetensors("tensor '" + e.name + "': data_offsets [" + std::to_string(e.begin) + ", " +
                     std::to_string(e.end) + "] run past the end of the " + std::to_string(bufferSize) +
                     "-byte data buffer");
    if (e.begin < cursor)
      badSafetensors("tensor '" + e.name + "' overlaps the tensor before it in the data buffer");
    if (e.begin > cursor)
      badSafetensors("bytes [" + std::to_string(cursor) + ", " + std::to_string(e.begin) +
                     ") of the data buffer belong to no tensor");
    cursor = e.end;
  }
  if (cursor != bufferSize)
    badSafetensors(std::to_string(bufferSize - cursor) +
                   " trailing bytes in the data buffer belong to no tensor");
  return file;
}

SafetensorsHeader readSafetensorsHeader(const std::string& path) {
  return withContext("while reading " + path, [&] {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw Error(ErrorCode::Io, "cannot open " + path + ": " + std::strerror(errno));
    const uint64_t fileSize = static_cast<uint64_t>(in.tellg());
    std::vector<std::byte> head(std::min<uint64_t>(fileSize, 8));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
    const uint64_t n = headerLength(head, fileSize);
    head.resize(8 + n);
    in.read(reinterpret_cast<char*>(head.data()) + 8, static_cast<std::streamsize>(n));
    if (!in) throw Error(ErrorCode::Io, "cannot read the header of " + path);
    return parseSafetensorsHeader(head, fileSize);
  });
}

SafetensorsFile parseSafetensors(std::span<const std::byte> bytes) {
  SafetensorsHeader header = parseSafetensorsHeader(bytes, bytes.size());
  SafetensorsFile file;
  file.metadata = std::move(header.metadata);
  const std::byte* data = bytes.data() + header.dataStart;
  for (Entry& e : header.entries) {
    if (!e.wgkDtype)
      badSafetensors("tensor '" + e.name + "' has unsupported dtype '" + e.dtype +
                     "' (supported: " + safetensorsDTypeList() + ")");
    std::vector<std::byte> b(data + e.begin, data + e.end);
    if (*e.wgkDtype == DType::Bool)
      for (size_t i = 0; i < b.size(); ++i)
        if (static_cast<uint8_t>(b[i]) > 1)
          badSafetensors("tensor '" + e.name + "': BOOL element " + std::to_string(i) +
                         " is neither 0 nor 1");
    file.tensors.emplace(e.name, HostTensor(*e.wgkDtype, std::move(e.shape), std::move(b)));
  }
  return file;
}

std::vector<std::byte> encodeSafetensors(const std::map<std::string, HostTensor>& tensors,
                                         const std::map<std::string, std::string>& metadata) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  uint64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    if (name == "__metadata__")
      throw Error(ErrorCode::InvalidArgument, "a tensor cannot be named __metadata__");
    header[name] = {{"dtype", nameOf(t.dtype())},
                    {"shape", t.shape()},
                    {"data_offsets", {offset, offset + t.byteSize()}}};
    offset += t.byteSize();
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // keeps the data buffer 8-byte aligned
  std::vector<std::byte> out;
  out.reserve(8 + text.size() + offset);
  const uint64_t n = text.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::byte>((n >> (8 * i)) & 0xff));
  const auto* h = reinterpret_cast<const std::byte*>(text.data());
  out.insert(out.end(), h, h + text.size());
  for (const auto& [name, t] : tensors) out.insert(out.end(), t.bytes().begin(), t.bytes().end());
  return out;
}

SafetensorsFile readSafetensorsFile(const std::string& path) {
  return withContext("while reading " + path, [&] { return parseSafetensors(readFileBytes(path)); });
}

std::map<std::string, HostTensor> readSafetensors(const std::string& path) {
  return readSafetensorsFile(path).tensors;
}

void writeSafetensors(const std::string& path, const std::map<std::string, HostTensor>& tensors,
                      const std::map<std::string, std::string>& metadata) {
  withContext("while writing " + path, [&] { writeFileAtomic(path, encodeSafetensors(tensors, metadata)); });
}

}  // namespace wgk

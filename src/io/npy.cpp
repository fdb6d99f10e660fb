#include "io/npy.h"

#include <bit>
#include <cstring>
#include <optional>
#include <string_view>

#include "core/shape_text.h"
#include "io/file.h"
#include "wgk/error.h"

static_assert(std::endian::native == std::endian::little, "wgk tensor files assume a little-endian host");

namespace wgk {
namespace {
constexpr char kMagic[] = "\x93NUMPY";  // 6 bytes, then major and minor version bytes
constexpr size_t kMagicLen = 6;

[[noreturn]] void bad(const std::string& what) {
  throw Error(ErrorCode::Io, "invalid .npy file: " + what);
}

struct NpyDType {
  std::string_view descr;  // what we write
  DType dtype;
};
// What we write for each dtype. On read, 1-byte types also accept '<' and '>' (byte order is moot).
constexpr NpyDType kDescrs[] = {
    {"<f4", DType::Float32}, {"<f2", DType::Float16}, {"<i4", DType::Int32},
    {"<u4", DType::Uint32},  {"|i1", DType::Int8},    {"|u1", DType::Uint8},
    {"<i2", DType::Int16},   {"<i8", DType::Int64},   {"|b1", DType::Bool},
};

std::string supportedList() {
  std::string s;
  for (const auto& d : kDescrs) s += (s.empty() ? "" : ", ") + std::string(d.descr);
  return s;
}

DType dtypeFromDescr(const std::string& descr) {
  for (const auto& d : kDescrs) {
    if (descr == d.descr) return d.dtype;
    // '|i1' may also be spelled '<i1' or '>i1'.
    if (dtypeBytes(d.dtype) == 1 && descr.size() == 3 && (descr[0] == '<' || descr[0] == '>') &&
        descr.substr(1) == d.descr.substr(1))
      return d.dtype;
  }
  if (!descr.empty() && descr[0] == '>')
    bad("big-endian dtype '" + descr + "' is not supported (re-save it little-endian, e.g. arr.astype('<" +
        descr.substr(1) + "'))");
  std::string hint;
  if (descr == "<f8")
    hint = " (float64)";
  else if (descr == "<u2")
    hint = " (uint16)";
  else if (descr == "<u8")
    hint = " (uint64)";
  else if (descr == "<c8" || descr == "<c16")
    hint = " (complex)";
  bad("unsupported dtype '" + descr + "'" + hint + "; supported: " + supportedList());
}

// A tiny reader for the Python dict literal of a .npy header:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : s_(text) {}

  void parse(std::optional<std::string>& descr, std::optional<bool>& fortran, std::optional<Shape>& shape) {
    skipSpace();
    expect('{');
    for (;;) {
      skipSpace();
      if (peek() == '}') break;
      const std::string key = parseString();
      skipSpace();
      expect(':');
      skipSpace();
      if (key == "descr") {
        if (peek() == '[') bad("structured dtypes are not supported (descr is a list)");
        set(descr, parseString(), key);
      } else if (key == "fortran_order") {
        set(fortran, parseBool(), key);
      } else if (key == "shape") {
        set(shape, parseShape(), key);
      } else {
        bad("unexpected header key '" + key + "' (expected descr, fortran_order, shape)");
      }
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}') bad("expected ',' or '}' in the header at offset " + std::to_string(pos_));
    }
    ++pos_;
    // NumPy pads with spaces and ends the header with '\n'.
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r'))
      ++pos_;
    if (pos_ != s_.size()) bad("unexpected text after the header dictionary");
  }

 private:
  template <class T>
  static void set(std::optional<T>& slot, T value, const std::string& key) {
    if (slot) bad("header key '" + key + "' appears twice");
    slot = std::move(value);
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  void expect(char c) {
    if (peek() != c)
      bad(std::string("expected '") + c + "' in the header at offset " + std::to_string(pos_) + ", found " +
          (pos_ < s_.size() ? "'" + std::string(1, s_[pos_]) + "'" : "the end"));
    ++pos_;
  }
  std::string parseString() {
    const char q = peek();
    if (q != '\'' && q != '"')
      bad("expected a quoted string in the header at offset " + std::to_string(pos_));
    ++pos_;
    const size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != q) {
      if (s_[pos_] == '\\') bad("escape sequences are not supported in the header");
      ++pos_;
    }
    if (pos_ >= s_.size()) bad("unterminated string in the header");
    return std::string(s_.substr(start, pos_++ - start));
  }
  bool parseBool() {
    if (s_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (s_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    bad("fortran_order must be True or False");
  }
  int64_t parseInt() {
    const size_t start = pos_;
    int64_t v = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      if (v > (int64_t{1} << 56)) bad("shape dimension is too large");
      v = v * 10 + (s_[pos_++] - '0');
    }
    if (pos_ == start) bad("expected a non-negative integer in the shape at offset " + std::to_string(start));
    if (peek() == 'L') ++pos_;  // Python 2 long suffix
    return v;
  }
  Shape parseShape() {
    expect('(');
    Shape shape;
    for (;;) {
      skipSpace();
      if (peek() == ')') break;
      shape.push_back(parseInt());
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != ')') bad("expected ',' or ')' in the shape at offset " + std::to_string(pos_));
    }
    ++pos_;
    return shape;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

uint32_t readLE(std::span<const std::byte> b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint32_t>(b[at + i]) << (8 * i);
  return v;
}

// The header's Python tuple: "(2, 3)", "(5,)", "()".
std::string shapeTuple(const Shape& shape) {
  return "(" + joinDims(shape) + (shape.size() == 1 ? "," : "") + ")";
}

std::string_view descrOf(DType t) {
  for (const auto& d : kDescrs)
    if (d.dtype == t) return d.descr;
  throw Error(ErrorCode::Internal, "no .npy descr for dtype " + std::string(dtypeName(t)));
}
}  // namespace

HostTensor parseNpy(std::span<const std::byte> bytes) {
  if (bytes.size() < kMagicLen || std::memcmp(bytes.data(), kMagic, kMagicLen) != 0)
    bad("wrong magic (not a NumPy .npy file)");
  if (bytes.size() < kMagicLen + 2) bad("truncated before the version bytes");
  const int major = static_cast<int>(bytes[6]);
  const int minor = static_cast<int>(bytes[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    bad("unsupported format version " + std::to_string(major) + "." + std::to_string(minor) +
        " (supported: 1.0, 2.0, 3.0)");
  const size_t lenBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lenBytes) bad("truncated before the header length");
  const size_t headerLen = readLE(bytes, 8, lenBytes);
  const size_t dataStart = 8 + lenBytes + headerLen;
  if (bytes.size() < dataStart)
    bad("truncated header (header length " + std::to_string(headerLen) + ", file has " +
        std::to_string(bytes.size() - 8 - lenBytes) + " bytes after it)");
  const std::string_view header(reinterpret_cast<const char*>(bytes.data()) + 8 + lenBytes, headerLen);
  if (major < 3)
    for (char c : header)
      if (static_cast<unsigned char>(c) >= 0x80) bad("non-ASCII byte in a version 1.0/2.0 header");

  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<Shape> shape;
  HeaderParser(header).parse(descr, fortran, shape);
  if (!descr) bad("header has no 'descr'");
  if (!fortran) bad("header has no 'fortran_order'");
  if (!shape) bad("header has no 'shape'");
  const DType dtype = dtypeFromDescr(*descr);
  // Fortran order is the same bytes as C order when at most one dimension exceeds 1.
  int bigDims = 0;
  for (int64_t d : *shape) bigDims += d > 1;
  if (*fortran && bigDims > 1) bad("Fortran-order arrays are not supported (save with np.ascontiguousarray)");

  // Overflow-checked expected data size.
  uint64_t want = dtypeBytes(dtype);
  bool empty = false;
  for (int64_t d : *shape) {
    if (d == 0)
      empty = true;
    else if (want > (uint64_t{1} << 62) / static_cast<uint64_t>(d))
      bad("shape " + shapeTuple(*shape) + " is too large");
    else
      want *= static_cast<uint64_t>(d);
  }
  if (empty) want = 0;
  const uint64_t have = bytes.size() - dataStart;
  if (have < want)
    bad("truncated data: shape " + shapeTuple(*shape) + " of " + std::string(dtypeName(dtype)) + " needs " +
        std::to_string(want) + " bytes, file has " + std::to_string(have));
  if (have > want)
    bad(std::to_string(have - want) + " trailing bytes after the data of shape " + shapeTuple(*shape) + " (" +
        std::string(dtypeName(dtype)) + ", " + std::to_string(want) + " bytes)");
  std::vector<std::byte> data(bytes.begin() + static_cast<ptrdiff_t>(dataStart), bytes.end());
  if (dtype == DType::Bool)
    for (size_t i = 0; i < data.size(); ++i)
      if (static_cast<uint8_t>(data[i]) > 1)
        bad("bool element " + std::to_string(i) + " has byte value " +
            std::to_string(static_cast<int>(data[i])));
  return HostTensor(dtype, *shape, std::move(data));
}

std::vector<std::byte> encodeNpy(const HostTensor& tensor) {
  std::string dict = "{'descr': '" + std::string(descrOf(tensor.dtype())) +
                     "', 'fortran_order': False, 'shape': " + shapeTuple(tensor.shape()) + ", }";
  // magic(6) + version(2) + length(2 or 4) + dict + padding + '\n' is a multiple of 64 (NumPy >= 1.18).
  auto padded = [&](size_t prefix) {
    const size_t total = prefix + dict.size() + 1;
    return dict + std::string((64 - total % 64) % 64, ' ') + "\n";
  };
  std::string header = padded(10);
  int major = 1;
  if (header.size() > 0xffff) {
    major = 2;
    header = padded(12);
  }
  std::vector<std::byte> out;
  out.reserve(12 + header.size() + tensor.byteSize());
  auto put = [&](const void* p, size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  };
  put(kMagic, kMagicLen);
  const uint8_t version[2] = {static_cast<uint8_t>(major), 0};
  put(version, 2);
  const uint32_t len = static_cast<uint32_t>(header.size());
  put(&len, major == 1 ? 2 : 4);  // little-endian host
  put(header.data(), header.size());
  put(tensor.bytes().data(), tensor.byteSize());
  return out;
}

HostTensor readNpy(const std::string& path) {
  return withContext("while reading " + path, [&] { return parseNpy(readFileBytes(path)); });
}

void writeNpy(const std::string& path, const HostTensor& tensor) {
  withContext("while writing " + path, [&] { writeFileAtomic(path, encodeNpy(tensor)); });
}

}  // namespace wgk

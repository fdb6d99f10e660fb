#include <gtest/gtest.h>

#include <cstring>

#include "core/half.h"
#include "io/npy.h"
#include "io_test_util.h"

namespace wgk {
namespace {
using testutil::append;
using testutil::bytesOf;
using testutil::expectError;

// Bytes laid out the way NumPy's format.py writes them: the dict, padding spaces so that the
// magic + length + header is a multiple of `align`, then '\n' (NumPy always pads >= 1 space).
std::vector<std::byte> numpyFile(int major, const std::string& dict, const std::vector<std::byte>& data,
                                 size_t align = 64) {
  const size_t lenBytes = major == 1 ? 2 : 4;
  const size_t hlen = dict.size() + 1;
  const size_t pad = align - ((6 + 2 + lenBytes + hlen) % align);
  const std::string header = dict + std::string(pad, ' ') + "\n";
  std::vector<std::byte> out = bytesOf(std::string("\x93NUMPY", 6));
  out.push_back(std::byte(major));
  out.push_back(std::byte(0));
  const uint32_t len = static_cast<uint32_t>(header.size());
  append(out, &len, lenBytes);
  append(out, header.data(), header.size());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// NumPy >= 1.23 adds spaces after the dict so the first axis can grow in place.
std::string numpyDict(const std::string& descr, const std::string& shapeRepr, const std::string& firstDim) {
  std::string d = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeRepr + ", }";
  if (!firstDim.empty()) d += std::string(21 - firstDim.size(), ' ');
  return d;
}

template <class T>
std::vector<std::byte> raw(std::initializer_list<T> v) {
  std::vector<std::byte> out(v.size() * sizeof(T));
  std::memcpy(out.data(), std::data(v), out.size());
  return out;
}

std::vector<std::byte> f32File(const std::string& shape, std::vector<std::byte> data) {
  return numpyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }", data);
}

TEST(Npy, RoundTripsEveryDTypeIncludingScalarsAndEmpty) {
  for (const HostTensor& t : testutil::sampleTensors()) {
    SCOPED_TRACE(std::string(dtypeName(t.dtype())) + " rank " + std::to_string(t.shape().size()));
    const auto bytes = encodeNpy(t);
    testutil::expectSameTensor(parseNpy(bytes), t);
  }
}

TEST(Npy, WritesTheNumpyLayout) {
  const auto t = HostTensor::fromDoubles(DType::Float32, {2, 3}, std::vector<double>{0, 1, 2, 3, 4, 5});
  const auto b = encodeNpy(t);
  ASSERT_GE(b.size(), 10u);
  EXPECT_EQ(0, std::memcmp(b.data(), "\x93NUMPY\x01\x00", 8));
  const size_t hlen = static_cast<size_t>(b[8]) | static_cast<size_t>(b[9]) << 8;
  EXPECT_EQ((10 + hlen) % 64, 0u);
  const std::string header(reinterpret_cast<const char*>(b.data()) + 10, hlen);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u) << header;
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(b.size(), 10 + hlen + 24);
  // Shapes are Python tuples: () for 0-d, (n,) for 1-d.
  auto headerOf = [](const HostTensor& x) {
    const auto e = encodeNpy(x);
    return std::string(reinterpret_cast<const char*>(e.data()) + 10, static_cast<size_t>(e[8]));
  };
  EXPECT_NE(headerOf(HostTensor(DType::Float16, {})).find("'shape': (), "), std::string::npos);
  EXPECT_NE(
      headerOf(HostTensor(DType::Int8, {5})).find("'descr': '|i1', 'fortran_order': False, 'shape': (5,), "),
      std::string::npos);
  EXPECT_NE(headerOf(HostTensor(DType::Float16, {1})).find("'<f2'"), std::string::npos);
  EXPECT_NE(headerOf(HostTensor(DType::Uint8, {1})).find("'|u1'"), std::string::npos);
  EXPECT_NE(headerOf(HostTensor(DType::Uint32, {1})).find("'<u4'"), std::string::npos);
  EXPECT_NE(headerOf(HostTensor(DType::Int32, {1})).find("'<i4'"), std::string::npos);
}

TEST(Npy, UsesVersion2OnlyWhenTheHeaderNeedsIt) {
  // 30000 dims of 1: the shape text alone is ~90 kB, beyond a 16-bit header length.
  const HostTensor big(DType::Float16, Shape(30000, 1));
  const auto b = encodeNpy(big);
  EXPECT_EQ(static_cast<int>(b[6]), 2);
  uint32_t hlen;
  std::memcpy(&hlen, b.data() + 8, 4);
  EXPECT_EQ((12 + hlen) % 64, 0u);
  testutil::expectSameTensor(parseNpy(b), big);
  EXPECT_EQ(static_cast<int>(encodeNpy(HostTensor(DType::Float16, Shape(10, 1)))[6]), 1);
}

TEST(Npy, ReadsFilesAsNumpyWritesThem) {
  // np.save(f, np.arange(6, dtype=np.float32).reshape(2, 3)) with NumPy 1.26: header length 118.
  const auto modern = numpyFile(1, numpyDict("<f4", "(2, 3)", "2"), raw<float>({0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(static_cast<int>(modern[8]), 118);
  const HostTensor t = parseNpy(modern);
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(t.toDoubles(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  // Older NumPy: 16-byte alignment, no growth spaces; float16 bits are kept exactly.
  const auto old = numpyFile(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }",
                             raw<uint16_t>({0x3c00, 0x8001, 0x7bff}), 16);
  const HostTensor h = parseNpy(old);
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_EQ(h.toDoubles(), (std::vector<double>{1, -0x1p-24, 65504}));
  // 0-d and empty arrays.
  EXPECT_EQ(parseNpy(numpyFile(1, numpyDict("<i4", "()", ""), raw<int32_t>({-7}))).toDoubles(),
            std::vector<double>{-7});
  EXPECT_EQ(parseNpy(numpyFile(1, numpyDict("<u4", "(0, 4)", "0"), {})).shape(), (Shape{0, 4}));
  // Versions 2.0 and 3.0 (3.0: utf-8 header), and the other dtypes' descrs.
  EXPECT_EQ(parseNpy(numpyFile(2, numpyDict("|u1", "(2,)", "2"), raw<uint8_t>({9, 200}))).toDoubles(),
            (std::vector<double>{9, 200}));
  EXPECT_EQ(parseNpy(numpyFile(3, numpyDict("|i1", "(2,)", "2"), raw<int8_t>({-9, 100}))).toDoubles(),
            (std::vector<double>{-9, 100}));
  EXPECT_EQ(parseNpy(numpyFile(1, numpyDict("<i8", "(1,)", "1"), raw<int64_t>({-5}))).dtype(), DType::Int64);
  EXPECT_EQ(parseNpy(numpyFile(1, numpyDict("<i2", "(1,)", "1"), raw<int16_t>({-5}))).dtype(), DType::Int16);
  EXPECT_EQ(parseNpy(numpyFile(1, numpyDict("|b1", "(2,)", "2"), raw<uint8_t>({1, 0}))).dtype(), DType::Bool);
  EXPECT_EQ(parseNpy(numpyFile(1, numpyDict("<i1", "(1,)", "1"), raw<int8_t>({1}))).dtype(), DType::Int8);
  // Keys in another order, double quotes, a Fortran-order 1-D array (same bytes as C order).
  EXPECT_EQ(parseNpy(numpyFile(1, "{\"shape\": (1, 2), 'fortran_order': True, \"descr\": '<f4'}",
                               raw<float>({1, 2})))
                .toDoubles(),
            (std::vector<double>{1, 2}));
}

TEST(Npy, RejectsBadFilesClearly) {
  const auto good = f32File("(2,)", raw<float>({1, 2}));
  ASSERT_NO_THROW(parseNpy(good));
  const ErrorCode io = ErrorCode::Io;
  expectError([] { parseNpy(bytesOf("PK\x03\x04 not numpy at all")); }, io, {"wrong magic"});
  expectError([] { parseNpy(bytesOf("")); }, io, {"wrong magic"});
  expectError([] { parseNpy(bytesOf(std::string("\x93NUMPY", 6))); }, io, {"truncated"});
  expectError([] { parseNpy(bytesOf(std::string("\x93NUMPY\x01\x00\x05", 9))); }, io,
              {"truncated", "header length"});
  auto v = good;
  v[6] = std::byte(4);
  expectError([&] { parseNpy(v); }, io, {"version 4.0"});
  v = good;
  v[7] = std::byte(1);
  expectError([&] { parseNpy(v); }, io, {"version 1.1"});
  // Header length running past the end.
  v = good;
  v[9] = std::byte(0x7f);
  expectError([&] { parseNpy(v); }, io, {"truncated header"});
  // Data too short, too long.
  v = good;
  v.pop_back();
  expectError([&] { parseNpy(v); }, io, {"truncated data", "(2,)", "needs 8 bytes", "has 7"});
  v = good;
  v.push_back(std::byte(0));
  expectError([&] { parseNpy(v); }, io, {"1 trailing bytes"});
  expectError([&] { parseNpy(f32File("(2, 3)", raw<float>({1, 2}))); }, io, {"truncated data", "(2, 3)"});
  // Fortran order, big-endian, unsupported and structured dtypes.
  expectError(
      [] {
        parseNpy(numpyFile(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                           raw<float>({1, 2, 3, 4})));
      },
      io, {"Fortran"});
  expectError([] { parseNpy(numpyFile(1, numpyDict(">f4", "(1,)", "1"), raw<float>({1}))); }, io,
              {"big-endian", ">f4"});
  expectError([] { parseNpy(numpyFile(1, numpyDict("<f8", "(1,)", "1"), raw<double>({1}))); }, io,
              {"unsupported dtype '<f8'", "float64", "<f2"});
  expectError([] { parseNpy(numpyFile(1, numpyDict("<U3", "(1,)", "1"), {})); }, io, {"'<U3'"});
  expectError(
      [] {
        parseNpy(numpyFile(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                           raw<float>({1})));
      },
      io, {"structured"});
  // Malformed dictionaries.
  expectError([] { parseNpy(numpyFile(1, "{'descr': '<f4', 'shape': (1,), }", raw<float>({1}))); }, io,
              {"fortran_order"});
  expectError([] { parseNpy(numpyFile(1, "{'descr': '<f4', 'fortran_order': False, }", {})); }, io,
              {"no 'shape'"});
  expectError(
      [] {
        parseNpy(
            numpyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", raw<float>({1})));
      },
      io, {"unexpected header key 'x'"});
  expectError(
      [] {
        parseNpy(numpyFile(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
                           raw<float>({1})));
      },
      io, {"twice"});
  expectError([] { parseNpy(f32File("(-1,)", {})); }, io, {"non-negative integer"});
  expectError([] { parseNpy(f32File("(2.5,)", {})); }, io, {"shape"});
  expectError([] { parseNpy(f32File("(2", {})); }, io, {"shape"});
  expectError(
      [] {
        parseNpy(numpyFile(1, "{'descr': '<f4', 'fortran_order': maybe, 'shape': (1,)}", raw<float>({1})));
      },
      io, {"True or False"});
  expectError(
      [] {
        parseNpy(
            numpyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} junk", raw<float>({1})));
      },
      io, {"after the header"});
  expectError([] { parseNpy(numpyFile(1, "['descr']", {})); }, io, {"expected '{'"});
  expectError(
      [] { parseNpy(numpyFile(1, "{'descr': '<f4\xc3\xa9', 'fortran_order': False, 'shape': (1,)}", {})); },
      io, {"non-ASCII"});
  // A shape whose size overflows must not wrap to a small size that matches the data.
  expectError([] { parseNpy(f32File("(4294967296, 4294967296, 4294967296)", {})); }, io, {"too large"});
  // bool data must be 0 or 1.
  expectError(
      [] {
        parseNpy(numpyFile(1, numpyDict("|b1", "(2,)", "2"), raw<uint8_t>({1, 2})));
      },
      io, {"bool element 1"});
}

TEST(Npy, ReadsAndWritesFilesAtomically) {
  const std::string dir = testing::TempDir();
  const std::string path = dir + "wgk_npy_test.npy";
  const auto t = HostTensor::fromDoubles(DType::Float16, {2, 2}, std::vector<double>{1, 2, 3, 4});
  writeNpy(path, t);
  testutil::expectSameTensor(readNpy(path), t);
  // Overwrites in place.
  const auto u = HostTensor::fromDoubles(DType::Int32, {1}, std::vector<double>{5});
  writeNpy(path, u);
  testutil::expectSameTensor(readNpy(path), u);
  std::remove(path.c_str());
  expectError([&] { readNpy(path); }, ErrorCode::Io, {"cannot open", path});
  expectError([&] { writeNpy(dir + "no/such/dir/x.npy", t); }, ErrorCode::Io, {"no/such/dir"});
  // Errors inside a file name the file.
  {
    const auto bad = bytesOf("not an npy");
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(bad.data(), 1, bad.size(), f);
    std::fclose(f);
  }
  expectError([&] { readNpy(path); }, ErrorCode::Io, {"wrong magic", "while reading " + path});
  std::remove(path.c_str());
}

}  // namespace
}  // namespace wgk

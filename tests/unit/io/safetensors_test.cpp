#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "io_test_util.h"

namespace wgk {
namespace {
using testutil::bytesOf;
using testutil::expectError;

// A file built by hand: 8-byte little-endian length, the header text as given, then the data.
std::vector<std::byte> stFile(const std::string& header, size_t dataBytes,
                              uint64_t declaredLength = UINT64_MAX) {
  const uint64_t n = declaredLength == UINT64_MAX ? header.size() : declaredLength;
  std::vector<std::byte> out;
  testutil::append(out, &n, 8);
  testutil::append(out, header.data(), header.size());
  for (size_t i = 0; i < dataBytes; ++i) out.push_back(std::byte(i));
  return out;
}

TEST(Safetensors, RoundTripsEveryDTypeWithMetadata) {
  std::map<std::string, HostTensor> tensors;
  int i = 0;
  for (auto& t : testutil::sampleTensors()) tensors.emplace("t" + std::to_string(i++), t);
  const std::map<std::string, std::string> meta = {{"format", "pt"}, {"producer", "wgk test"}};
  const auto bytes = encodeSafetensors(tensors, meta);
  const SafetensorsFile back = parseSafetensors(bytes);
  EXPECT_EQ(back.metadata, meta);
  ASSERT_EQ(back.tensors.size(), tensors.size());
  for (const auto& [name, t] : tensors) {
    SCOPED_TRACE(name);
    testutil::expectSameTensor(back.tensors.at(name), t);
  }
  // No tensors at all is a valid file too.
  EXPECT_TRUE(parseSafetensors(encodeSafetensors({})).tensors.empty());
}

TEST(Safetensors, WritesTheStandardLayout) {
  const std::map<std::string, HostTensor> tensors = {
      {"b", HostTensor::fromDoubles(DType::Float16, {2}, std::vector<double>{1, 2})},
      {"a", HostTensor::fromDoubles(DType::Float32, {1, 2}, std::vector<double>{3, 4})}};
  const auto bytes = encodeSafetensors(tensors);
  uint64_t n;
  std::memcpy(&n, bytes.data(), 8);
  EXPECT_EQ(n % 8, 0u);
  EXPECT_EQ(bytes.size(), 8 + n + 12);
  const auto header = nlohmann::json::parse(std::string(reinterpret_cast<const char*>(bytes.data()) + 8, n));
  EXPECT_FALSE(header.contains("__metadata__"));
  EXPECT_EQ(header["a"]["dtype"], "F32");
  EXPECT_EQ(header["a"]["shape"], nlohmann::json({1, 2}));
  EXPECT_EQ(header["a"]["data_offsets"], nlohmann::json({0, 8}));
  EXPECT_EQ(header["b"]["dtype"], "F16");
  EXPECT_EQ(header["b"]["data_offsets"], nlohmann::json({8, 12}));
  float a0;
  std::memcpy(&a0, bytes.data() + 8 + n, 4);
  EXPECT_EQ(a0, 3.0f);
  expectError(
      [] {
        encodeSafetensors({{"__metadata__", HostTensor(DType::Float32, {1})}});
      },
      ErrorCode::InvalidArgument, {"__metadata__"});
}

TEST(Safetensors, ReadsAHandWrittenFile) {
  // As the Python library writes it: metadata first, no spaces, padded with spaces to 8 bytes.
  std::string h =
      R"({"__metadata__":{"format":"pt"},"w":{"dtype":"I32","shape":[2],"data_offsets":[4,12]},)"
      R"("s":{"dtype":"U8","shape":[],"data_offsets":[0,1]},"e":{"dtype":"F16","shape":[0,3],"data_offsets":[1,1]},)"
      R"("p":{"dtype":"I8","shape":[3],"data_offsets":[1,4]}})";
  h.append((8 - h.size() % 8) % 8, ' ');
  const auto f = parseSafetensors(stFile(h, 12));
  EXPECT_EQ(f.metadata.at("format"), "pt");
  EXPECT_EQ(f.tensors.at("s").shape(), Shape{});
  EXPECT_EQ(f.tensors.at("s").toDoubles(), std::vector<double>{0});
  EXPECT_EQ(f.tensors.at("p").toDoubles(), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(f.tensors.at("e").shape(), (Shape{0, 3}));
  EXPECT_EQ(f.tensors.at("w").toDoubles(), (std::vector<double>{0x07060504, 0x0b0a0908}));
  EXPECT_EQ(f.tensors.at("w").dtype(), DType::Int32);
}

std::string one(const std::string& entry) {
  return R"({"x":)" + entry + "}";
}

TEST(Safetensors, RejectsBadFilesClearly) {
  const ErrorCode io = ErrorCode::Io;
  const std::string ok = one(R"({"dtype":"F32","shape":[2],"data_offsets":[0,8]})");
  ASSERT_NO_THROW(parseSafetensors(stFile(ok, 8)));
  expectError([] { parseSafetensors(bytesOf("abc")); }, io, {"8-byte"});
  expectError([] { parseSafetensors(stFile("{}", 0, 200000000)); }, io, {"exceeds the cap"});
  expectError([&] { parseSafetensors(stFile(ok, 0, ok.size() + 50)); }, io, {"truncated header"});
  expectError([] { parseSafetensors(stFile("[1, 2]", 0)); }, io, {"start with '{'"});
  expectError([] { parseSafetensors(stFile("", 0)); }, io, {"start with '{'"});
  expectError([] { parseSafetensors(stFile("{\"x\": ", 0)); }, io, {"not valid JSON"});
  // Names must be unique (JSON would silently keep the last).
  expectError(
      [] {
        parseSafetensors(stFile(
            R"({"x":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"x":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
            2));
      },
      io, {"duplicate key 'x'"});
  // Entries.
  expectError([] { parseSafetensors(stFile(one("[]"), 0)); }, io, {"'x'", "expected an object"});
  expectError([] { parseSafetensors(stFile(one(R"({"dtype":"F32","shape":[2]})"), 8)); }, io,
              {"missing field 'data_offsets'"});
  expectError(
      [] { parseSafetensors(stFile(one(R"({"dtype":"F32","shape":[2],"data_offsets":[0,8],"x":1})"), 8)); },
      io, {"unexpected field 'x'"});
  expectError(
      [] { parseSafetensors(stFile(one(R"({"dtype":"BF16","shape":[2],"data_offsets":[0,4]})"), 4)); }, io,
      {"unsupported dtype 'BF16'", "F16"});
  expectError([] { parseSafetensors(stFile(one(R"({"dtype":"F64","shape":[1],"data_offsets":[0,8]})"), 8)); },
              io, {"'F64'"});
  expectError([] { parseSafetensors(stFile(one(R"({"dtype":3,"shape":[1],"data_offsets":[0,8]})"), 8)); }, io,
              {"dtype"});
  expectError(
      [] { parseSafetensors(stFile(one(R"({"dtype":"F32","shape":[-2],"data_offsets":[0,8]})"), 8)); }, io,
      {"non-negative"});
  expectError([] { parseSafetensors(stFile(one(R"({"dtype":"F32","shape":2,"data_offsets":[0,8]})"), 8)); },
              io, {"shape must be an array"});
  expectError([] { parseSafetensors(stFile(one(R"({"dtype":"F32","shape":[2],"data_offsets":[0]})"), 8)); },
              io, {"[begin, end]"});
  expectError([] { parseSafetensors(stFile(one(R"({"dtype":"F32","shape":[2],"data_offsets":[8,0]})"), 8)); },
              io, {"before begin"});
  expectError(
      [] { parseSafetensors(stFile(one(R"({"dtype":"F32","shape":[2],"data_offsets":[0,-8]})"), 8)); }, io,
      {"non-negative"});
  expectError([] { parseSafetensors(stFile(one(R"({"dtype":"F32","shape":[3],"data_offsets":[0,8]})"), 8)); },
              io, {"span 8 bytes", "needs 12"});
  expectError(
      [] {
        parseSafetensors(stFile(
            one(R"({"dtype":"U8","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,8]})"), 8));
      },
      io, {"too large"});
  // The buffer: in bounds, no overlap, no gap, nothing left over.
  expectError([&] { parseSafetensors(stFile(ok, 4)); }, io, {"past the end", "4-byte"});
  expectError([&] { parseSafetensors(stFile(ok, 9)); }, io, {"1 trailing bytes"});
  expectError(
      [] {
        parseSafetensors(stFile(
            R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},"b":{"dtype":"U8","shape":[2],"data_offsets":[1,3]}})",
            3));
      },
      io, {"overlaps"});
  expectError(
      [] {
        parseSafetensors(stFile(
            R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"b":{"dtype":"U8","shape":[1],"data_offsets":[2,3]}})",
            3));
      },
      io, {"[1, 2)", "belong to no tensor"});
  expectError([] { parseSafetensors(stFile(one(R"({"dtype":"U8","shape":[1],"data_offsets":[1,2]})"), 2)); },
              io, {"[0, 1)"});
  // Metadata.
  expectError([] { parseSafetensors(stFile(R"({"__metadata__":{"n":1}})", 0)); }, io,
              {"'n'", "not a string"});
  expectError([] { parseSafetensors(stFile(R"({"__metadata__":[]})", 0)); }, io,
              {"__metadata__ must be an object"});
  // BOOL bytes must be 0 or 1.
  expectError(
      [] { parseSafetensors(stFile(one(R"({"dtype":"BOOL","shape":[3],"data_offsets":[0,3]})"), 3)); }, io,
      {"BOOL element 2"});
}

TEST(Safetensors, ReadsAndWritesFiles) {
  const std::string path = testing::TempDir() + "wgk_st_test.safetensors";
  const std::map<std::string, HostTensor> tensors = {
      {"x", HostTensor::fromDoubles(DType::Float16, {2}, std::vector<double>{0.5, -1})}};
  writeSafetensors(path, tensors, {{"k", "v"}});
  const auto back = readSafetensorsFile(path);
  testutil::expectSameTensor(back.tensors.at("x"), tensors.at("x"));
  EXPECT_EQ(back.metadata.at("k"), "v");
  EXPECT_EQ(readSafetensors(path).size(), 1u);
  std::remove(path.c_str());
  expectError([&] { readSafetensors(path); }, ErrorCode::Io, {path});
}

}  // namespace
}  // namespace wgk

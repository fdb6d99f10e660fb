// io/tensor_file.h: one tensor named on a command line (.npy, FILE.safetensors[:TENSOR]) and
// float64 data cast on request (issue 17 item 7).
#include "io/tensor_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/file.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "io_test_util.h"

namespace wgk {
namespace {
using testutil::append;
using testutil::bytesOf;

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("wgk_tensor_file_" + name)).string();
}

// A float64 .npy as NumPy writes it (version 1.0, header padded to 64 bytes).
std::vector<std::byte> float64Npy(const std::vector<double>& v) {
  std::string header =
      "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(v.size()) + ",), }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::vector<std::byte> out = bytesOf(std::string("\x93NUMPY\x01\x00", 8));
  const uint16_t len = static_cast<uint16_t>(header.size());
  append(out, &len, 2);
  append(out, header.data(), header.size());
  append(out, v.data(), v.size() * 8);
  return out;
}

// A safetensors file holding one F64 tensor "x" and one F32 tensor "y".
std::vector<std::byte> float64Safetensors() {
  const double x[] = {1.5, -2.25, 3e10};
  const float y[] = {7};
  const std::string header =
      R"({"x":{"dtype":"F64","shape":[3],"data_offsets":[0,24]},"y":{"dtype":"F32","shape":[1],"data_offsets":[24,28]}})";
  std::string padded = header + std::string((8 - header.size() % 8) % 8, ' ');
  std::vector<std::byte> out;
  const uint64_t n = padded.size();
  append(out, &n, 8);
  append(out, padded.data(), padded.size());
  append(out, x, sizeof x);
  append(out, y, sizeof y);
  return out;
}

TEST(TensorFile, Float64NpyNeedsACastAndIsCastToFloat32) {
  const std::string path = tempPath("f64.npy");
  writeFileAtomic(path, float64Npy({1.5, -2.25, 1e-50}));
  testutil::expectError([&] { readTensorFile(path, "X"); }, ErrorCode::InvalidArgument,
                        {"float64", "--cast float32"});
  HostTensor t = readTensorFile(path, "X", DType::Float32);
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_EQ(t.shape(), (Shape{3}));
  EXPECT_EQ(t.toDoubles(), (std::vector<double>{1.5, -2.25, static_cast<float>(1e-50)}));
  HostTensor h = readTensorFile(path, "X", DType::Float16);
  EXPECT_EQ(h.dtype(), DType::Float16);
  EXPECT_DOUBLE_EQ(h.toDoubles()[1], -2.25);
  std::filesystem::remove(path);
}

TEST(TensorFile, TruncatedFloat64NpyIsStillRejected) {
  const std::string path = tempPath("f64_short.npy");
  auto bytes = float64Npy({1, 2, 3});
  bytes.resize(bytes.size() - 8);
  writeFileAtomic(path, bytes);
  testutil::expectError([&] { readTensorFile(path, "X", DType::Float32); }, ErrorCode::Io,
                        {"truncated data"});
  std::filesystem::remove(path);
}

TEST(TensorFile, SafetensorsByTensorNameByInputNameAndAlone) {
  const std::string path = tempPath("t.safetensors");
  writeFileAtomic(path, float64Safetensors());
  EXPECT_EQ(readTensorFile(path + ":y", "X").toDoubles(), std::vector<double>{7});
  EXPECT_EQ(readTensorFile(path, "y").toDoubles(), std::vector<double>{7});  // named like the input
  EXPECT_EQ(readTensorFile(path + ":x", "X", DType::Float32).toDoubles(),
            (std::vector<double>{1.5, -2.25, static_cast<float>(3e10)}));
  testutil::expectError([&] { readTensorFile(path + ":x", "X"); }, ErrorCode::InvalidArgument,
                        {"--cast float32"});
  testutil::expectError([&] { readTensorFile(path + ":z", "X"); }, ErrorCode::NotFound,
                        {"has no tensor 'z' (it has: x, y)"});
  testutil::expectError([&] { readTensorFile(path, "X"); }, ErrorCode::InvalidArgument,
                        {"holds 2 tensors and none is named 'X'"});
  std::filesystem::remove(path);
}

TEST(TensorFile, NpyPassesThrough) {
  const std::string path = tempPath("f32.npy");
  HostTensor t = HostTensor::fromDoubles(DType::Float32, {2}, std::vector<double>{1, 2});
  writeNpy(path, t);
  EXPECT_EQ(readTensorFile(path, "X").toDoubles(), (std::vector<double>{1, 2}));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace wgk

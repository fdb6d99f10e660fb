#include <gtest/gtest.h>

#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "core/half.h"
#include "io/file.h"
#include "io/safetensors.h"
#include "model/gemma_checkpoint.h"
#include "wgk/error.h"

namespace wgk::model {
namespace {
namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("wgk-ckpt-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

HostTensor f16(Shape shape, float v) {
  std::vector<float> values(static_cast<size_t>(numel(shape)), v);
  return HostTensor::fromFloats(DType::Float16, std::move(shape), values);
}

// A safetensors file with one raw tensor of a stored dtype wgk has no DType for (BF16).
void writeRaw(const fs::path& file, const std::string& name, const std::string& dtype, const Shape& shape,
              const std::vector<std::byte>& data) {
  std::string header = "{\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":[";
  for (size_t i = 0; i < shape.size(); ++i) header += (i ? "," : "") + std::to_string(shape[i]);
  header += "],\"data_offsets\":[0," + std::to_string(data.size()) + "]}}";
  header.append((8 - header.size() % 8) % 8, ' ');
  std::ofstream out(file, std::ios::binary);
  const uint64_t n = header.size();
  out.write(reinterpret_cast<const char*>(&n), 8);
  out << header;
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
}

std::string errorOf(const std::function<void()>& fn, ErrorCode* code = nullptr) {
  try {
    fn();
  } catch (const Error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "(no error)";
}

TEST(Checkpoint, SingleFileReadsAndChecks) {
  TempDir d;
  writeSafetensors((d.path / "model.safetensors").string(),
                   {{"a", f16({2, 3}, 1.5f)}, {"b", f16({4}, -2.0f)}});
  const Checkpoint ck = Checkpoint::open(d.path.string());
  EXPECT_TRUE(ck.has("a"));
  EXPECT_EQ(ck.readFloat16("a", {2, 3}).toFloats(), std::vector<float>(6, 1.5f));
  EXPECT_NE(errorOf([&] {
              ck.readFloat16("a", {3, 2});
            }).find("has shape [2, 3]; the config needs [3, 2]"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { ck.check("c", {1}); }).find("no tensor 'c'"), std::string::npos);
}

TEST(Checkpoint, WidensAndNarrows) {
  TempDir d;
  // bfloat16 1.0 = 0x3f80, and 1e38 (finite, beyond float16) = 0x7e96.
  std::vector<std::byte> bf(4);
  const uint16_t one = 0x3f80, huge = 0x7e96;
  std::memcpy(bf.data(), &one, 2);
  std::memcpy(bf.data() + 2, &one, 2);
  writeRaw(d.path / "model.safetensors", "w", "BF16", {2}, bf);
  EXPECT_EQ(Checkpoint::open(d.path.string()).readFloat16("w", {2}).toFloats(),
            (std::vector<float>{1.0f, 1.0f}));
  std::memcpy(bf.data() + 2, &huge, 2);
  writeRaw(d.path / "model.safetensors", "w", "BF16", {2}, bf);
  EXPECT_NE(errorOf([&] {
              Checkpoint::open(d.path.string()).readFloat16("w", {2});
            }).find("beyond float16's range"),
            std::string::npos);
  const std::vector<float> f32 = {0.1f, -3.0f};
  writeSafetensors((d.path / "model.safetensors").string(),
                   {{"w", HostTensor::fromFloats(DType::Float32, {2}, f32)}});
  EXPECT_EQ(Checkpoint::open(d.path.string()).readFloat16("w", {2}).toFloats(),
            (std::vector<float>{roundToHalf(0.1f), -3.0f}));
  writeSafetensors((d.path / "model.safetensors").string(), {{"w", HostTensor(DType::Int32, {2})}});
  EXPECT_NE(errorOf([&] { Checkpoint::open(d.path.string()).check("w", {2}); }).find("is I32; wgk reads F16"),
            std::string::npos);
}

TEST(Checkpoint, ShardsFollowTheIndex) {
  TempDir d;
  writeSafetensors((d.path / "model-00001-of-00002.safetensors").string(), {{"a", f16({2}, 1.0f)}});
  writeSafetensors((d.path / "model-00002-of-00002.safetensors").string(), {{"b", f16({2}, 2.0f)}});
  auto index = [&](const std::string& text) {
    std::ofstream(d.path / "model.safetensors.index.json") << text;
  };
  index(
      R"({"metadata": {}, "weight_map": {"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}})");
  const Checkpoint ck = Checkpoint::open(d.path.string());
  EXPECT_EQ(ck.files(), 2u);
  EXPECT_EQ(ck.readFloat16("b", {2}).toFloats(), (std::vector<float>{2.0f, 2.0f}));
  index(R"({"weight_map": {"a": "model-00002-of-00002.safetensors"}})");
  EXPECT_NE(errorOf([&] { Checkpoint::open(d.path.string()); }).find("which does not hold it"),
            std::string::npos);
  index(R"({"weight_map": {"a": "../outside.safetensors"}})");
  EXPECT_NE(errorOf([&] { Checkpoint::open(d.path.string()); }), "(no error)");
  index(R"({"weight_map": {"a": "missing.safetensors"}})");
  ErrorCode code{};
  EXPECT_NE(errorOf([&] { Checkpoint::open(d.path.string()); }, &code).find("does not exist"),
            std::string::npos);
  EXPECT_EQ(code, ErrorCode::NotFound);
}

TEST(Checkpoint, NoCheckpointAndTruncatedFile) {
  TempDir d;
  ErrorCode code{};
  EXPECT_NE(
      errorOf([&] { Checkpoint::open(d.path.string()); }, &code).find("holds neither model.safetensors"),
      std::string::npos);
  EXPECT_EQ(code, ErrorCode::NotFound);
  writeSafetensors((d.path / "model.safetensors").string(), {{"a", f16({64}, 1.0f)}});
  fs::resize_file(d.path / "model.safetensors", fs::file_size(d.path / "model.safetensors") - 10);
  EXPECT_NE(errorOf([&] { Checkpoint::open(d.path.string()); }, &code).find("run past the end"),
            std::string::npos);
  EXPECT_EQ(code, ErrorCode::Io);
}

}  // namespace
}  // namespace wgk::model

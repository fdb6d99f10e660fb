#include "model/gemma_checkpoint.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/half.h"
#include "core/json_read.h"
#include "core/shape_text.h"
#include "wgk/error.h"

namespace wgk::model {
namespace fs = std::filesystem;

void Checkpoint::addFile(const std::string& path, const std::string& onlyName) {
  const SafetensorsHeader h = readSafetensorsHeader(path);
  ++files_;
  for (const SafetensorsEntry& e : h.entries) {
    if (!onlyName.empty() && e.name != onlyName) continue;
    if (tensors_.count(e.name))
      throw Error(ErrorCode::Io,
                  "tensor '" + e.name + "' is stored twice (" + tensors_[e.name].file + " and " + path + ")");
    tensors_[e.name] = Where{path, h.dataStart, e};
  }
}

Checkpoint Checkpoint::open(const std::string& modelDir) {
  Checkpoint c;
  const fs::path dir(modelDir);
  const fs::path single = dir / "model.safetensors", index = dir / "model.safetensors.index.json";
  std::error_code ec;
  if (fs::is_regular_file(index, ec)) {
    const auto map = loadJsonFile(
        index.string(),
        [&](const nlohmann::json& j) {
          if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
            throw Error(ErrorCode::Io,
                        "expected an object with a \"weight_map\" object of tensor name -> file");
          std::map<std::string, std::set<std::string>> byFile;
          for (const auto& [name, file] : j["weight_map"].items()) {
            if (!file.is_string())
              throw Error(ErrorCode::Io, "weight_map['" + name + "'] is not a file name");
            // A shard is a plain file inside the model folder: no path of the index reaches out.
            const std::string f = file.get<std::string>();
            if (f.empty() || f == "." || f == ".." || f.find('/') != std::string::npos ||
                f.find('\0') != std::string::npos)
              throw Error(ErrorCode::Io,
                          "weight_map['" + name + "'] names '" + f + "', not a file inside the model folder");
            byFile[file.get<std::string>()].insert(name);
          }
          return byFile;
        },
        "the shard index " + index.string());
    for (const auto& [file, names] : map) {
      const std::string path = (dir / file).string();
      if (!fs::is_regular_file(path, ec))
        throw Error(ErrorCode::NotFound,
                    "shard '" + file + "' named by " + index.string() + " does not exist");
      const SafetensorsHeader h = readSafetensorsHeader(path);
      ++c.files_;
      std::set<std::string> seen;
      for (const SafetensorsEntry& e : h.entries) {
        if (!names.count(e.name)) continue;  // the index decides which shard holds a tensor
        c.tensors_[e.name] = Where{path, h.dataStart, e};
        seen.insert(e.name);
      }
      for (const std::string& n : names)
        if (!seen.count(n))
          throw Error(ErrorCode::Io,
                      "the shard index says '" + n + "' is in " + file + ", which does not hold it");
    }
    return c;
  }
  if (fs::is_regular_file(single, ec)) {
    c.addFile(single.string(), "");
    return c;
  }
  throw Error(ErrorCode::NotFound, "'" + modelDir +
                                       "' holds neither model.safetensors nor model.safetensors.index.json "
                                       "(the Hugging Face layouts wgk reads)");
}

const std::string& Checkpoint::storedDtype(const std::string& name) const {
  return tensors_.at(name).entry.dtype;
}

namespace {
uint16_t narrow(float v, const std::string& name) {
  const uint16_t h = floatToHalf(v);
  if (std::isfinite(v) && (h & 0x7fff) == 0x7c00)
    throw Error(ErrorCode::InvalidArgument, "tensor '" + name + "' holds " + std::to_string(v) +
                                                ", beyond float16's range (wgk computes in float16)");
  return h;
}
}  // namespace

void Checkpoint::check(const std::string& name, const Shape& shape) const {
  auto it = tensors_.find(name);
  if (it == tensors_.end())
    throw Error(ErrorCode::InvalidArgument, "the checkpoint has no tensor '" + name + "'");
  const SafetensorsEntry& e = it->second.entry;
  if (e.shape != shape)
    throw Error(ErrorCode::InvalidArgument, "tensor '" + name + "' in " + it->second.file + " has shape " +
                                                shapeText(e.shape) + "; the config needs " +
                                                shapeText(shape));
  if (e.dtype != "F16" && e.dtype != "BF16" && e.dtype != "F32")
    throw Error(ErrorCode::InvalidArgument, "tensor '" + name + "' in " + it->second.file + " is " + e.dtype +
                                                "; wgk reads F16, BF16 or F32 weights");
}

HostTensor Checkpoint::readFloat16(const std::string& name, const Shape& shape) const {
  check(name, shape);
  auto it = tensors_.find(name);
  const Where& w = it->second;
  const SafetensorsEntry& e = w.entry;
  const size_t elementBytes = e.dtype == "F32" ? 4 : 2;
  const int64_t n = numel(shape);
  std::vector<std::byte> raw(static_cast<size_t>(n) * elementBytes);
  std::ifstream in(w.file, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(w.dataStart + e.begin));
  in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size()));
  if (!in)
    throw Error(ErrorCode::Io,
                "cannot read tensor '" + name + "' from " + w.file + ": " + std::strerror(errno));
  if (e.dtype == "F16") return HostTensor(DType::Float16, shape, std::move(raw));
  HostTensor out(DType::Float16, shape);
  auto* dst = reinterpret_cast<uint16_t*>(out.bytes().data());
  for (int64_t i = 0; i < n; ++i) {
    float v;
    if (e.dtype == "F32") {
      std::memcpy(&v, raw.data() + i * 4, 4);
    } else {  // bfloat16: the high half of a float32
      uint16_t b;
      std::memcpy(&b, raw.data() + i * 2, 2);
      const uint32_t bits = uint32_t{b} << 16;
      std::memcpy(&v, &bits, 4);
    }
    dst[i] = narrow(v, name);
  }
  return out;
}

}  // namespace wgk::model

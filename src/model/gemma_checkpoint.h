// A Hugging Face checkpoint on disk: model.safetensors, or shards listed by
// model.safetensors.index.json. Only headers are read when it is opened; each tensor's bytes are
// read when it is asked for, so a 5 GB model never sits in memory whole.
#pragma once

#include <string>
#include <unordered_map>

#include "io/safetensors.h"
#include "wgk/tensor.h"

namespace wgk::model {

class Checkpoint {
 public:
  // Error(NotFound) when the folder holds neither layout; Error(Io) for a malformed file or index.
  static Checkpoint open(const std::string& modelDir);

  bool has(const std::string& name) const { return tensors_.count(name) != 0; }
  // The stored dtype name ("F16", "BF16", "F32", ...) of a tensor that exists.
  const std::string& storedDtype(const std::string& name) const;
  // The tensor as float16 with exactly `shape`: Error(InvalidArgument) naming the tensor and its
  // file when it is missing, shaped otherwise, of a dtype other than F16/BF16/F32, or (BF16, F32)
  // holds a finite value beyond float16's range.
  HostTensor readFloat16(const std::string& name, const Shape& shape) const;
  // readFloat16's checks without reading: a model is checked whole before anything is uploaded.
  void check(const std::string& name, const Shape& shape) const;
  size_t files() const { return files_; }

 private:
  struct Where {
    std::string file;
    uint64_t dataStart = 0;
    SafetensorsEntry entry;
  };
  void addFile(const std::string& path, const std::string& onlyName);
  std::unordered_map<std::string, Where> tensors_;
  size_t files_ = 0;
};

}  // namespace wgk::model

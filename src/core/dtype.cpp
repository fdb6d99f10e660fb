#include "wgk/dtype.h"

#include <string>

#include "core/shape_text.h"
#include "wgk/error.h"

namespace wgk {
namespace {
struct DTypeInfo {
  DType type;
  std::string_view name;
  size_t bytes;
  int onnx;
  std::string_view wgsl;
  std::string_view storageWgsl;
  size_t storageBytes;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::Float32, "float32", 4, 1, "f32", "f32", 4}, {DType::Float16, "float16", 2, 10, "f16", "f16", 2},
    {DType::Int32, "int32", 4, 6, "i32", "i32", 4},     {DType::Uint32, "uint32", 4, 12, "u32", "u32", 4},
    {DType::Int8, "int8", 1, 3, "", "i32", 4},          {DType::Uint8, "uint8", 1, 2, "", "u32", 4},
    {DType::Int16, "int16", 2, 5, "", "i32", 4},        {DType::Int64, "int64", 8, 7, "", "vec2<u32>", 8},
    {DType::Bool, "bool", 1, 9, "", "u32", 4},
};
const DTypeInfo& info(DType t) { return kDTypes[static_cast<size_t>(t)]; }
}  // namespace

std::string_view dtypeName(DType t) { return info(t).name; }
size_t dtypeBytes(DType t) { return info(t).bytes; }
int onnxDtypeCode(DType t) { return info(t).onnx; }
std::string_view wgslScalar(DType t) { return info(t).wgsl; }
std::string_view wgslStorageScalar(DType t) { return info(t).storageWgsl; }
size_t storageBytes(DType t) { return info(t).storageBytes; }

std::optional<DType> dtypeFromName(std::string_view name) {
  for (const auto& d : kDTypes)
    if (d.name == name) return d.type;
  return std::nullopt;
}

DType parseDType(std::string_view name) {
  if (auto t = dtypeFromName(name)) return *t;
  std::string known;
  for (const auto& d : kDTypes) known += (known.empty() ? "" : ", ") + std::string(d.name);
  throw Error(ErrorCode::InvalidArgument, "unknown dtype '" + std::string(name) + "' (known: " + known + ")");
}

int64_t numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n))
      throw Error(ErrorCode::InvalidArgument,
                  "shape " + shapeText(shape) + " has more elements than 64 bits can count");
  return n;
}

}  // namespace wgk

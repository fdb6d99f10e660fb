// wgk/dtype.h — tensor element types, by their ONNX storage names ("float32", "float16", ...).
//
//   wgk::DType t = wgk::parseDType("float16");   // throws wgk::Error(InvalidArgument) if unknown
//   wgk::dtypeBytes(t) == 2; wgk::wgslScalar(t) == "f16"; wgk::onnxDtypeCode(t) == 10;
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "wgk/export.h"

namespace wgk {

enum class DType : uint8_t { Float32, Float16, Int32, Uint32, Int8, Uint8, Int16, Int64, Bool };

WGK_API std::string_view dtypeName(DType t);                       // "float32"
WGK_API std::optional<DType> dtypeFromName(std::string_view name);  // nullopt when unknown
WGK_API DType parseDType(std::string_view name);                    // throws when unknown, listing the known names
WGK_API size_t dtypeBytes(DType t);
WGK_API int onnxDtypeCode(DType t);  // float32 1, uint8 2, int8 3, int16 5, int32 6, int64 7, bool 9, float16 10, uint32 12
// WGSL scalar for storage of this dtype: "f32", "f16", "i32", "u32"; empty when WGSL has none.
WGK_API std::string_view wgslScalar(DType t);
// How a tensor of this dtype is stored on the device (the Hub's storage ABI): int8, int16, uint8
// and bool widen to one 4-byte word per element ("i32" / "u32"), int64 is "vec2<u32>".
WGK_API std::string_view wgslStorageScalar(DType t);
WGK_API size_t storageBytes(DType t);  // bytes per element on the device: 2 for float16, 8 for int64, else 4

using Shape = std::vector<int64_t>;
WGK_API int64_t numel(const Shape& shape);  // product of dims; 1 for a scalar (rank 0); Error(InvalidArgument) on overflow

}  // namespace wgk

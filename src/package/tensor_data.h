// Tensor data as test.json and bench.json describe it, and its materialisation into HostTensors.
//
// Kinds (docs/formats.md):
//   {"kind": "values", "values": [..] | {"$ref": "#/fixtureArrays/name"}}   numbers, or the strings
//        "NaN", "Infinity", "-Infinity" (JSON has no literal for them)
//   {"kind": "fillFloat32", "sinStep": a, "cosStep": b, "scale"?: s}
//        element i = float32(s * (sin(i*a) + cos(i*b))), s defaults to 1
//   {"kind": "random", "seed": S, "min"?: lo, "max"?: hi}                    splitmix64, see below
//   {"kind": "fill", "value": v}                                            every element v
// Every kind is then stored in the tensor's dtype (float16: round to nearest even; integer dtypes
// must receive integral values in range).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "package/json_reader.h"
#include "wgk/tensor.h"

namespace wgk::package {

struct DataSpec {
  enum class Kind { Values, FillFloat32, Random, Fill };
  Kind kind = Kind::Random;
  std::vector<double> values;                  // Values (after $ref resolution)
  double sinStep = 0, cosStep = 0, scale = 1;  // FillFloat32
  uint64_t seed = 0;                           // Random
  double min = -1, max = 1;                    // Random
  double value = 0;                            // Fill
};

using FixtureArrays = std::map<std::string, std::vector<double>>;

// Parses a data object; `$ref`s resolve against `fixtures`. Errors name the JSON path.
DataSpec parseDataSpec(const Json& j, const std::string& path, const FixtureArrays& fixtures);
// A number list that may hold "NaN" / "Infinity" / "-Infinity" strings.
std::vector<double> parseNumberList(const Json& j, const std::string& path);

// Error(Manifest) at `path` unless every value the data gives fits `dtype`: an integer dtype given
// a fraction, NaN or a value out of its range (random data: by its min and max). Checked when
// test.json / bench.json load, before anything is generated. Floats take any number: beyond their
// range they are stored as +-inf on purpose (the Hub harness's Float32Array does the same).
void checkDataFitsDtype(const DataSpec& spec, DType dtype, const std::string& path);

// test.json / bench.json data is generated on the host a chunk at a time straight into the tensor:
// a tensor of more bytes than this is refused before anything is allocated (the largest bench case,
// Gather's 256000 x 2048 float16 embedding table, holds 1,000 MiB).
inline constexpr uint64_t kMaxMaterializedBytes = uint64_t{1} << 31;

// The element values as doubles (before dtype rounding). Values must have exactly `count` entries.
std::vector<double> generateValues(const DataSpec& spec, int64_t count);
HostTensor materialize(const DataSpec& spec, DType dtype, const Shape& shape);

// splitmix64 uniform in [0, 1): state += 0x9E3779B97F4A7C15, then the standard mix; 53 bits.
double splitmixUniform(uint64_t& state);
// FNV-1a 64-bit: the default bench seed is fnv1a64("<case name>:<arg name>").
uint64_t fnv1a64(std::string_view text);

}  // namespace wgk::package

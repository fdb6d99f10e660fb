#include "package/tensor_data.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/half.h"
#include "wgk/error.h"

namespace wgk::package {

std::vector<double> parseNumberList(const Json& j, const std::string& path) {
  readArray(j, path);
  std::vector<double> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    const Json& e = j[i];
    if (e.is_number()) {
      out.push_back(e.get<double>());
    } else if (e.is_string() && e.get<std::string>() == "NaN") {
      out.push_back(std::numeric_limits<double>::quiet_NaN());
    } else if (e.is_string() && e.get<std::string>() == "Infinity") {
      out.push_back(std::numeric_limits<double>::infinity());
    } else if (e.is_string() && e.get<std::string>() == "-Infinity") {
      out.push_back(-std::numeric_limits<double>::infinity());
    } else {
      schemaError(jsonPath(path, i),
                  "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\"), got " + e.dump());
    }
  }
  return out;
}

DataSpec parseDataSpec(const Json& j, const std::string& path, const FixtureArrays& fixtures) {
  ObjectReader r(j, path);
  DataSpec d;
  const std::string kind = readString(r.required("kind"), r.path("kind"));
  if (kind == "values") {
    d.kind = DataSpec::Kind::Values;
    const Json& v = r.required("values");
    if (v.is_object()) {
      ObjectReader ref(v, r.path("values"));
      const std::string target = readString(ref.required("$ref"), ref.path("$ref"));
      ref.finish();
      const std::string prefix = "#/fixtureArrays/";
      if (!target.starts_with(prefix))
        schemaError(ref.path("$ref"),
                    "a $ref must look like \"#/fixtureArrays/<name>\", got \"" + target + "\"");
      auto it = fixtures.find(target.substr(prefix.size()));
      if (it == fixtures.end())
        schemaError(ref.path("$ref"), "no fixture array '" + target.substr(prefix.size()) + "'");
      d.values = it->second;
    } else {
      d.values = parseNumberList(v, r.path("values"));
    }
  } else if (kind == "fillFloat32") {
    d.kind = DataSpec::Kind::FillFloat32;
    d.sinStep = readNumber(r.required("sinStep"), r.path("sinStep"));
    d.cosStep = readNumber(r.required("cosStep"), r.path("cosStep"));
    if (auto* v = r.optional("scale")) d.scale = readNumber(*v, r.path("scale"));
  } else if (kind == "random") {
    d.kind = DataSpec::Kind::Random;
    const Json& seed = r.required("seed");
    if (!seed.is_number_integer() && !seed.is_number_unsigned())
      schemaError(r.path("seed"), "expected an integer seed");
    d.seed = seed.is_number_unsigned() ? seed.get<uint64_t>() : static_cast<uint64_t>(seed.get<int64_t>());
    if (auto* v = r.optional("min")) d.min = readNumber(*v, r.path("min"));
    if (auto* v = r.optional("max")) d.max = readNumber(*v, r.path("max"));
    if (!(d.min <= d.max)) schemaError(path, "random data needs min <= max");
  } else if (kind == "fill") {
    d.kind = DataSpec::Kind::Fill;
    d.value = parseNumberList(Json::array({r.required("value")}), r.path("value")).front();
  } else {
    schemaError(r.path("kind"),
                "unknown data kind '" + kind + "' (known: values, fillFloat32, random, fill)");
  }
  r.finish();
  return d;
}

double splitmixUniform(uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

uint64_t fnv1a64(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace {

// Why `v` cannot be stored as `dtype`, or "" when it can. Floats take any number: a finite value
// beyond the dtype's range is stored as +-inf on purpose, as the Hub harness's Float32Array does
// (FastGelu's f32_infinite_inputs / f16_infinite_inputs write infinities as 1e39 and 1e5).
std::string misfit(double v, DType dtype) {
  if (dtype == DType::Float32 || dtype == DType::Float16) return "";
  double lo = 0, hi = 0;
  switch (dtype) {
    case DType::Int8:
      lo = -128, hi = 127;
      break;
    case DType::Uint8:
      lo = 0, hi = 255;
      break;
    case DType::Int16:
      lo = -32768, hi = 32767;
      break;
    case DType::Int32:
      lo = -2147483648.0, hi = 2147483647.0;
      break;
    case DType::Uint32:
      lo = 0, hi = 4294967295.0;
      break;
    case DType::Int64:
      lo = -9.2e18, hi = 9.2e18;
      break;
    case DType::Bool:
      lo = 0, hi = 1;
      break;
    default:
      break;
  }
  if (!(v == std::floor(v)) || v < lo || v > hi) return "does not fit " + std::string(dtypeName(dtype));
  return "";
}

std::string numberText(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

void checkDataFitsDtype(const DataSpec& spec, DType dtype, const std::string& path) {
  auto check = [&](double v, const std::string& where) {
    if (const std::string why = misfit(v, dtype); !why.empty())
      schemaError(path, where + numberText(v) + " " + why);
  };
  switch (spec.kind) {
    case DataSpec::Kind::Values:
      for (size_t i = 0; i < spec.values.size(); ++i)
        check(spec.values[i], "value " + std::to_string(i) + " = ");
      return;
    case DataSpec::Kind::Fill:
      check(spec.value, "fill value = ");
      return;
    case DataSpec::Kind::Random: {
      // Integer tensors take the floor of a uniform value in [min, max) (materialize).
      const double top =
          spec.max == std::floor(spec.max) && spec.max > spec.min ? spec.max - 1 : std::floor(spec.max);
      check(std::floor(spec.min), "random min = ");
      check(top, "random max (largest value) = ");
      return;
    }
    case DataSpec::Kind::FillFloat32:
      return;  // floats only (an integer dtype is refused when the fractions are stored)
  }
}

namespace {

// Element values [first, first + out.size()) of `spec` (before dtype rounding); `state` carries the
// random stream from one chunk to the next (chunks are generated in order).
void generateChunk(const DataSpec& spec, int64_t first, std::span<double> out, uint64_t& state) {
  const auto n = static_cast<int64_t>(out.size());
  switch (spec.kind) {
    case DataSpec::Kind::Values:
      std::copy_n(spec.values.begin() + first, n, out.begin());
      return;
    case DataSpec::Kind::FillFloat32:
      for (int64_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(first + i);
        // Rounded through float32 as the name says (the Hub harness fills a Float32Array).
        out[i] = static_cast<float>(spec.scale * (std::sin(x * spec.sinStep) + std::cos(x * spec.cosStep)));
      }
      return;
    case DataSpec::Kind::Random:
      for (int64_t i = 0; i < n; ++i) out[i] = spec.min + (spec.max - spec.min) * splitmixUniform(state);
      return;
    case DataSpec::Kind::Fill:
      std::fill(out.begin(), out.end(), spec.value);
      return;
  }
}

void checkValueCount(const DataSpec& spec, int64_t count) {
  if (count < 0) throw Error(ErrorCode::InvalidArgument, "negative element count");
  if (spec.kind == DataSpec::Kind::Values && static_cast<int64_t>(spec.values.size()) != count)
    throw Error(ErrorCode::Manifest, "data has " + std::to_string(spec.values.size()) +
                                         " values but the shape holds " + std::to_string(count) +
                                         " elements");
}

// The element count of `shape`, or an error naming the shape when its tensor would hold more than
// kMaxMaterializedBytes of `dtype` (checked dimension by dimension, so no product overflows).
int64_t countWithinLimit(DType dtype, const Shape& shape) {
  const uint64_t maxElements = kMaxMaterializedBytes / dtypeBytes(dtype);
  uint64_t count = 1;
  bool tooMany = false;
  for (int64_t d : shape) {
    if (d < 0)
      throw Error(ErrorCode::Manifest, "negative dimension " + std::to_string(d) + " in a tensor shape");
    if (d != 0 && count > maxElements / static_cast<uint64_t>(d)) tooMany = true;
    count = tooMany ? count : count * static_cast<uint64_t>(d);
  }
  if (tooMany && std::find(shape.begin(), shape.end(), int64_t{0}) == shape.end()) {
    std::string text;
    for (int64_t d : shape) text += (text.empty() ? "" : ", ") + std::to_string(d);
    throw Error(ErrorCode::Manifest, "tensor shape [" + text + "] of " + std::string(dtypeName(dtype)) +
                                         " holds more than " + std::to_string(kMaxMaterializedBytes) +
                                         " bytes, the limit for test and bench data (nothing was allocated)");
  }
  return tooMany ? 0 : static_cast<int64_t>(count);
}

}  // namespace

std::vector<double> generateValues(const DataSpec& spec, int64_t count) {
  checkValueCount(spec, count);
  std::vector<double> out(static_cast<size_t>(count));
  uint64_t state = spec.seed;
  generateChunk(spec, 0, out, state);
  return out;
}

HostTensor materialize(const DataSpec& spec, DType dtype, const Shape& shape) {
  const int64_t count = countWithinLimit(dtype, shape);
  checkValueCount(spec, count);
  // Integer tensors get the floor of a random value, so min/max bound them as expected.
  const bool floorRandom =
      dtype != DType::Float32 && dtype != DType::Float16 && spec.kind == DataSpec::Kind::Random;
  constexpr int64_t kChunk = int64_t{1} << 16;
  std::vector<double> chunk(static_cast<size_t>(std::min(count, kChunk)));
  if (count <= kChunk) {  // one piece: no copy
    uint64_t state = spec.seed;
    generateChunk(spec, 0, chunk, state);
    if (floorRandom)
      for (double& x : chunk) x = std::floor(x);
    return HostTensor::fromDoubles(dtype, shape, chunk);
  }
  HostTensor out(dtype, shape);
  const size_t elementBytes = dtypeBytes(dtype);
  uint64_t state = spec.seed;
  for (int64_t first = 0; first < count; first += kChunk) {
    const int64_t n = std::min(kChunk, count - first);
    std::span<double> part(chunk.data(), static_cast<size_t>(n));
    generateChunk(spec, first, part, state);
    if (floorRandom)
      for (double& x : part) x = std::floor(x);
    const HostTensor piece = HostTensor::fromDoubles(dtype, {n}, part);
    std::copy(piece.bytes().begin(), piece.bytes().end(),
              out.bytes().begin() + static_cast<ptrdiff_t>(first * elementBytes));
  }
  return out;
}

}  // namespace wgk::package

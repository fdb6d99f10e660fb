#include "reference/compare.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "core/shape_text.h"
#include "core/half.h"
#include "wgk/error.h"

namespace wgk {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Position of a float value on the number line of its format: sign-magnitude bits made
// two's-complement-ordered, so that adjacent representable values differ by 1 and -0 == +0.
int64_t orderedBits(DType t, double v) {
  if (t == DType::Float16) {
    const uint16_t b = floatToHalf(static_cast<float>(v));
    const int64_t mag = b & 0x7fff;
    return (b & 0x8000) ? -mag : mag;
  }
  const float f = static_cast<float>(v);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  const int64_t mag = b & 0x7fffffffu;
  return (b & 0x80000000u) ? -mag : mag;
}

bool isFloat(DType t) {
  return t == DType::Float32 || t == DType::Float16;
}

}  // namespace

double ulpDistance(DType t, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kInf;
  if (!isFloat(t)) return std::fabs(a - b);
  return static_cast<double>(std::llabs(orderedBits(t, a) - orderedBits(t, b)));
}

Tolerance parseTolerance(const nlohmann::json& j) {
  if (!j.is_object()) throw Error(ErrorCode::Manifest, "tolerance must be an object like {\"abs\": 1e-3}");
  Tolerance t;
  for (const auto& [k, v] : j.items()) {
    if (k == "allowNaN") {
      if (!v.is_boolean()) throw Error(ErrorCode::Manifest, "tolerance allowNaN must be true or false");
      t.allowNaN = v.get<bool>();
      continue;
    }
    if (k != "abs" && k != "rel" && k != "ulp")
      throw Error(ErrorCode::Manifest,
                  "unknown tolerance field '" + k + "' (expected abs, rel, ulp, allowNaN)");
    if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
      throw Error(ErrorCode::Manifest,
                  "tolerance " + k + " must be a non-negative number (got " + v.dump() + ")");
    (k == "abs" ? t.abs : k == "rel" ? t.rel : t.ulp) = v.get<double>();
  }
  return t;
}

CompareResult compareTensors(const HostTensor& got, const HostTensor& want, const Tolerance& tol) {
  for (const auto& v : {tol.abs, tol.rel, tol.ulp})
    if (v && !(*v >= 0)) throw Error(ErrorCode::InvalidArgument, "tolerances must be non-negative numbers");
  CompareResult r;
  if (got.dtype() != want.dtype()) {
    r.reason = fmt::format("dtype differs: got {}, want {}", dtypeName(got.dtype()), dtypeName(want.dtype()));
    return r;
  }
  if (got.shape() != want.shape()) {
    r.reason = "shape differs: got " + shapeText(got.shape()) + ", want " + shapeText(want.shape());
    return r;
  }
  const DType t = got.dtype();
  const bool byValue = tol.abs || tol.rel;
  const bool exact = !byValue && !tol.ulp;
  const int64_t n = got.numel();
  r.count = n;
  for (int64_t i = 0; i < n; ++i) {
    const double g = got.at(i), w = want.at(i);
    bool ok;
    double absErr, ulpErr;
    if (std::isnan(w) || std::isnan(g)) {
      ok = std::isnan(w) && std::isnan(g) && tol.allowNaN;
      absErr = ulpErr = ok ? 0 : kInf;
    } else if (std::isinf(w) || std::isinf(g)) {
      ok = g == w;
      absErr = ok ? 0 : kInf;
      ulpErr = ok ? 0 : ulpDistance(t, g, w);
    } else {
      absErr = std::fabs(g - w);
      ulpErr = ulpDistance(t, g, w);
      if (exact)
        ok = absErr == 0;
      else
        ok = (byValue && absErr <= tol.abs.value_or(0) + tol.rel.value_or(0) * std::fabs(w)) ||
             (tol.ulp && ulpErr <= *tol.ulp);
    }
    r.maxAbsError = std::max(r.maxAbsError, absErr);
    r.maxUlpError = std::max(r.maxUlpError, ulpErr);
    if (!ok) {
      if (r.failedCount == 0) {
        r.firstFailIndex = i;
        r.gotAtFail = g;
        r.wantAtFail = w;
      }
      ++r.failedCount;
    }
  }
  r.pass = r.failedCount == 0;
  return r;
}

std::string CompareResult::summary() const {
  if (!reason.empty()) return "fail: " + reason;
  std::string s = fmt::format("{}, {} elements, max abs error {:.6g}, max ulp error {:.6g}",
                              pass ? "pass" : "fail", count, maxAbsError, maxUlpError);
  if (!pass)
    s += fmt::format("; {} failed, first at index {} (got {:.9g}, want {:.9g})", failedCount, firstFailIndex,
                     gotAtFail, wantAtFail);
  return s;
}

}  // namespace wgk

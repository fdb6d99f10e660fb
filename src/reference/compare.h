// Comparing a computed tensor with an expected one under a test.json tolerance.
//
// An element passes when |got - want| <= abs + rel*|want| (if abs or rel is given) OR the ulp
// distance in the dtype is <= ulp (if given); with no tolerance at all it must be equal. NaN passes
// only where want is NaN and allowNaN is set; an infinity matches only the same infinity. -0 == +0.
// Ulp distance counts representable values between the two (binary16 / binary32 bit patterns in
// sign-magnitude order); for integer dtypes it is the integer difference.
//
//   wgk::Tolerance tol = wgk::parseTolerance(json["tolerance"]);  // {"abs"?, "rel"?, "ulp"?, "allowNaN"?}
//   wgk::CompareResult r = wgk::compareTensors(got, want, tol);
//   if (!r.pass) std::cerr << r.summary() << "\n";
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "wgk/tensor.h"

namespace wgk {

struct Tolerance {
  std::optional<double> abs;
  std::optional<double> rel;
  std::optional<double> ulp;
  bool allowNaN = false;
};

// Reads {"abs"?: a, "rel"?: r, "ulp"?: n, "allowNaN"?: bool}; values must be non-negative numbers.
// Error(Manifest) naming the field otherwise (unknown fields too).
Tolerance parseTolerance(const nlohmann::json& j);

struct CompareResult {
  bool pass = false;
  std::string reason;  // non-empty when the tensors could not be compared (dtype or shape differ)
  int64_t count = 0;   // elements compared
  int64_t failedCount = 0;
  double maxAbsError = 0;       // +inf when a mismatch involves inf or NaN
  double maxUlpError = 0;       // +inf when a mismatch involves NaN
  int64_t firstFailIndex = -1;  // flat C-order index, -1 when none failed
  double gotAtFail = 0, wantAtFail = 0;
  std::string summary() const;  // one line: "pass, max abs 1e-3, max ulp 2" or why it failed
};

// Never throws for mismatched tensors (the result says why); throws Error(InvalidArgument) for a
// negative or NaN tolerance.
CompareResult compareTensors(const HostTensor& got, const HostTensor& want, const Tolerance& tol);

// Ulp distance between two values of dtype t given as doubles (exactly representable in t);
// +inf when either is NaN. Exposed for tests and reports.
double ulpDistance(DType t, double a, double b);

}  // namespace wgk

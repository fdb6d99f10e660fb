// Runs test.json cases on a device and checks them against expected data or the CPU reference
// (`wgk test`, `wgk demo`). One result per (case, variant).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "package/test_spec.h"
#include "plan/plan.h"
#include "reference/compare.h"
#include "wgk/runtime.h"

namespace wgk::harness {

struct TestSelection {
  std::string caseName;      // empty: every case
  std::string variant;       // force this variant (cases where it is not eligible are skipped)
  bool allVariants = false;  // every variant eligible for each case
};

struct TestOutcome {
  std::string caseName, variant, selectedBy;
  std::string status;  // "pass", "fail", "skip", "error"
  std::string detail;  // failing output summary, skip reason or error text
  double maxAbsError = 0, maxUlpError = 0;
  double gpuUs = -1;
  std::string shapes;       // the first input's dtype and shape, for tables
  bool deviceLost = false;  // the error was Error(DeviceLost): a GPU deadline or a driver reset
  nlohmann::json toJson() const;
};

struct TestSummary {
  std::vector<TestOutcome> outcomes;
  int passed = 0, failed = 0, skipped = 0;
};

// The variant ids to run a request on: {""} (the planner's choice) unless `variant` is forced or
// `allVariants` asks for every eligible one; empty, with *skipReason set, when none applies.
// Shared by `wgk test` and `wgk bench`.
std::vector<std::string> selectVariants(Kernel& kernel, const plan::PlanRequest& request,
                                        const std::string& variant, bool allVariants,
                                        std::string* skipReason);

// The variant ids to run a case on: the selected one, the forced one, or every eligible one.
std::vector<std::string> variantsForCase(Kernel& kernel, const package::TestCase& c, const TestSelection& sel,
                                         std::string* skipReason);

// A case's inputs and expected outputs (given data, or the CPU reference's), built once and
// shared by every variant the case runs on.
struct PreparedCase {
  std::map<std::string, HostTensor> inputs;
  std::map<std::string, HostTensor> expected;
};
PreparedCase prepareCase(const std::string& opId, const package::TestCase& c);

// Runs one case on one variant ("" = the planner's choice). Never throws for a failing kernel:
// errors become an "error" outcome naming what went wrong.
TestOutcome runTestCase(Kernel& kernel, const package::TestCase& c, const PreparedCase& prepared,
                        const std::string& variant);

// Loads <package>/build/webgpu/test.json and runs the selection; `onOutcome` sees each result as
// it completes (for progress lines). After the first case that loses the device (a shader past the
// GPU deadline), the remaining cases are not run but skipped, saying why: a package whose shader
// never ends would otherwise wait the deadline once per case.
// `onCase(index, total, name)` is called before each selected case (for a progress line).
TestSummary runTests(Kernel& kernel, const TestSelection& sel,
                     const std::function<void(const TestOutcome&)>& onOutcome = nullptr,
                     const std::function<void(size_t, size_t, const std::string&)>& onCase = nullptr);

// The names of test.json's cases in file order (column widths before the first row is printed).
std::vector<std::string> testCaseNames(Kernel& kernel);

Tolerance toleranceOf(const package::ExpectedOutput& o);

}  // namespace wgk::harness

// The log facility (core/log.h): levels parse, the threshold filters, the sink gets formatted lines.
#include "core/log.h"

#include <gtest/gtest.h>

#include <vector>

namespace wgk::log {
namespace {

struct Captured {
  std::vector<std::string> lines;
  Captured() {
    setSink([this](Level, const std::string& line) { lines.push_back(line); });
  }
  ~Captured() {
    setSink({});
    setThreshold(Level::Warn);
  }
};

TEST(Log, ParsesLevelNames) {
  EXPECT_EQ(parseLevel("warn"), Level::Warn);
  EXPECT_EQ(parseLevel("warning"), Level::Warn);
  EXPECT_EQ(parseLevel("info"), Level::Info);
  EXPECT_EQ(parseLevel("debug"), Level::Debug);
  EXPECT_EQ(parseLevel("error"), Level::Error);
  EXPECT_FALSE(parseLevel("loud").has_value());
}

TEST(Log, QuietByDefaultBelowWarn) {
  Captured c;
  setThreshold(Level::Warn);
  info("dawn", "maxDynamicUniformBuffersPerPipelineLayout artificially reduced");
  debug("dawn", "verbose");
  warn("gpu", "a warning");
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], "wgk: warning: [gpu] a warning");
}

TEST(Log, VerboseShowsInfoAndDebugAndTrimsNewlines) {
  Captured c;
  setThreshold(Level::Debug);
  EXPECT_TRUE(enabled(Level::Info));
  info("dawn", "reduced\n");
  debug("", "plain");
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_EQ(c.lines[0], "wgk: info: [dawn] reduced");
  EXPECT_EQ(c.lines[1], "wgk: debug: plain");
}

TEST(Log, ErrorOnlyThresholdHidesWarnings) {
  Captured c;
  setThreshold(Level::Error);
  warn("gpu", "hidden");
  error("gpu", "shown");
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], "wgk: error: [gpu] shown");
}

}  // namespace
}  // namespace wgk::log

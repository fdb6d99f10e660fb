// gpu/pass_time.h: a pass's time from its timestamps, never counting the previous pass's tail.
#include "gpu/pass_time.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace wgk::gpu {
namespace {

TEST(PassDurations, StampsInSequenceGiveEachPassItsOwnInterval) {
  const std::vector<uint64_t> stamps{100, 110, 115, 140, 150, 155};
  const std::vector<uint8_t> ran{1, 1, 1};
  EXPECT_EQ(passDurations(stamps, ran), (std::vector<uint64_t>{10, 25, 5}));
}

// Dawn on Vulkan stamps a pass's beginning at TOP_OF_PIPE: pass 2 may be stamped at 105 while pass
// 1 runs until 120. Pass 2 then ran from 120 to 130, not from 105: 15 us of pass 1 counted twice.
TEST(PassDurations, ABeginningStampedBeforeThePreviousEndCountsFromThatEnd) {
  const std::vector<uint64_t> stamps{100, 120, 105, 130, 131, 140};
  const std::vector<uint8_t> ran{1, 1, 1};
  const std::vector<uint64_t> ns = passDurations(stamps, ran);
  EXPECT_EQ(ns, (std::vector<uint64_t>{20, 10, 9}));
  uint64_t sum = 0;
  for (uint64_t v : ns) sum += v;
  EXPECT_LE(sum, stamps.back() - stamps.front()) << "the passes never add up to more than their span";
}

TEST(PassDurations, SkippedDispatchesGetZeroAndDoNotBreakTheChain) {
  // Dispatch 1 was skipped (zero workgroups): its queries were never written (resolved as 0).
  const std::vector<uint64_t> stamps{100, 120, 0, 0, 110, 150};
  const std::vector<uint8_t> ran{1, 0, 1};
  EXPECT_EQ(passDurations(stamps, ran), (std::vector<uint64_t>{20, 0, 30}));
}

TEST(PassDurations, AnEndBeforeItsBeginningGivesZero) {
  const std::vector<uint64_t> stamps{100, 90, 200, 260};
  const std::vector<uint8_t> ran{1, 1};
  EXPECT_EQ(passDurations(stamps, ran), (std::vector<uint64_t>{0, 60}));
}

TEST(PassDurations, FewerStampsThanDispatchesLeavesTheRestAtZero) {
  const std::vector<uint64_t> stamps{100, 130};
  const std::vector<uint8_t> ran{1, 1};
  EXPECT_EQ(passDurations(stamps, ran), (std::vector<uint64_t>{30, 0}));
}

}  // namespace
}  // namespace wgk::gpu

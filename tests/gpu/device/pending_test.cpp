// gpu::Pending (gpu/pending.h): several ranges read back in one copy and mapping, unaligned and
// empty ranges, waiting by polls, reading the bytes after the poll, a second readback after the
// first was released, and the queue's work waited for in steps.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "test_device.h"
#include "wgk/error.h"

namespace wgk::gpu::test {
namespace {

Buffer filled(uint64_t n, uint8_t from) {
  std::vector<uint8_t> data(n);
  std::iota(data.begin(), data.end(), from);
  Buffer b =
      sharedDevice().createBuffer(n, BufferUsage::Storage | BufferUsage::CopyDst | BufferUsage::CopySrc);
  b.upload(bytesOf(data));
  return b;
}

TEST(Pending, ReadsSeveralRangesInOneMappingByPolls) {
  Device& dev = sharedDevice();
  Buffer a = filled(64, 0), b = filled(32, 100);
  const Pending::Range ranges[] = {
      {a.handle(), 13, 7}, {b.handle(), 0, 32}, {a.handle(), 0, 0}, {b.handle(), 30, 2}};
  Pending r = dev.readLater(ranges);
  EXPECT_TRUE(r.canBlock());
  while (!r.poll(0)) {
  }
  ASSERT_TRUE(r.done());
  ASSERT_EQ(r.bytes(0).size(), 7u);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(static_cast<uint8_t>(r.bytes(0)[i]), 13 + i);
  ASSERT_EQ(r.bytes(1).size(), 32u);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(static_cast<uint8_t>(r.bytes(1)[i]), 100 + i);
  EXPECT_TRUE(r.bytes(2).empty());
  ASSERT_EQ(r.bytes(3).size(), 2u);
  EXPECT_EQ(static_cast<uint8_t>(r.bytes(3)[0]), 130);
  EXPECT_EQ(static_cast<uint8_t>(r.bytes(3)[1]), 131);
  EXPECT_THROW(r.bytes(4), Error);
  r.release();
  EXPECT_FALSE(r.done());  // released: empty
  // The staging buffer went back to the device; the next readback (which may take it) reads anew.
  Pending again = dev.readLater(ranges);
  again.wait();
  EXPECT_EQ(static_cast<uint8_t>(again.bytes(1)[5]), 105);
}

TEST(Pending, BadRangesAreInvalidArgumentAndIdleWaits) {
  Device& dev = sharedDevice();
  Buffer a = filled(16, 0);
  const Pending::Range outside{a.handle(), 8, 16};
  EXPECT_THROW(dev.readLater({&outside, 1}), Error);
  const Pending::Range null{nullptr, 0, 4};
  EXPECT_THROW(dev.readLater({&null, 1}), Error);
  Pending idle = dev.idleLater();
  while (!idle.poll(1'000'000)) {
  }
  EXPECT_TRUE(idle.done());
}

// Dropped before its mapping finished: nothing leaks or crashes, and the device goes on.
TEST(Pending, DroppedUnfinishedLeavesTheDeviceUsable) {
  Device& dev = sharedDevice();
  Buffer a = filled(64, 0);
  const Pending::Range range{a.handle(), 0, 64};
  { Pending r = dev.readLater({&range, 1}); }
  uint8_t out[4] = {};
  a.readback(out, 4, 4);
  EXPECT_EQ(out[0], 4);
}

}  // namespace
}  // namespace wgk::gpu::test

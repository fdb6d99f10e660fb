// Device creation, the profile, buffers (upload/readback round trips), wrapping and device loss.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <numeric>

#include <nlohmann/json.hpp>

#include "test_device.h"
#include "wgk/error.h"

namespace wgk::gpu::test {
namespace {

TEST(Device, ProfileShowsVulkanAdapterWithTheFeaturesKernelsNeed) {
  const DeviceProfile& p = sharedDevice().profile();
  EXPECT_EQ(p.adapterInfoStrings.at("backendType"), "vulkan");
  EXPECT_FALSE(p.adapterInfoStrings.at("description").empty());
  const std::string type = p.adapterInfoStrings.at("adapterType");
  EXPECT_TRUE(type == "cpu" || type == "discrete-gpu" || type == "integrated-gpu") << type;
  EXPECT_TRUE(p.hasFeature("shader-f16"));
  EXPECT_TRUE(p.hasFeature("subgroups"));
  EXPECT_TRUE(p.hasFeature("timestamp-query"));
  EXPECT_GE(p.adapterInfoNumbers.at("subgroupMinSize"), 1);
  EXPECT_GE(p.adapterInfoNumbers.at("subgroupMaxSize"), p.adapterInfoNumbers.at("subgroupMinSize"));
  for (const char* limit :
       {"maxComputeWorkgroupsPerDimension", "maxStorageBufferBindingSize", "maxBufferSize",
        "maxComputeInvocationsPerWorkgroup", "maxComputeWorkgroupSizeX", "maxComputeWorkgroupStorageSize",
        "minStorageBufferOffsetAlignment", "maxBindGroups"})
    EXPECT_GT(p.limit(limit), 0u) << limit;
  EXPECT_GE(p.limit("maxComputeWorkgroupsPerDimension"), 65535u);
  EXPECT_FALSE(p.wgslLanguageFeatures.empty());
  // Every device feature is one the adapter offers.
  for (const auto& f : p.features) EXPECT_TRUE(sharedDevice().adapterFeatures().count(f)) << f;
}

TEST(Device, ProfileJsonRoundTrips) {
  const DeviceProfile& p = sharedDevice().profile();
  DeviceProfile back = DeviceProfile::fromJsonText(p.toJsonText());
  EXPECT_EQ(back.features, p.features);
  EXPECT_EQ(back.limits, p.limits);
  EXPECT_EQ(back.adapterInfoStrings, p.adapterInfoStrings);
}

TEST(Buffer, RoundTripOfOddSizes) {
  Device& dev = sharedDevice();
  for (uint64_t size : {1u, 2u, 3u, 4u, 5u, 6u, 1023u, 4096u, 100003u}) {
    std::vector<uint8_t> data(size);
    for (uint64_t i = 0; i < size; ++i) data[i] = static_cast<uint8_t>(i * 31 + 7);
    Buffer b = dev.createBuffer(size, BufferUsage::Storage | BufferUsage::CopyDst | BufferUsage::CopySrc);
    EXPECT_EQ(b.requestedSize(), size);
    EXPECT_EQ(b.size() % 4, 0u);
    EXPECT_GE(b.size(), size);
    b.upload(bytesOf(data));
    std::vector<std::byte> back = b.readback();
    ASSERT_EQ(back.size(), size);
    EXPECT_EQ(std::memcmp(back.data(), data.data(), size), 0) << "size " << size;
  }
}

TEST(Buffer, ZeroSizeAllocatesSixteenBytesAndReadsNothing) {
  Buffer b =
      sharedDevice().createBuffer(0, BufferUsage::Storage | BufferUsage::CopySrc | BufferUsage::CopyDst);
  EXPECT_EQ(b.size(), 16u);  // an empty tensor still binds as array<vec4<f32>>
  EXPECT_EQ(b.requestedSize(), 0u);
  b.upload({});
  EXPECT_TRUE(b.readback().empty());
}

TEST(Buffer, ReadsAnUnalignedRange) {
  std::vector<uint8_t> data(64);
  std::iota(data.begin(), data.end(), 0);
  Buffer b =
      sharedDevice().createBuffer(64, BufferUsage::Storage | BufferUsage::CopyDst | BufferUsage::CopySrc);
  b.upload(bytesOf(data));
  uint8_t part[7] = {};
  b.readback(part, 7, 13);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(part[i], 13 + i);
}

TEST(Buffer, BadRangesAreInvalidArgument) {
  Buffer b =
      sharedDevice().createBuffer(16, BufferUsage::Storage | BufferUsage::CopyDst | BufferUsage::CopySrc);
  uint8_t x[32] = {};
  try {
    b.readback(x, 32, 0);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
  }
  try {
    b.upload(std::as_bytes(std::span(x, 4)), 2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
  }
}

TEST(Buffer, LargerThanMaxBufferSizeIsOutOfMemory) {
  Device& dev = sharedDevice();
  try {
    dev.createBuffer(dev.profile().limit("maxBufferSize") + 1024, BufferUsage::Storage);
    FAIL() << "expected Error(OutOfMemory)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("maxBufferSize"), std::string::npos) << e.what();
  }
}

TEST(Device, WrapAddsAReferenceAndWorks) {
  Device& dev = sharedDevice();
  {
    Device wrapped = Device::wrap(dev.handle());
    EXPECT_EQ(wrapped.profile().features, dev.profile().features);
    std::vector<uint32_t> v = {1, 2, 3, 4};
    Buffer b = wrapped.createBuffer(16, BufferUsage::Storage | BufferUsage::CopyDst | BufferUsage::CopySrc);
    b.upload(bytesOf(v));
    EXPECT_EQ(readAll<uint32_t>(b, 4), v);
  }
  // The wrapper released only its own reference: the original device still works.
  Buffer b = dev.createBuffer(8, BufferUsage::Storage | BufferUsage::CopySrc);
  EXPECT_EQ(b.readback().size(), 8u);
  EXPECT_FALSE(dev.isLost());
}

TEST(Device, WrapOfNullIsInvalidArgument) {
  try {
    Device::wrap(nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
  }
}

void expectDeviceLost(const std::function<void()>& fn, const char* what) {
  try {
    fn();
    ADD_FAILURE() << what << ": expected Error(DeviceLost)";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::DeviceLost) << what << ": " << e.what();
  }
}

TEST(Device, AfterLossEveryCallThrowsDeviceLost) {
  Device dev = Device::create();
  Buffer before = dev.createBuffer(16, BufferUsage::Storage | BufferUsage::CopySrc | BufferUsage::CopyDst);
  ComputePipeline pipe = dev.createComputePipeline(
      "@group(0) @binding(0) var<storage, read_write> o : array<u32>;\n"
      "@compute @workgroup_size(1) fn main() { o[0] = 1u; }\n",
      {BindingKind::Storage}, "lost-test");
  dev.simulateLoss("simulated by the test");
  EXPECT_TRUE(dev.isLost());
  expectDeviceLost([&] { dev.createBuffer(16, BufferUsage::Storage); }, "createBuffer");
  expectDeviceLost([&] { before.readback(); }, "readback");
  uint32_t word = 0;
  expectDeviceLost([&] { before.upload(std::as_bytes(std::span(&word, 1))); }, "upload");
  expectDeviceLost([&] { dev.createComputePipeline("bad", {}, "x"); }, "createComputePipeline");
  expectDeviceLost([&] { dev.recorder(); }, "recorder");
  expectDeviceLost([&] { dev.waitIdle(); }, "waitIdle");
  try {
    dev.waitIdle();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("simulated by the test"), std::string::npos) << e.what();
  }
}

TEST(Device, DestroyedDeviceThrowsDeviceLost) {
  Device dev = Device::create();
  dev.destroy();
  expectDeviceLost([&] { dev.createBuffer(4, BufferUsage::Storage); }, "createBuffer after destroy");
}

}  // namespace
}  // namespace wgk::gpu::test

// .npy and .safetensors readers (src/io): the first byte picks the reader.
#include <span>

#include "fuzz_common.h"
#include "io/npy.h"
#include "io/safetensors.h"

using namespace wgk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  fuzz::expectOnlyWgkErrors([&] {
    if (data[0] & 1) {
      HostTensor t = parseNpy(bytes);
      (void)encodeNpy(t);
    } else {
      SafetensorsFile f = parseSafetensors(bytes);
      (void)f;
    }
  });
  return 0;
}

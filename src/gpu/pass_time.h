// A pass's GPU time from its two timestamps, counted only once the pass before it has ended.
// Dawn's Vulkan backend writes a compute pass's beginning timestamp at VK_PIPELINE_STAGE_TOP_OF_PIPE
// before the pass's barriers, and its end timestamp at BOTTOM_OF_PIPE: the beginning of pass i can
// be stamped as soon as the command processor reaches it, while pass i - 1 is still running (the
// barrier inside pass i then waits for it). end_i - begin_i then also counts the tail of pass i - 1,
// once in each pass, so a chain of passes summed to more than its span. A pass's own time is
// end_i - max(begin_i, end of the previous dispatched pass); where the stamps do not overlap (lavapipe
// runs commands one after another) that is end_i - begin_i, as before.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace wgk::gpu {

// stamps: 2 per dispatch (beginning, end), in submission order, one clock (nanoseconds); ran[i]
// (0 or 1): whether dispatch i was dispatched (a skipped one has no stamps and gets 0). Stamps out of order
// (end before beginning) give 0 for that pass, as an unwritten query would.
inline std::vector<uint64_t> passDurations(std::span<const uint64_t> stamps, std::span<const uint8_t> ran) {
  std::vector<uint64_t> ns(ran.size(), 0);
  uint64_t previousEnd = 0;
  for (size_t i = 0; i < ran.size() && 2 * i + 1 < stamps.size(); ++i) {
    if (!ran[i]) continue;
    const uint64_t begin = std::max(stamps[2 * i], previousEnd);
    const uint64_t end = stamps[2 * i + 1];
    ns[i] = end > begin ? end - begin : 0;
    previousEnd = std::max(previousEnd, end);
  }
  return ns;
}

}  // namespace wgk::gpu

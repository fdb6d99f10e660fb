// SHA-256 digests as the packages record them: base64 (standard alphabet, padded; 44 characters)
// of the 32-byte digest, plus the hex form used for content revisions.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace wgk::hub {

std::string sha256Base64(std::string_view bytes);
std::string sha256Hex(std::string_view bytes);
std::string fileSha256Base64(const std::filesystem::path& path);

}  // namespace wgk::hub

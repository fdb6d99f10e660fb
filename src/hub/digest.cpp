#include "hub/digest.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "hub/fs_util.h"

namespace wgk::hub {

static void sha256Raw(std::string_view bytes, unsigned char out[SHA256_DIGEST_LENGTH]) {
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), out);
}

std::string sha256Base64(std::string_view bytes) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  sha256Raw(bytes, md);
  unsigned char b64[4 * ((SHA256_DIGEST_LENGTH + 2) / 3) + 1];
  int n = EVP_EncodeBlock(b64, md, SHA256_DIGEST_LENGTH);
  return std::string(reinterpret_cast<char*>(b64), size_t(n));
}

std::string sha256Hex(std::string_view bytes) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  sha256Raw(bytes, md);
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : md) {
    hex += digits[c >> 4];
    hex += digits[c & 15];
  }
  return hex;
}

std::string fileSha256Base64(const std::filesystem::path& path) {
  return sha256Base64(readFileBytes(path));
}

}  // namespace wgk::hub

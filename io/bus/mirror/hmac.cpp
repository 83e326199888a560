#include "io/bus/mirror/hmac.hpp"

// SHA256_Init/Update/Final are deprecated in OpenSSL 3 in favour of EVP_MD_CTX, whose
// per-message reset allocates (EVP_MD_CTX_copy_ex duplicates the provider context); the
// low-level calls use the same CPU-dispatched block function (SHA-NI) on a plain struct.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <sodium.h>

#include <stdexcept>

namespace hil::io::bus::mirror {

namespace {

constexpr std::size_t kBlockBytes = 64;  // SHA-256's block (RFC 2104's B)

}  // namespace

void sodium_ready() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialize");
}

std::array<std::uint8_t, kHmacBytes> hmac_sha256(std::span<const std::uint8_t> key,
                                                 std::span<const std::uint8_t> data) noexcept {
  // RFC 2104: H((K ^ opad) || H((K ^ ipad) || data)), K zero-padded to B (hashed if longer)
  std::array<std::uint8_t, kBlockBytes> pad{};
  if (key.size() > kBlockBytes) {
    SHA256(key.data(), key.size(), pad.data());
  } else {
    for (std::size_t i = 0; i < key.size(); ++i) pad[i] = key[i];
  }
  for (std::uint8_t& b : pad) b ^= 0x36U;
  std::array<std::uint8_t, kHmacBytes> inner{};
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  SHA256_Update(&ctx, pad.data(), pad.size());
  SHA256_Update(&ctx, data.data(), data.size());
  SHA256_Final(inner.data(), &ctx);
  for (std::uint8_t& b : pad) b ^= 0x36U ^ 0x5cU;
  std::array<std::uint8_t, kHmacBytes> out{};
  SHA256_Init(&ctx);
  SHA256_Update(&ctx, pad.data(), pad.size());
  SHA256_Update(&ctx, inner.data(), inner.size());
  SHA256_Final(out.data(), &ctx);
  sodium_memzero(pad.data(), pad.size());  // the key's pads
  sodium_memzero(&ctx, sizeof ctx);
  return out;
}

void compute_tag(std::span<const std::uint8_t> key, std::span<const std::uint8_t> data,
                 std::span<std::uint8_t, kTagBytes> tag, TagKind kind) noexcept {
  if (kind == TagKind::blake2b) {
    if (key.size() < crypto_generichash_KEYBYTES_MIN ||
        key.size() > crypto_generichash_KEYBYTES_MAX ||
        crypto_generichash(tag.data(), tag.size(), data.data(), data.size(), key.data(),
                           key.size()) != 0) {
      sodium_memzero(tag.data(), tag.size());
    }
    return;
  }
  const std::array<std::uint8_t, kHmacBytes> full = hmac_sha256(key, data);
  for (std::size_t i = 0; i < kTagBytes; ++i) tag[i] = full[i];
}

bool tag_matches(std::span<const std::uint8_t> key, std::span<const std::uint8_t> data,
                 std::span<const std::uint8_t, kTagBytes> tag, TagKind kind) noexcept {
  std::array<std::uint8_t, kTagBytes> expected{};
  compute_tag(key, data, expected, kind);
  return sodium_memcmp(expected.data(), tag.data(), kTagBytes) == 0;
}

}  // namespace hil::io::bus::mirror

#include "io/bus/mirror/hmac.hpp"

#include <sodium.h>

#include <stdexcept>

namespace hil::io::bus::mirror {

void sodium_ready() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialize");
}

std::array<std::uint8_t, kHmacBytes> hmac_sha256(std::span<const std::uint8_t> key,
                                                 std::span<const std::uint8_t> data) noexcept {
  std::array<std::uint8_t, kHmacBytes> out{};
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, key.data(), key.size());
  crypto_auth_hmacsha256_update(&state, data.data(), data.size());
  crypto_auth_hmacsha256_final(&state, out.data());
  sodium_memzero(&state, sizeof state);  // holds the key's inner and outer pads
  return out;
}

void compute_tag(std::span<const std::uint8_t> key, std::span<const std::uint8_t> data,
                 std::span<std::uint8_t, kTagBytes> tag) noexcept {
  const std::array<std::uint8_t, kHmacBytes> full = hmac_sha256(key, data);
  for (std::size_t i = 0; i < kTagBytes; ++i) tag[i] = full[i];
}

bool tag_matches(std::span<const std::uint8_t> key, std::span<const std::uint8_t> data,
                 std::span<const std::uint8_t, kTagBytes> tag) noexcept {
  std::array<std::uint8_t, kTagBytes> expected{};
  compute_tag(key, data, expected);
  return sodium_memcmp(expected.data(), tag.data(), kTagBytes) == 0;
}

}  // namespace hil::io::bus::mirror

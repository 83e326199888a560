#pragma once
// HMAC-SHA256 (RFC 2104, FIPS 180-4) through libsodium's incremental crypto_auth_hmacsha256_*
// API, and the mirror's 128-bit tag: the first 16 bytes of it (RFC 4868's truncation). Keys of
// any length (libsodium hashes keys over 64 bytes, as RFC 2104 says), so the RFC 4231 test
// vectors run through the same code as the mirror.
//
// Thread-safety: every function is reentrant; none allocates, throws or blocks.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace hil::io::bus::mirror {

inline constexpr std::size_t kHmacBytes = 32;  ///< HMAC-SHA256 output
inline constexpr std::size_t kTagBytes = 16;   ///< the wire's truncated tag

/// Initializes libsodium once (its RNG and CPU dispatch); throws std::runtime_error when it
/// cannot. Setup phase; later calls are cheap.
void sodium_ready();

/// HMAC-SHA256(key, data), all 32 bytes.
[[nodiscard]] std::array<std::uint8_t, kHmacBytes> hmac_sha256(
    std::span<const std::uint8_t> key, std::span<const std::uint8_t> data) noexcept;

/// The first kTagBytes of HMAC-SHA256(key, data), written to `tag`.
void compute_tag(std::span<const std::uint8_t> key, std::span<const std::uint8_t> data,
                 std::span<std::uint8_t, kTagBytes> tag) noexcept;

/// Whether `tag` is the tag of `data` under `key`; constant time in the tag's contents
/// (sodium_memcmp), so a forger learns nothing from the timing.
[[nodiscard]] bool tag_matches(std::span<const std::uint8_t> key,
                               std::span<const std::uint8_t> data,
                               std::span<const std::uint8_t, kTagBytes> tag) noexcept;

}  // namespace hil::io::bus::mirror

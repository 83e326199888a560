#pragma once
// The mirror's message authentication (docs/bus.md "The UDP mirror", tags). Two tags, each
// 128 bits, chosen by the wire version (wire.hpp):
//   v1: HMAC-SHA256 (RFC 2104, FIPS 180-4) truncated to its first 16 bytes (RFC 4868), computed
//       with libcrypto's SHA-256 (OpenSSL 3), which uses the CPU's SHA extensions (x86 SHA-NI,
//       ARMv8 SHA2) where it has them: about 5x cheaper than the portable code on this project's
//       EPYC machines (docs/bus.md "Figures");
//   v2: keyed BLAKE2b (RFC 7693) with a 16-byte output (libsodium crypto_generichash): faster
//       than SHA-256 on CPUs without SHA extensions.
// Keys of any length for HMAC (hashed when over 64 bytes, as RFC 2104 says), so the RFC 4231
// test vectors run through the same code as the mirror; 16..64 bytes for BLAKE2b.
//
// Thread-safety: every function is reentrant; none allocates, throws or blocks.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace hil::io::bus::mirror {

inline constexpr std::size_t kHmacBytes = 32;  ///< HMAC-SHA256 output
inline constexpr std::size_t kTagBytes = 16;   ///< the wire's truncated tag

/// Which tag a packet carries; the value is the wire version that carries it.
enum class TagKind : std::uint8_t {
  hmac_sha256 = 1,  ///< HMAC-SHA256-128 (wire v1)
  blake2b = 2,      ///< keyed BLAKE2b-128 (wire v2)
};

/// Initializes libsodium once (its RNG and CPU dispatch); throws std::runtime_error when it
/// cannot. Setup phase; later calls are cheap.
void sodium_ready();

/// HMAC-SHA256(key, data), all 32 bytes.
[[nodiscard]] std::array<std::uint8_t, kHmacBytes> hmac_sha256(
    std::span<const std::uint8_t> key, std::span<const std::uint8_t> data) noexcept;

/// The tag of `data` under `key` written to `tag`: the first kTagBytes of HMAC-SHA256 (v1) or
/// BLAKE2b-128 keyed with `key` (v2; a key outside 16..64 bytes gives an all-zero tag).
void compute_tag(std::span<const std::uint8_t> key, std::span<const std::uint8_t> data,
                 std::span<std::uint8_t, kTagBytes> tag,
                 TagKind kind = TagKind::hmac_sha256) noexcept;

/// Whether `tag` is the tag of `data` under `key`; constant time in the tag's contents
/// (sodium_memcmp), so a forger learns nothing from the timing.
[[nodiscard]] bool tag_matches(std::span<const std::uint8_t> key,
                               std::span<const std::uint8_t> data,
                               std::span<const std::uint8_t, kTagBytes> tag,
                               TagKind kind = TagKind::hmac_sha256) noexcept;

}  // namespace hil::io::bus::mirror

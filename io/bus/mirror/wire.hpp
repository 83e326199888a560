#pragma once
// The UDP mirror's wire format (docs/bus.md "The UDP mirror"): one datagram per region
// snapshot (DATA), plus PING/PONG for the round-trip time. Little-endian, every packet signed
// with a 16-byte tag over every byte before it under key[key_id]. The version byte says which
// tag (hmac.hpp): v1 = HMAC-SHA256-128, v2 = keyed BLAKE2b-128; the layouts are the same, and
// a receiver accepts both.
//
// Common head (every type):
//   0  4  magic "HSB1"          16  8  session_id (random per sender start)
//   4  1  version 1 or 2        24  8  session_start_unix_ns
//   5  1  type 1 DATA, 2 PING, 3 PONG
//   6  1  key_id                32  8  packet_seq (per session, +1 per datagram)
//   7  1  flags (DATA: bit0 region invalid, bit1 repeat copy; PING/PONG: 0)
//   8  8  bus_schema_hash
// DATA:  40 u32 region_id, 44 u32 n, 48 u64 region_seq, 56 i64 tick, 64 u64 publish_age_ns,
//        72 u64 send_unix_ns, 80 u64 region_schema_hash, 88 f64[n] values, 88+8n tag[16].
// PING/PONG: 40 u64 ping_seq, 48 u64 ping_mono_ns, 56 u64 ping_session_id,
//        64 u64 send_unix_ns, 72 tag[16]; 88 bytes. A PONG echoes ping_seq, ping_mono_ns and
//        ping_session_id (= the pinger's session_id) of the PING it answers, under its own
//        head, so the pinger's RTT is its own clock minus ping_mono_ns: no clock sync needed.
//
// encode_* write into a caller's buffer; parse() checks the structure only (it never reads
// outside the span), verify() the tag. Neither allocates nor throws.
//
// Thread-safety: every function is reentrant.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "io/bus/bus_layout.hpp"
#include "io/bus/mirror/hmac.hpp"
#include "io/bus/mirror/mirror_key.hpp"

namespace hil::io::bus::mirror {

inline constexpr std::array<std::uint8_t, 4> kWireMagic = {'H', 'S', 'B', '1'};
inline constexpr std::uint8_t kWireVersion = 1;     ///< HMAC-SHA256-128
inline constexpr std::uint8_t kWireVersionMax = 2;  ///< keyed BLAKE2b-128
inline constexpr std::size_t kHeadBytes = 40;       ///< the common head
inline constexpr std::size_t kDataFixedBytes = 88;  ///< DATA before its values
inline constexpr std::size_t kDataOverheadBytes = kDataFixedBytes + kTagBytes;  ///< 104
inline constexpr std::size_t kPingSignedBytes = 72;  ///< PING/PONG before the tag
inline constexpr std::size_t kPingBytes = kPingSignedBytes + kTagBytes;  ///< 88
inline constexpr std::size_t kMinPacketBytes = kPingBytes;  ///< the smallest valid packet
/// The largest DATA datagram: 168 values (1448 bytes), within IPv6's 1452 at MTU 1500.
inline constexpr std::size_t kMaxDatagramBytes = kDataOverheadBytes + 8 * kMaxRegionValues;

/// DATA flags.
inline constexpr std::uint8_t kFlagRegionInvalid = 0x01;  ///< the writer's status ≠ valid
inline constexpr std::uint8_t kFlagRepeatCopy = 0x02;     ///< a send_repeat copy (k ≥ 2)

/// The size of a DATA packet with `n` values.
[[nodiscard]] constexpr std::size_t data_packet_bytes(std::size_t n) noexcept {
  return kDataOverheadBytes + 8 * n;
}

enum class PacketType : std::uint8_t { data = 1, ping = 2, pong = 3 };

/// Why a datagram was refused by parse() or verify().
enum class WireError : std::uint8_t {
  ok = 0,
  too_short,        ///< fewer than kMinPacketBytes
  bad_magic,        ///< not "HSB1"
  bad_version,      ///< not version 1 or 2
  bad_type,         ///< not DATA, PING or PONG
  too_many_values,  ///< DATA with n > kMaxRegionValues
  truncated,        ///< fewer bytes than the type and n announce (values or tag cut)
  trailing_bytes,   ///< more bytes than the type and n announce
  unknown_key,      ///< no key with that key_id
  auth_failed,      ///< the tag does not match
};
[[nodiscard]] std::string_view to_string(WireError e) noexcept;

/// The common head, offsets 0–39.
struct PacketHead {
  TagKind tag = TagKind::hmac_sha256;  ///< the version byte: which tag signs the packet
  PacketType type = PacketType::data;
  std::uint8_t key_id = 0;
  std::uint8_t flags = 0;
  std::uint64_t bus_schema_hash = 0;
  std::uint64_t session_id = 0;
  std::uint64_t session_start_unix_ns = 0;
  std::uint64_t packet_seq = 0;
};

/// DATA after the head, offsets 40–87.
struct DataFields {
  std::uint32_t region_id = 0;
  std::uint32_t n = 0;
  std::uint64_t region_seq = 0;
  std::int64_t tick = 0;
  std::uint64_t publish_age_ns = 0;
  std::uint64_t send_unix_ns = 0;
  std::uint64_t region_schema_hash = 0;
};

/// PING/PONG after the head, offsets 40–71.
struct PingFields {
  std::uint64_t ping_seq = 0;         ///< the pinger's counter
  std::uint64_t ping_mono_ns = 0;     ///< the pinger's CLOCK_MONOTONIC when it sent the PING
  std::uint64_t ping_session_id = 0;  ///< the pinger's session_id
  std::uint64_t send_unix_ns = 0;     ///< this packet's sender, diagnostics only
};

/// A parsed datagram: views into the caller's bytes (valid while they are).
struct Packet {
  PacketHead head;
  DataFields data;                             ///< DATA only
  PingFields ping;                             ///< PING/PONG only
  std::span<const std::uint8_t> value_bytes;   ///< DATA: 8n bytes, little-endian f64
  std::span<const std::uint8_t> signed_bytes;  ///< everything before the tag
  std::span<const std::uint8_t> tag;           ///< kTagBytes

  /// DATA value i (< data.n), decoded from little-endian.
  [[nodiscard]] double value(std::size_t i) const noexcept;
  /// All n DATA values into `out` (n elements).
  void copy_values(double* out) const noexcept;
};

/// Writes a signed DATA packet of `fields.n` values into `out`; returns its size, or 0 when
/// n is 0 or over kMaxRegionValues or `out` is too small. head.type is set to DATA.
[[nodiscard]] std::size_t encode_data(std::span<std::uint8_t> out, PacketHead head,
                                      const DataFields& fields, const double* values,
                                      const MirrorKey& key) noexcept;
/// Writes a signed PING or PONG (head.type) into `out`; returns kPingBytes, or 0 when `out`
/// is too small or head.type is DATA.
[[nodiscard]] std::size_t encode_ping(std::span<std::uint8_t> out, const PacketHead& head,
                                      const PingFields& fields, const MirrorKey& key) noexcept;
/// Sets `flags` in an encoded packet of `size` bytes and signs it again (a repeat copy).
void reflag(std::span<std::uint8_t> packet, std::uint8_t flags, const MirrorKey& key) noexcept;

/// Structure only: size, magic, version, type, n against the size. Fills `out` on ok.
[[nodiscard]] WireError parse(std::span<const std::uint8_t> bytes, Packet& out) noexcept;
/// The tag of a parsed packet (the kind its version names) against the key its key_id names
/// (constant-time compare).
[[nodiscard]] WireError verify(const Packet& packet, const KeyRing& keys) noexcept;

}  // namespace hil::io::bus::mirror

#pragma once
// The Velodyne VLP-16 data packet (VLP-16 user manual 63-9243 rev. E, §9.3; docs/sensors.md
// "Lidar"): the 1206-byte UDP payload sent to port 2368.
//   12 data blocks of 100 bytes: flag 0xFFEE (bytes FF EE), azimuth [0.01°] (uint16 LE),
//     32 returns of distance [2 mm] (uint16 LE, 0 = no return) + calibrated reflectivity
//     (uint8); a VLP-16 block holds two firing sequences of the 16 lasers
//   timestamp: µs past the top of the hour of the first firing (uint32 LE)
//   factory bytes: return mode (0x37 strongest, 0x38 last, 0x39 dual), product ID (0x22 VLP-16)
// Pure functions; no allocation; thread-safe.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace hil::io::lidar {

inline constexpr std::size_t kPacketBytes = 1206;
inline constexpr std::size_t kBlocks = 12;
inline constexpr std::size_t kBlockBytes = 100;
inline constexpr std::size_t kReturnsPerBlock = 32;
inline constexpr std::uint16_t kBlockFlag = 0xEEFF;  ///< bytes FF EE read little-endian
inline constexpr std::uint8_t kReturnStrongest = 0x37;
inline constexpr std::uint8_t kProductVlp16 = 0x22;
inline constexpr std::uint16_t kDefaultPort = 2368;
/// One hour in µs: the timestamp wraps at the top of the hour.
inline constexpr std::uint64_t kHourUs = 3'600'000'000ULL;

using Packet = std::array<std::uint8_t, kPacketBytes>;

struct PacketFields {
  std::span<const std::uint16_t, kBlocks> azimuth;                      ///< [0.01°] 0…35999
  std::span<const std::uint16_t, kBlocks * kReturnsPerBlock> distance;  ///< [2 mm]
  std::span<const std::uint8_t, kBlocks * kReturnsPerBlock> reflectivity;
  std::uint32_t timestamp_us = 0;  ///< µs past the hour (< kHourUs)
  std::uint8_t return_mode = kReturnStrongest;
  std::uint8_t product = kProductVlp16;
};

/// Writes the packet's 1206 bytes.
void encode_vlp16(const PacketFields& fields, Packet& out) noexcept;

/// µs past the hour of a time [ns] since the start of the hour count.
[[nodiscard]] constexpr std::uint32_t timestamp_past_hour(std::int64_t time_ns) noexcept {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(time_ns / 1000) % kHourUs);
}

/// FNV-1a (32 bit) of a packet: an integer below 2^32, so exactly a double (the digest
/// channel sensor.lidar.<name>.digest that replays compare).
[[nodiscard]] std::uint32_t packet_digest(const Packet& packet) noexcept;

}  // namespace hil::io::lidar

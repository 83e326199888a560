#pragma once
// Spinning multi-beam lidars as their manuals describe them (docs/sensors.md "Lidar"): the
// lasers' elevations in firing order, the firing timing and the range. A data packet holds
// 12 blocks × 32 returns (384); the lasers fire in firings of all beams, so a packet holds
// 384 / beams firings (VLP-16: 24, two per block; HDL-64E: 6). The azimuth turns continuously
// at the rotation rate: a firing's azimuth follows from its time (scan_pattern.hpp).
// Pure data; thread-safe.

#include <cstdint>
#include <span>
#include <string_view>

namespace hil::models::lidar {

/// Returns in one data packet: 12 blocks × 32 (VLP-16 user manual §9.3).
inline constexpr int kBlocksPerPacket = 12;
inline constexpr int kReturnsPerBlock = 32;
inline constexpr int kReturnsPerPacket = kBlocksPerPacket * kReturnsPerBlock;

enum class PresetId : std::uint8_t { vlp16, hdl64 };

struct LidarPreset {
  std::string_view name;
  /// The beams' elevations [deg] in firing order (the order of the returns in a block).
  std::span<const double> elevation_deg;
  double range_max_m = 100.0;
  /// From the start of one firing of all beams to the next [s] (VLP-16: 55.296 µs).
  double firing_cycle_s = 0.0;
  /// Between two beams of one firing [s] (VLP-16: 2.304 µs; HDL-64E: 0, fired together).
  double laser_interval_s = 0.0;
  /// Whether the packets have the VLP-16 layout (the UDP output: io/lidar/vlp16_packet.hpp).
  bool vlp16_packets = false;

  [[nodiscard]] int beams() const noexcept { return static_cast<int>(elevation_deg.size()); }
  [[nodiscard]] int firings_per_packet() const noexcept { return kReturnsPerPacket / beams(); }
  /// One packet's firing window [s]: VLP-16 24 × 55.296 µs = 1327.104 µs (753.5 packets/s).
  [[nodiscard]] double packet_period_s() const noexcept {
    return firing_cycle_s * firings_per_packet();
  }
};

/// VLP-16 (Velodyne VLP-16 user manual 63-9243 rev. E, §9): 16 beams −15…+15° every 2°,
/// 100 m, firing cycle 55.296 µs, 2.304 µs between beams: 0.2° azimuth step at 10 Hz.
[[nodiscard]] const LidarPreset& vlp16() noexcept;
/// HDL-64E (Velodyne HDL-64E S2 data sheet): 64 beams, upper block +2° … −8.33° every 1/3°,
/// lower block −8.83° … −24.33° every 1/2° (nominal; each unit's calibration differs by
/// tenths of a degree and reaches −24.9°), 120 m, 6 firings per 384-return packet at
/// ~3472 packets/s (48 µs per firing, 0.17° at 10 Hz).
[[nodiscard]] const LidarPreset& hdl64() noexcept;
[[nodiscard]] const LidarPreset& preset(PresetId id) noexcept;

}  // namespace hil::models::lidar

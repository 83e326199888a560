#pragma once
// One spinning lidar measuring the world, one data packet at a time (docs/sensors.md
// "Lidar"): for each firing of the packet (scan_pattern.hpp) and each beam, the ray from the
// sensor's origin at the beam's elevation ω and the firing's azimuth α, in the sensor's frame
// (x forward, y left, z up; the VLP-16 manual's x = R·cosω·sinα, y = R·cosω·cosα is our
// −y and x) d = (cosω·cosα, −cosω·sinα, sinω), rotated into the world by the sensor's pose,
// is cast (ray_cast.hpp); the range gets Gaussian noise σ and is lost with probability
// `dropout`, then quantised to the 2 mm unit of the packets. A lost return, one beyond the
// range or nothing hit is 0 (the VLP-16's "no return").
// The noise and dropout come from the sensor's own generators, seeded from the rig's master
// seed (sensor_noise.hpp); packets scanned in order give the same returns on every run.
// Thread-safety: one thread at a time (the lidar's worker); scan() allocates nothing.

#include <array>
#include <cstdint>
#include <random>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "models/sensors/lidar/lidar_preset.hpp"
#include "models/sensors/lidar/ray_cast.hpp"
#include "models/sensors/lidar/scan_pattern.hpp"
#include "models/sensors/sensor_mount.hpp"
#include "models/sensors/sensor_noise.hpp"

namespace hil::models::lidar {

/// The packets' range unit [m] (VLP-16 user manual §9.3.1.3: 2 mm).
inline constexpr double kRangeUnit = 0.002;

struct LidarParams {
  PresetId preset = PresetId::vlp16;
  double rotation_hz = 10.0;
  double range_max_m = 0.0;    ///< 0: the preset's
  double range_noise_m = 0.0;  ///< 1σ
  double dropout = 0.0;        ///< probability a return is lost
};

/// One packet as measured: 12 blocks × 32 returns, in the packet's order.
struct PacketScan {
  std::int64_t index = 0;  ///< packet number since the start of the run
  double start_s = 0.0;    ///< its first firing [s]
  std::array<std::uint16_t, kBlocksPerPacket> block_azimuth{};  ///< [0.01°], 0…35999
  std::array<std::uint16_t, kReturnsPerPacket> distance{};      ///< [2 mm]; 0: no return
  std::array<std::uint8_t, kReturnsPerPacket> reflectivity{};   ///< 0…100 (diffuse)
  std::array<float, kReturnsPerPacket> azimuth_deg{};           ///< each return's, exact
  std::array<std::int64_t, 2> revolution{};  ///< revolution of the first and the last firing
};

class LidarScanner {
 public:
  LidarScanner(const LidarParams& params, std::uint64_t seed) noexcept;

  [[nodiscard]] const LidarPreset& preset() const noexcept { return *pattern_.preset; }
  [[nodiscard]] const ScanPattern& pattern() const noexcept { return pattern_; }
  [[nodiscard]] double range_max() const noexcept { return range_max_; }
  /// Elevation of return j of a packet [deg].
  [[nodiscard]] double elevation_deg(int j) const noexcept {
    return preset().elevation_deg[j % preset().beams()];
  }

  /// Measures packet p from `pose` in `world` into `out`. No allocation.
  void scan(std::int64_t p, const SensorPose& pose, const RayWorld& world,
            PacketScan& out) noexcept;

 private:
  ScanPattern pattern_;
  double range_max_;
  double sigma_;
  double dropout_;
  std::array<double, 64> sin_el_{}, cos_el_{};
  GaussianNoise noise_;
  std::mt19937_64 dropout_engine_;
};

}  // namespace hil::models::lidar

#pragma once
// When each laser fires and where it points (VLP-16 user manual §9.5 "Precision azimuth
// calculation"): packet p starts at t_p = p · packet period; its firing f (0 … firings − 1)
// starts f firing cycles later, and beam i of a firing i · laser interval after that. The
// head turns at a constant rate, so the azimuth of a firing at time t is 360° · f_rot · t
// (mod 360°), 0° along the sensor's forward axis, increasing clockwise seen from above (the
// Velodyne convention). A block's azimuth is its first firing's, in 0.01°.
// Pure functions; thread-safe.

#include <cmath>
#include <cstdint>

#include "models/sensors/lidar/lidar_preset.hpp"

namespace hil::models::lidar {

struct ScanPattern {
  const LidarPreset* preset = nullptr;
  double rotation_hz = 10.0;

  /// Start of packet p's firing window [s from the start of the run].
  [[nodiscard]] double packet_start(std::int64_t p) const noexcept {
    return static_cast<double>(p) * preset->packet_period_s();
  }
  /// Time of beam `beam` of firing `firing` of packet p [s].
  [[nodiscard]] double fire_time(std::int64_t p, int firing, int beam) const noexcept {
    return packet_start(p) + firing * preset->firing_cycle_s + beam * preset->laser_interval_s;
  }
  /// Azimuth at time t [deg, 0 ≤ α < 360].
  [[nodiscard]] double azimuth_deg(double t) const noexcept {
    const double turns = rotation_hz * t;
    return 360.0 * (turns - std::floor(turns));
  }
  /// Revolution a firing at time t belongs to (0, 1, …).
  [[nodiscard]] std::int64_t revolution(double t) const noexcept {
    return static_cast<std::int64_t>(std::floor(rotation_hz * t));
  }
  /// First packet whose window starts at or after t [s].
  [[nodiscard]] std::int64_t first_packet_at_or_after(double t) const noexcept {
    return static_cast<std::int64_t>(std::ceil(t / preset->packet_period_s() - 1e-9));
  }
  /// Azimuth step between two firings [deg] (VLP-16 at 10 Hz: 0.199°).
  [[nodiscard]] double azimuth_step_deg() const noexcept {
    return 360.0 * rotation_hz * preset->firing_cycle_s;
  }
};

}  // namespace hil::models::lidar

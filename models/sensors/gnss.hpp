#pragma once
// GNSS receiver: position as WGS-84 latitude/longitude/altitude from a
// configurable ENU origin, and velocity in ENU, updated at the receiver's rate and held in
// between, with white noise from a seeded generator (off by default). Used by the RT thread
// only.

#include <Eigen/Core>
#include <cstdint>

#include "models/sensors/geodetic.hpp"
#include "models/sensors/sensor_noise.hpp"

namespace hil::models {

struct GnssParams {
  /// Where the simulation's world origin (x east, y north, z up) lies on the Earth. Default:
  /// the Fraunhofer IESE / TU Kaiserslautern campus, home of RAVON (49.4245° N, 7.7526° E).
  Geodetic origin{.latitude_deg = 49.4245, .longitude_deg = 7.7526, .altitude_m = 240.0};
  /// Antenna position relative to the sprung CG, body axes [m].
  Eigen::Vector3d antenna = Eigen::Vector3d::Zero();
  double rate_hz = 10.0;          ///< fixes per second (> 0)
  double horizontal_noise = 0.0;  ///< σ per fix, east and north [m]
  double vertical_noise = 0.0;    ///< σ per fix, up [m]
  double velocity_noise = 0.0;    ///< σ per fix and axis [m/s]
};

struct GnssFix {
  Geodetic position;
  Eigen::Vector3d velocity_enu = Eigen::Vector3d::Zero();  ///< [m/s]
  std::int64_t count = 0;  ///< fixes produced so far (increments on each update)
};

class Gnss {
 public:
  Gnss(const GnssParams& params, std::uint64_t seed) noexcept;

  /// Called every tick at simulation time t [s] with the antenna's true ENU position and
  /// velocity; produces a new fix when a receiver epoch (k / rate_hz) has been reached,
  /// otherwise keeps the last one. Returns the current fix.
  const GnssFix& update(double t, const Eigen::Vector3d& position_enu,
                        const Eigen::Vector3d& velocity_enu) noexcept;
  [[nodiscard]] const GnssFix& fix() const noexcept { return fix_; }
  [[nodiscard]] const GnssParams& params() const noexcept { return params_; }

 private:
  GnssParams params_;
  EnuOrigin origin_;
  GaussianNoise noise_;
  GnssFix fix_;
  std::int64_t next_epoch_ = 0;
};

}  // namespace hil::models

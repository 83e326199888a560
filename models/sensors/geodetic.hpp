#pragma once
// WGS-84 geodetic coordinates from the simulation's local ENU frame (world x east, y north,
// z up; docs/models.md "Sensors"). Exact ellipsoid conversions (no flat-earth
// approximation), so GNSS positions stay right over the kilometres of a long test drive.
// Pure functions; RT-safe.

#include <Eigen/Core>

namespace hil::models {

struct Geodetic {
  double latitude_deg = 0.0;
  double longitude_deg = 0.0;
  double altitude_m = 0.0;  ///< above the ellipsoid
};

/// The ENU origin and its ECEF position and rotation, computed once at setup.
class EnuOrigin {
 public:
  explicit EnuOrigin(const Geodetic& origin) noexcept;

  /// ENU [m] → geodetic: ENU → ECEF (rotation + origin) → geodetic (Bowring's iteration,
  /// converged to < 1e-9 m by three passes).
  [[nodiscard]] Geodetic to_geodetic(const Eigen::Vector3d& enu) const noexcept;
  /// Geodetic → ENU [m] (tests; scenario set-up).
  [[nodiscard]] Eigen::Vector3d to_enu(const Geodetic& g) const noexcept;

 private:
  Eigen::Vector3d origin_ecef_;
  Eigen::Matrix3d enu_to_ecef_;
};

/// Geodetic → ECEF [m] on WGS-84.
[[nodiscard]] Eigen::Vector3d geodetic_to_ecef(const Geodetic& g) noexcept;
/// ECEF [m] → geodetic on WGS-84.
[[nodiscard]] Geodetic ecef_to_geodetic(const Eigen::Vector3d& ecef) noexcept;

}  // namespace hil::models

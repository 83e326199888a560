#include "models/sensors/geodetic.hpp"

#include <cmath>
#include <numbers>

namespace hil::models {

namespace {

constexpr double kA = 6378137.0;                          // WGS-84 semi-major axis [m]
constexpr double kF = 1.0 / 298.257223563;                // WGS-84 flattening
constexpr double kE2 = kF * (2.0 - kF);                   // first eccentricity squared
constexpr double kB = kA * (1.0 - kF);                    // semi-minor axis [m]
constexpr double kEp2 = (kA * kA - kB * kB) / (kB * kB);  // second eccentricity squared
constexpr double kDeg = std::numbers::pi / 180.0;

}  // namespace

Eigen::Vector3d geodetic_to_ecef(const Geodetic& g) noexcept {
  const double lat = g.latitude_deg * kDeg;
  const double lon = g.longitude_deg * kDeg;
  const double s = std::sin(lat);
  const double n = kA / std::sqrt(1.0 - kE2 * s * s);  // prime-vertical radius of curvature
  const double h = g.altitude_m;
  return {(n + h) * std::cos(lat) * std::cos(lon), (n + h) * std::cos(lat) * std::sin(lon),
          (n * (1.0 - kE2) + h) * s};
}

Geodetic ecef_to_geodetic(const Eigen::Vector3d& ecef) noexcept {
  const double p = std::hypot(ecef.x(), ecef.y());
  const double lon = std::atan2(ecef.y(), ecef.x());
  // Bowring (1976): parametric latitude β, iterated; three passes reach < 1e-9 m on Earth
  double beta = std::atan2(ecef.z(), (1.0 - kF) * p);
  double lat = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double sb = std::sin(beta);
    const double cb = std::cos(beta);
    lat = std::atan2(ecef.z() + kEp2 * kB * sb * sb * sb, p - kE2 * kA * cb * cb * cb);
    beta = std::atan2((1.0 - kF) * std::sin(lat), std::cos(lat));
  }
  const double s = std::sin(lat);
  const double n = kA / std::sqrt(1.0 - kE2 * s * s);
  // Height from the normal through the point (well conditioned at every latitude)
  const double h = p * std::cos(lat) + (ecef.z() + kE2 * n * s) * s - n;
  return {.latitude_deg = lat / kDeg, .longitude_deg = lon / kDeg, .altitude_m = h};
}

EnuOrigin::EnuOrigin(const Geodetic& origin) noexcept : origin_ecef_(geodetic_to_ecef(origin)) {
  const double lat = origin.latitude_deg * kDeg;
  const double lon = origin.longitude_deg * kDeg;
  const double sl = std::sin(lat);
  const double cl = std::cos(lat);
  const double so = std::sin(lon);
  const double co = std::cos(lon);
  // Columns: east, north, up unit vectors in ECEF
  enu_to_ecef_ << -so, -sl * co, cl * co,  //
      co, -sl * so, cl * so,               //
      0.0, cl, sl;
}

Geodetic EnuOrigin::to_geodetic(const Eigen::Vector3d& enu) const noexcept {
  return ecef_to_geodetic(origin_ecef_ + enu_to_ecef_ * enu);
}

Eigen::Vector3d EnuOrigin::to_enu(const Geodetic& g) const noexcept {
  return enu_to_ecef_.transpose() * (geodetic_to_ecef(g) - origin_ecef_);
}

}  // namespace hil::models

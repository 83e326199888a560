#include "models/terrain/road_input.hpp"

#include <cmath>

namespace hil::models {

double sanitize_friction_scale(double external) noexcept {
  if (!std::isfinite(external)) return 1.0;
  if (external < 0.0) return 0.0;
  return external < kMaxExternalFrictionScale ? external : kMaxExternalFrictionScale;
}

Eigen::Vector3d road_normal_from_input(double nx, double ny, double nz) noexcept {
  const Eigen::Vector3d n(nx, ny, nz);
  const double norm = n.norm();
  // RAVON §3.2: N is a unit road normal; reject what cannot be one
  if (!std::isfinite(norm) || norm == 0.0 || !(nz > 0.0)) return Eigen::Vector3d::UnitZ();
  return n / norm;
}

}  // namespace hil::models

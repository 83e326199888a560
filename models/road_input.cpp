#include "models/road_input.hpp"

#include <cmath>

namespace hil::models {

double sanitize_friction_scale(double external) noexcept {
  if (!std::isfinite(external)) return 1.0;
  if (external < 0.0) return 0.0;
  return external < kMaxExternalFrictionScale ? external : kMaxExternalFrictionScale;
}

SurfaceProperties apply_friction_scale(SurfaceProperties map, double external) noexcept {
  // RAVON §3.2: per-wheel time-varying μ from the road interface, on top of the map's scale
  map.friction_scale *= sanitize_friction_scale(external);
  return map;
}

void WheelFrictionOverride::set(std::size_t wheel, double external_scale) noexcept {
  if (wheel < scale_.size()) scale_[wheel] = sanitize_friction_scale(external_scale);
}

double WheelFrictionOverride::scale(std::size_t wheel) const noexcept {
  return wheel < scale_.size() ? scale_[wheel] : 1.0;
}

SurfaceProperties WheelFrictionOverride::surface_at(const Terrain& terrain, std::size_t wheel,
                                                    double x, double y) const noexcept {
  SurfaceProperties p = terrain.surface(x, y);
  p.friction_scale *= scale(wheel);
  return p;
}

Eigen::Vector3d road_normal_from_input(double nx, double ny, double nz) noexcept {
  const Eigen::Vector3d n(nx, ny, nz);
  const double norm = n.norm();
  // RAVON §3.2: N is a unit road normal; reject what cannot be one
  if (!std::isfinite(norm) || norm == 0.0 || !(nz > 0.0)) return Eigen::Vector3d::UnitZ();
  return n / norm;
}

}  // namespace hil::models

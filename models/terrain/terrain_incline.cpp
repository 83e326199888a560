#include "models/terrain/terrain_incline.hpp"

#include <cmath>

namespace hil::models {

InclineTerrain::InclineTerrain(const InclineTerrainParams& p) noexcept
    : p_(p),
      // grade s = tan θ = p/100 along ê = (cos φ, sin φ): ∇z = s·ê
      dzdx_(p.grade_percent / 100.0 * std::cos(p.rise_direction)),
      dzdy_(p.grade_percent / 100.0 * std::sin(p.rise_direction)),
      n_(normal_from_gradient(dzdx_, dzdy_)) {}

double InclineTerrain::height(double x, double y) const noexcept {
  return p_.z0 + dzdx_ * x + dzdy_ * y;  // RAVON §3.2 inclined road plane: z = z0 + s·(ê · (x, y))
}

Eigen::Vector3d InclineTerrain::normal(double /*x*/, double /*y*/) const noexcept { return n_; }

SurfaceProperties InclineTerrain::surface(double /*x*/, double /*y*/) const noexcept {
  return p_.surface;
}

TerrainSample InclineTerrain::sample(double x, double y) const noexcept {
  return {.height = height(x, y), .normal = n_, .surface = p_.surface};
}

}  // namespace hil::models

#include "models/terrain/terrain_flat.hpp"

namespace hil::models {

double FlatTerrain::height(double /*x*/, double /*y*/) const noexcept { return p_.z0; }

Eigen::Vector3d FlatTerrain::normal(double /*x*/, double /*y*/) const noexcept {
  return Eigen::Vector3d::UnitZ();  // RAVON §3.2: horizontal plane, n = (0, 0, 1)
}

SurfaceProperties FlatTerrain::surface(double /*x*/, double /*y*/) const noexcept {
  return p_.surface;
}

TerrainSample FlatTerrain::sample(double /*x*/, double /*y*/) const noexcept {
  return {.height = p_.z0, .normal = Eigen::Vector3d::UnitZ(), .surface = p_.surface};
}

}  // namespace hil::models

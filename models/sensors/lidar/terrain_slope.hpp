#pragma once
// The slope bound s ≥ max |∇h| the ray caster marches with (ray_cast.hpp). Exact for a DEM
// (the steepest node-to-node difference per axis: a bilinear surface is steepest along its
// cell edges) and for the analytic terrains through their normals; any other terrain (patched,
// a user's) is sampled on a grid around `centre`. Setup phase (may take milliseconds).

#include <Eigen/Core>

#include "models/terrain/terrain.hpp"

namespace hil::models::lidar {

/// A bound on |∇h| over the square of half-width `radius` around `centre` (x, y) [m],
/// with a 25 % margin and at least 0.01 (so that rays close to horizontal end).
[[nodiscard]] double slope_bound(const Terrain& terrain, const Eigen::Vector2d& centre,
                                 double radius);

}  // namespace hil::models::lidar

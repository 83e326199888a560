#pragma once
// Terrain interface (DESIGN.md §6 "Environment"; RAVON §3.2 road interface): height, upward
// unit normal and surface at a horizontal position in the world frame (ISO 8855 earth axes:
// x, y horizontal, z up). Implementations: terrain_flat, terrain_incline, terrain_bumps,
// terrain_dem. Evaluation is const, noexcept and allocation-free; a Terrain is immutable after
// construction, so concurrent queries from several threads are safe.

#include <Eigen/Core>

#include "models/terrain/surface.hpp"

namespace hil::models {

/// Everything the tire needs from the ground at one point.
struct TerrainSample {
  double height = 0.0;                                ///< z(x, y) [m]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  ///< unit, n_z > 0
  SurfaceProperties surface;
};

class Terrain {
 public:
  Terrain() = default;
  Terrain(const Terrain&) = default;
  Terrain& operator=(const Terrain&) = default;
  Terrain(Terrain&&) = default;
  Terrain& operator=(Terrain&&) = default;
  virtual ~Terrain() = default;

  /// Ground height z(x, y) [m].
  [[nodiscard]] virtual double height(double x, double y) const noexcept = 0;
  /// Unit normal of the ground at (x, y), n_z > 0: (−∂z/∂x, −∂z/∂y, 1)/‖·‖.
  [[nodiscard]] virtual Eigen::Vector3d normal(double x, double y) const noexcept = 0;
  /// What the ground is made of at (x, y).
  [[nodiscard]] virtual SurfaceProperties surface(double x, double y) const noexcept = 0;
  /// Height, normal and surface in one call (one virtual dispatch per wheel and stage).
  /// Implementations override it where the three share work or are constant.
  [[nodiscard]] virtual TerrainSample sample(double x, double y) const noexcept {
    return {.height = height(x, y), .normal = normal(x, y), .surface = surface(x, y)};
  }
};

/// Unit upward normal of a surface z(x, y) from its gradient (∂z/∂x, ∂z/∂y).
[[nodiscard]] inline Eigen::Vector3d normal_from_gradient(double dzdx, double dzdy) noexcept {
  // RAVON §3.2 (road normal N of eq. (1)): n = (−∂z/∂x, −∂z/∂y, 1)/√(1 + ∂z/∂x² + ∂z/∂y²)
  return Eigen::Vector3d(-dzdx, -dzdy, 1.0).normalized();
}

}  // namespace hil::models

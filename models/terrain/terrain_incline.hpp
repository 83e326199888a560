#pragma once
// Inclined plane: a constant grade rising along a horizontal direction (RAVON §3.2 road
// inclination vectors, Fig. 3). Grade in percent = 100·rise/run, so a 15 %
// grade rising along +x has n = (−0.15, 0, 1)/√(1 + 0.15²).

#include "models/terrain/terrain.hpp"

namespace hil::models {

struct InclineTerrainParams {
  double grade_percent = 0.0;  ///< 100·dz/ds along the rising direction [%]
  /// Direction in which the ground rises [rad], counter-clockwise from world +x.
  double rise_direction = 0.0;
  double z0 = 0.0;  ///< height at the origin [m]
  SurfaceProperties surface;
};

class InclineTerrain final : public Terrain {
 public:
  explicit InclineTerrain(const InclineTerrainParams& p) noexcept;

  [[nodiscard]] double height(double x, double y) const noexcept override;
  [[nodiscard]] Eigen::Vector3d normal(double x, double y) const noexcept override;
  [[nodiscard]] SurfaceProperties surface(double x, double y) const noexcept override;
  [[nodiscard]] TerrainSample sample(double x, double y) const noexcept override;

 private:
  InclineTerrainParams p_;
  double dzdx_ = 0.0;
  double dzdy_ = 0.0;
  Eigen::Vector3d n_;
};

}  // namespace hil::models

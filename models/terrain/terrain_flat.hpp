#pragma once
// Flat, level ground at a fixed height with one surface everywhere (RAVON §3.2: the strict
// horizontal plane its road interface uses).

#include "models/terrain/terrain.hpp"

namespace hil::models {

struct FlatTerrainParams {
  double z0 = 0.0;  ///< ground height [m]
  SurfaceProperties surface;
};

class FlatTerrain final : public Terrain {
 public:
  explicit FlatTerrain(const FlatTerrainParams& p) noexcept : p_(p) {}

  [[nodiscard]] double height(double x, double y) const noexcept override;
  [[nodiscard]] Eigen::Vector3d normal(double x, double y) const noexcept override;
  [[nodiscard]] SurfaceProperties surface(double x, double y) const noexcept override;
  [[nodiscard]] TerrainSample sample(double x, double y) const noexcept override;

 private:
  FlatTerrainParams p_;
};

}  // namespace hil::models

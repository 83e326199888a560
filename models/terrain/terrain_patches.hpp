#pragma once
// Surface patches over a terrain (scenarios: "sand then clay", "ice patch"): the base
// terrain's height and normal everywhere, and inside each axis-aligned rectangle another
// surface. Later patches win where they overlap. Immutable after construction; evaluation is
// const, noexcept and allocation-free.

#include <memory>
#include <vector>

#include "models/terrain/terrain.hpp"

namespace hil::models {

struct SurfacePatch {
  double x_min = 0.0;  ///< world x range [m]
  double x_max = 0.0;
  double y_min = 0.0;  ///< world y range [m]
  double y_max = 0.0;
  SurfaceProperties surface;
};

class PatchedTerrain final : public Terrain {
 public:
  /// Setup phase. Throws std::invalid_argument for a patch with min > max or non-finite bounds.
  PatchedTerrain(std::shared_ptr<const Terrain> base, std::vector<SurfacePatch> patches);

  [[nodiscard]] double height(double x, double y) const noexcept override;
  [[nodiscard]] Eigen::Vector3d normal(double x, double y) const noexcept override;
  [[nodiscard]] SurfaceProperties surface(double x, double y) const noexcept override;
  [[nodiscard]] TerrainSample sample(double x, double y) const noexcept override;

 private:
  /// The last patch containing (x, y), or nullptr.
  [[nodiscard]] const SurfacePatch* patch_at(double x, double y) const noexcept;

  std::shared_ptr<const Terrain> base_;
  std::vector<SurfacePatch> patches_;
};

}  // namespace hil::models

#pragma once
// Terrain from a DEM grid (models/terrain/dem_grid.hpp): bilinear heights, per-cell surface class,
// and a per-class property table (cone index, friction scale) from the rig. Loading is in
// config/terrain/dem_loader.hpp.

#include <array>

#include "models/terrain/dem_grid.hpp"
#include "models/terrain/terrain.hpp"

namespace hil::models {

inline constexpr std::size_t kSurfaceCount = 6;  // Surface::dry … Surface::clay

/// Properties per surface class, indexed by static_cast<std::size_t>(Surface).
using SurfaceTable = std::array<SurfaceProperties, kSurfaceCount>;

/// Each class with its own `type`, cone index 0 and friction scale 1.
[[nodiscard]] SurfaceTable default_surface_table() noexcept;

class DemTerrain final : public Terrain {
 public:
  /// Setup phase. The table's entries are used as given except `type`, which is forced to
  /// the class they describe.
  explicit DemTerrain(DemGrid grid, const SurfaceTable& table = default_surface_table());

  [[nodiscard]] double height(double x, double y) const noexcept override;
  [[nodiscard]] Eigen::Vector3d normal(double x, double y) const noexcept override;
  [[nodiscard]] SurfaceProperties surface(double x, double y) const noexcept override;

  [[nodiscard]] const DemGrid& grid() const noexcept { return grid_; }

 private:
  DemGrid grid_;
  SurfaceTable table_;
};

}  // namespace hil::models

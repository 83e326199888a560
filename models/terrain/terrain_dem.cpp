#include "models/terrain/terrain_dem.hpp"

#include <utility>

namespace hil::models {

SurfaceTable default_surface_table() noexcept {
  SurfaceTable table;
  for (std::size_t i = 0; i < table.size(); ++i) table[i].type = static_cast<Surface>(i);
  return table;
}

DemTerrain::DemTerrain(DemGrid grid, const SurfaceTable& table)
    : grid_(std::move(grid)), table_(table) {
  for (std::size_t i = 0; i < table_.size(); ++i) table_[i].type = static_cast<Surface>(i);
}

double DemTerrain::height(double x, double y) const noexcept { return grid_.height(x, y); }

Eigen::Vector3d DemTerrain::normal(double x, double y) const noexcept { return grid_.normal(x, y); }

SurfaceProperties DemTerrain::surface(double x, double y) const noexcept {
  return table_[static_cast<std::size_t>(grid_.surface(x, y))];
}

}  // namespace hil::models

#include "models/sensors/lidar/terrain_slope.hpp"

#include <algorithm>
#include <cmath>

#include "models/terrain/terrain_dem.hpp"

namespace hil::models::lidar {

namespace {

/// |∇h| from the unit normal n = (−h_x, −h_y, 1)/‖·‖ (terrain.hpp).
double gradient_norm(const Eigen::Vector3d& n) noexcept {
  return std::hypot(n.x(), n.y()) / std::max(n.z(), 1e-9);
}

double dem_bound(const DemGrid& grid) noexcept {
  const GridGeometry& g = grid.geometry();
  double gx = 0.0;
  double gy = 0.0;
  for (int r = 0; r < g.nrows; ++r) {
    for (int c = 0; c < g.ncols; ++c) {
      if (c + 1 < g.ncols) gx = std::max(gx, std::abs(grid.node(c + 1, r) - grid.node(c, r)));
      if (r + 1 < g.nrows) gy = std::max(gy, std::abs(grid.node(c, r + 1) - grid.node(c, r)));
    }
  }
  return std::hypot(gx, gy) / g.cellsize;
}

}  // namespace

double slope_bound(const Terrain& terrain, const Eigen::Vector2d& centre, double radius) {
  double s = 0.0;
  if (const auto* dem = dynamic_cast<const DemTerrain*>(&terrain)) {
    s = dem_bound(dem->grid());
  } else {
    // Sampled every 0.25 m (finer than any bump the presets resolve at range)
    constexpr double kSpacing = 0.25;
    const int n = static_cast<int>(std::ceil(2.0 * radius / kSpacing));
    for (int i = 0; i <= n; ++i) {
      for (int j = 0; j <= n; ++j) {
        const double x = centre.x() - radius + i * kSpacing;
        const double y = centre.y() - radius + j * kSpacing;
        s = std::max(s, gradient_norm(terrain.normal(x, y)));
      }
    }
  }
  return std::max(1.25 * s, 0.01);
}

}  // namespace hil::models::lidar

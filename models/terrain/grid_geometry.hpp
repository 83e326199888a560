#pragma once
// Where a regular height grid's nodes (cell centres) lie in the world x-y plane: the geometry
// of a DEM (models/terrain/dem_grid.hpp) as its file states it (config/terrain/esri_ascii.hpp).

#include <cstdint>

namespace hil::models {

/// Accepted cell sizes [m]: below 1 mm or above 100 km a grid is a unit mistake, and the
/// bounds keep slopes (Δz/cellsize) finite.
inline constexpr double kMinCellsize = 1e-3;
inline constexpr double kMaxCellsize = 1e5;

/// Where the grid nodes (cell centres) are in the world x-y plane.
struct GridGeometry {
  std::int32_t ncols = 0;
  std::int32_t nrows = 0;
  double x0 = 0.0;        ///< x of the south-west cell centre [m]
  double y0 = 0.0;        ///< y of the south-west cell centre [m]
  double cellsize = 0.0;  ///< [m]
  friend bool operator==(const GridGeometry&, const GridGeometry&) = default;
};

}  // namespace hil::models

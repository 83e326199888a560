#pragma once
// A regular DEM grid in memory: heights at the cell centres (bilinear between them) and one
// surface class per cell (DESIGN.md §6 "DEM grid"; file format in config/terrain/esri_ascii.hpp).
// Outside the grid the position is clamped to the edge: the terrain continues level with
// the border heights (zero slope across the edge) and keeps the border cells' surface.
// Construction allocates; evaluation is noexcept, allocation-free and thread-safe (const).

#include <vector>

#include <Eigen/Core>

#include "models/terrain/grid_geometry.hpp"
#include "models/terrain/surface.hpp"

namespace hil::models {

/// Largest |height| accepted [m] (Earth's relief is within ±11 km); keeps every slope and
/// interpolated height finite.
inline constexpr double kMaxDemHeight = 1e5;

class DemGrid {
 public:
  /// `heights` row-major, south row first (AsciiGrid layout); `surfaces` the same layout or
  /// empty (every cell `fallback`). Throws std::invalid_argument when the sizes disagree
  /// with the geometry, the geometry is invalid (fewer than 2×2 nodes, cellsize outside
  /// [kMinCellsize, kMaxCellsize]) or a height is not finite or beyond ±kMaxDemHeight.
  DemGrid(const GridGeometry& geometry, std::vector<double> heights, std::vector<Surface> surfaces,
          Surface fallback = Surface::dry);

  [[nodiscard]] const GridGeometry& geometry() const noexcept { return g_; }

  /// Bilinear height [m]; exact at the nodes.
  [[nodiscard]] double height(double x, double y) const noexcept;
  /// Upward unit normal of the bilinear surface (its gradient inside the cell that holds
  /// the point; across a clamped edge the slope along the clamped axis is 0).
  [[nodiscard]] Eigen::Vector3d normal(double x, double y) const noexcept;
  /// Surface class of the cell that contains (x, y) (nearest centre; edge cells outside).
  [[nodiscard]] Surface surface(double x, double y) const noexcept;

  /// Height stored at node (column c, row r from the south); no bounds check beyond assert.
  [[nodiscard]] double node(int c, int r) const noexcept;

 private:
  struct Cell {
    int c = 0;  // lower-left node of the interpolation cell
    int r = 0;
    double fu = 0.0;  // fractional position in it, [0, 1]
    double fv = 0.0;
    bool clamped_u = false;
    bool clamped_v = false;
  };
  [[nodiscard]] Cell locate(double x, double y) const noexcept;

  GridGeometry g_;
  std::vector<double> z_;
  std::vector<Surface> surface_;
  Surface fallback_;
};

}  // namespace hil::models

#include "models/terrain/dem_grid.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "models/terrain/terrain.hpp"

namespace hil::models {
namespace {

/// Clamps u to [0, hi]; NaN goes to 0 so that a corrupt position cannot index out of range.
double clamp_index(double u, double hi, bool& clamped) noexcept {
  clamped = !(u >= 0.0 && u <= hi);  // strictly outside (or NaN)
  if (!(u > 0.0)) return 0.0;
  return u < hi ? u : hi;
}

}  // namespace

DemGrid::DemGrid(const GridGeometry& geometry, std::vector<double> heights,
                 std::vector<Surface> surfaces, Surface fallback)
    : g_(geometry), z_(std::move(heights)), surface_(std::move(surfaces)), fallback_(fallback) {
  if (g_.ncols < 2 || g_.nrows < 2 ||
      !(g_.cellsize >= kMinCellsize && g_.cellsize <= kMaxCellsize)) {
    throw std::invalid_argument("DemGrid: need at least 2 x 2 nodes and a cellsize of " +
                                std::to_string(kMinCellsize) + " to " +
                                std::to_string(kMaxCellsize) + " m");
  }
  for (const double z : z_) {
    if (!(std::abs(z) <= kMaxDemHeight)) {
      throw std::invalid_argument("DemGrid: height " + std::to_string(z) + " beyond ±" +
                                  std::to_string(kMaxDemHeight) + " m");
    }
  }
  const std::size_t cells = static_cast<std::size_t>(g_.ncols) * static_cast<std::size_t>(g_.nrows);
  if (z_.size() != cells || (!surface_.empty() && surface_.size() != cells)) {
    throw std::invalid_argument("DemGrid: " + std::to_string(z_.size()) + " heights and " +
                                std::to_string(surface_.size()) + " surface codes for " +
                                std::to_string(cells) + " cells");
  }
}

double DemGrid::node(int c, int r) const noexcept {
  assert(c >= 0 && c < g_.ncols && r >= 0 && r < g_.nrows);
  return z_[static_cast<std::size_t>(r) * static_cast<std::size_t>(g_.ncols) +
            static_cast<std::size_t>(c)];
}

DemGrid::Cell DemGrid::locate(double x, double y) const noexcept {
  Cell cell;
  const double u = clamp_index((x - g_.x0) / g_.cellsize, g_.ncols - 1, cell.clamped_u);
  const double v = clamp_index((y - g_.y0) / g_.cellsize, g_.nrows - 1, cell.clamped_v);
  cell.c = std::min(static_cast<int>(u), g_.ncols - 2);
  cell.r = std::min(static_cast<int>(v), g_.nrows - 2);
  cell.fu = u - cell.c;
  cell.fv = v - cell.r;
  return cell;
}

double DemGrid::height(double x, double y) const noexcept {
  const Cell k = locate(x, y);
  const double z00 = node(k.c, k.r);
  const double z10 = node(k.c + 1, k.r);
  const double z01 = node(k.c, k.r + 1);
  const double z11 = node(k.c + 1, k.r + 1);
  // DESIGN.md §6 DEM grid, bilinear on the unit cell: z = Σ z_ij·(1−fu or fu)·(1−fv or fv)
  return (1.0 - k.fv) * ((1.0 - k.fu) * z00 + k.fu * z10) +
         k.fv * ((1.0 - k.fu) * z01 + k.fu * z11);
}

Eigen::Vector3d DemGrid::normal(double x, double y) const noexcept {
  const Cell k = locate(x, y);
  const double z00 = node(k.c, k.r);
  const double z10 = node(k.c + 1, k.r);
  const double z01 = node(k.c, k.r + 1);
  const double z11 = node(k.c + 1, k.r + 1);
  // ∂z/∂x = [(1−fv)(z10−z00) + fv(z11−z01)]/h, ∂z/∂y = [(1−fu)(z01−z00) + fu(z11−z10)]/h
  const double dzdx =
      k.clamped_u ? 0.0 : ((1.0 - k.fv) * (z10 - z00) + k.fv * (z11 - z01)) / g_.cellsize;
  const double dzdy =
      k.clamped_v ? 0.0 : ((1.0 - k.fu) * (z01 - z00) + k.fu * (z11 - z10)) / g_.cellsize;
  return normal_from_gradient(dzdx, dzdy);
}

Surface DemGrid::surface(double x, double y) const noexcept {
  if (surface_.empty()) return fallback_;
  bool clamped = false;
  // The cell whose centre is nearest: round the node coordinate.
  const double u = clamp_index((x - g_.x0) / g_.cellsize + 0.5, g_.ncols - 1e-9, clamped);
  const double v = clamp_index((y - g_.y0) / g_.cellsize + 0.5, g_.nrows - 1e-9, clamped);
  const auto c = static_cast<std::size_t>(u);
  const auto r = static_cast<std::size_t>(v);
  return surface_[r * static_cast<std::size_t>(g_.ncols) + c];
}

}  // namespace hil::models

#include "models/terrain/terrain_patches.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace hil::models {

PatchedTerrain::PatchedTerrain(std::shared_ptr<const Terrain> base,
                               std::vector<SurfacePatch> patches)
    : base_(std::move(base)), patches_(std::move(patches)) {
  if (!base_) throw std::invalid_argument("surface patches: no base terrain");
  for (std::size_t i = 0; i < patches_.size(); ++i) {
    const SurfacePatch& p = patches_[i];
    const bool finite = std::isfinite(p.x_min) && std::isfinite(p.x_max) &&
                        std::isfinite(p.y_min) && std::isfinite(p.y_max);
    if (!finite || p.x_min > p.x_max || p.y_min > p.y_max) {
      throw std::invalid_argument("surface patch " + std::to_string(i) +
                                  ": expected finite bounds with x_min <= x_max, y_min <= y_max");
    }
  }
}

const SurfacePatch* PatchedTerrain::patch_at(double x, double y) const noexcept {
  for (auto it = patches_.rbegin(); it != patches_.rend(); ++it) {
    if (x >= it->x_min && x <= it->x_max && y >= it->y_min && y <= it->y_max) return &*it;
  }
  return nullptr;
}

double PatchedTerrain::height(double x, double y) const noexcept { return base_->height(x, y); }

Eigen::Vector3d PatchedTerrain::normal(double x, double y) const noexcept {
  return base_->normal(x, y);
}

SurfaceProperties PatchedTerrain::surface(double x, double y) const noexcept {
  const SurfacePatch* p = patch_at(x, y);
  return p != nullptr ? p->surface : base_->surface(x, y);
}

TerrainSample PatchedTerrain::sample(double x, double y) const noexcept {
  TerrainSample s = base_->sample(x, y);
  if (const SurfacePatch* p = patch_at(x, y)) s.surface = p->surface;
  return s;
}

}  // namespace hil::models

#include "runtime/scene/terrain_mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hil::runtime {

namespace {

constexpr std::array<models::Surface, 6> kSurfaces{models::Surface::dry,  models::Surface::wet,
                                                   models::Surface::snow, models::Surface::ice,
                                                   models::Surface::sand, models::Surface::clay};

/// Nodes along a side of length `length` at about `spacing` apart (at least 2).
std::size_t nodes_along(double length, double spacing) {
  return static_cast<std::size_t>(std::ceil(length / spacing - 1e-9)) + 1;
}

}  // namespace

io::scene::Rgb surface_color(models::Surface s) noexcept {
  switch (s) {
    case models::Surface::dry:
      return {0.42, 0.42, 0.42};
    case models::Surface::wet:
      return {0.22, 0.26, 0.32};
    case models::Surface::snow:
      return {0.95, 0.95, 0.97};
    case models::Surface::ice:
      return {0.72, 0.87, 0.95};
    case models::Surface::sand:
      return {0.86, 0.76, 0.52};
    case models::Surface::clay:
      return {0.55, 0.33, 0.2};
  }
  return {1.0, 0.0, 1.0};
}

io::scene::TerrainMesh terrain_mesh(const models::Terrain& terrain, const MeshArea& area,
                                    const TerrainMeshSpec& spec) {
  const double width = area.x_max - area.x_min;
  const double depth = area.y_max - area.y_min;
  if (!(width > 0.0 && depth > 0.0 && std::isfinite(width) && std::isfinite(depth) &&
        spec.spacing > 0.0 && spec.max_vertices >= 4)) {
    throw std::invalid_argument("terrain mesh: an empty or unbounded area, or a bad spacing");
  }
  double spacing =
      std::max(spec.spacing, std::sqrt(width * depth / static_cast<double>(spec.max_vertices)));
  std::size_t nx = nodes_along(width, spacing);
  std::size_t ny = nodes_along(depth, spacing);
  while (nx * ny > spec.max_vertices) {  // the ceilings add up to a row and a column
    spacing *= 1.01;
    nx = nodes_along(width, spacing);
    ny = nodes_along(depth, spacing);
  }
  io::scene::TerrainMesh mesh;
  mesh.vertices.reserve(3 * nx * ny);
  mesh.colors.reserve(3 * nx * ny);
  std::array<bool, kSurfaces.size()> shown{};
  for (std::size_t j = 0; j < ny; ++j) {
    const double y = area.y_min + depth * static_cast<double>(j) / static_cast<double>(ny - 1);
    for (std::size_t i = 0; i < nx; ++i) {
      const double x = area.x_min + width * static_cast<double>(i) / static_cast<double>(nx - 1);
      const models::Surface surface = terrain.surface(x, y).type;
      shown[static_cast<std::size_t>(surface)] = true;
      const io::scene::Rgb color = surface_color(surface);
      mesh.vertices.insert(mesh.vertices.end(), {x, y, terrain.height(x, y)});
      mesh.colors.insert(mesh.colors.end(), color.begin(), color.end());
    }
  }
  mesh.indices.reserve(6 * (nx - 1) * (ny - 1));
  for (std::size_t j = 0; j + 1 < ny; ++j) {
    for (std::size_t i = 0; i + 1 < nx; ++i) {
      const auto v00 = static_cast<std::uint32_t>(j * nx + i);
      const auto v10 = v00 + 1;
      const auto v01 = static_cast<std::uint32_t>(v00 + nx);
      const auto v11 = v01 + 1;
      mesh.indices.insert(mesh.indices.end(), {v00, v10, v11, v00, v11, v01});
    }
  }
  for (std::size_t s = 0; s < kSurfaces.size(); ++s) {
    if (shown[s]) {
      mesh.surfaces.push_back({.name = std::string(models::surface_name(kSurfaces[s])),
                               .color = surface_color(kSurfaces[s])});
    }
  }
  return mesh;
}

}  // namespace hil::runtime

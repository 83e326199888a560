#pragma once
// The ground of a run as a triangle mesh for the 3D scene (io/scene/scene.hpp): a regular grid
// over an area, each vertex at the terrain's own height there (models/terrain/terrain.hpp:
// flat, incline, bumps, DEM, surface patches alike) and coloured by the surface there. Setup
// phase (allocates); a pure function of the terrain.

#include <cstddef>

#include "io/scene/scene.hpp"
#include "models/terrain/surface.hpp"
#include "models/terrain/terrain.hpp"

namespace hil::runtime {

/// An axis-aligned area of the world [m].
struct MeshArea {
  double x_min = 0.0, x_max = 0.0, y_min = 0.0, y_max = 0.0;
};

struct TerrainMeshSpec {
  double spacing = 0.5;               ///< between vertices, where the vertex budget allows [m]
  std::size_t max_vertices = 65'536;  ///< the spacing grows until the grid fits (≥ 4)
};

/// The mesh over `area` (non-empty, finite; std::invalid_argument otherwise): the grid's
/// corners are the area's, its spacing `spec.spacing` or more (the same along x and y, up to
/// rounding to whole cells), two counter-clockwise triangles per cell.
[[nodiscard]] io::scene::TerrainMesh terrain_mesh(const models::Terrain& terrain,
                                                  const MeshArea& area,
                                                  const TerrainMeshSpec& spec = {});

/// The colour a surface is drawn in (0..1): dry asphalt grey, wet darker and bluish, snow
/// white, ice pale blue, sand tan, clay brown.
[[nodiscard]] io::scene::Rgb surface_color(models::Surface s) noexcept;

}  // namespace hil::runtime

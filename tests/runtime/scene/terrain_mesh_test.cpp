// The terrain as a mesh (runtime/scene/terrain_mesh.hpp): every vertex at the terrain model's
// own height there — incline, bumps, DEM — coloured by the surface there, within the vertex
// budget, two counter-clockwise triangles per grid cell.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "models/terrain/dem_grid.hpp"
#include "models/terrain/terrain_bumps.hpp"
#include "models/terrain/terrain_dem.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/terrain/terrain_incline.hpp"
#include "models/terrain/terrain_patches.hpp"
#include "runtime/scene/terrain_mesh.hpp"

namespace hil::runtime {
namespace {

/// Every vertex's height equals the model's, bit for bit; returns how many differ in z at
/// all (a flat mesh would have none).
std::size_t expect_heights_of(const models::Terrain& terrain, const io::scene::TerrainMesh& m) {
  std::size_t varied = 0;
  for (std::size_t v = 0; v < m.vertex_count(); ++v) {
    const double x = m.vertices[3 * v];
    const double y = m.vertices[3 * v + 1];
    EXPECT_EQ(m.vertices[3 * v + 2], terrain.height(x, y)) << "at (" << x << ", " << y << ")";
    varied += m.vertices[3 * v + 2] != m.vertices[2] ? 1 : 0;
  }
  return varied;
}

void expect_counter_clockwise_triangles(const io::scene::TerrainMesh& m) {
  ASSERT_EQ(m.indices.size() % 3, 0U);
  for (std::size_t t = 0; t < m.indices.size(); t += 3) {
    const auto p = [&](std::size_t k) {
      const std::size_t i = m.indices[t + k];
      EXPECT_LT(i, m.vertex_count());
      return std::array{m.vertices[3 * i], m.vertices[3 * i + 1]};
    };
    const auto a = p(0);
    const auto b = p(1);
    const auto c = p(2);
    const double cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    ASSERT_GT(cross, 0.0) << "triangle " << t / 3 << " is counter-clockwise seen from above";
  }
}

TEST(TerrainMesh, InclineVerticesAreAtTheModelsHeight) {
  const models::InclineTerrain incline({.grade_percent = 12.0, .rise_direction = 0.7, .z0 = 1.5});
  const MeshArea area{.x_min = -30, .x_max = 50, .y_min = -10, .y_max = 25};
  const io::scene::TerrainMesh mesh = terrain_mesh(incline, area);
  EXPECT_GT(expect_heights_of(incline, mesh), mesh.vertex_count() / 2);
  expect_counter_clockwise_triangles(mesh);
  // the grid spans the area exactly, at the spacing asked (0.5 m: 161 × 71 nodes)
  EXPECT_EQ(mesh.vertex_count(), 161U * 71U);
  EXPECT_EQ(mesh.vertices[0], -30.0);
  EXPECT_EQ(mesh.vertices[1], -10.0);
  EXPECT_EQ(mesh.vertices[3 * (mesh.vertex_count() - 1)], 50.0);
  EXPECT_EQ(mesh.vertices[3 * (mesh.vertex_count() - 1) + 1], 25.0);
  EXPECT_EQ(mesh.indices.size(), 6U * 160U * 70U);
}

TEST(TerrainMesh, BumpsVerticesAreAtTheModelsHeight) {
  const models::BumpsTerrain bumps(
      {.amplitude_x = 0.05, .wavelength_x = 2.0, .amplitude_y = 0.1, .wavelength_y = 7.0});
  const io::scene::TerrainMesh mesh =
      terrain_mesh(bumps, {.x_min = 0, .x_max = 20, .y_min = 0, .y_max = 20});
  EXPECT_GT(expect_heights_of(bumps, mesh), mesh.vertex_count() / 2);
}

TEST(TerrainMesh, DemVerticesAreAtTheModelsHeightAndColouredByItsCells) {
  // 4 × 3 nodes, 5 m apart; the east column is sand
  const models::GridGeometry g{.ncols = 4, .nrows = 3, .x0 = 100, .y0 = 200, .cellsize = 5};
  std::vector<double> heights{0, 1, 3, 2, 0.5, 1.5, 4, 2, 1, 2, 5, 3};
  std::vector<models::Surface> surfaces(12, models::Surface::dry);
  for (std::size_t r = 0; r < 3; ++r) surfaces[r * 4 + 3] = models::Surface::sand;
  const models::DemTerrain dem(models::DemGrid(g, heights, surfaces));
  const io::scene::TerrainMesh mesh =
      terrain_mesh(dem, {.x_min = 90, .x_max = 125, .y_min = 195, .y_max = 215});
  EXPECT_GT(expect_heights_of(dem, mesh), mesh.vertex_count() / 2);
  ASSERT_EQ(mesh.surfaces.size(), 2U);
  EXPECT_EQ(mesh.surfaces[0].name, "dry");
  EXPECT_EQ(mesh.surfaces[1].name, "sand");
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    const models::Surface s = dem.surface(mesh.vertices[3 * v], mesh.vertices[3 * v + 1]).type;
    const io::scene::Rgb c = surface_color(s);
    ASSERT_EQ(mesh.colors[3 * v], c[0]);
    ASSERT_EQ(mesh.colors[3 * v + 2], c[2]);
  }
}

TEST(TerrainMesh, PatchesColourTheGroundTheyCover) {
  auto base = std::make_shared<models::FlatTerrain>(models::FlatTerrainParams{.z0 = 0.2});
  const models::PatchedTerrain patched(base, {{.x_min = 0,
                                               .x_max = 10,
                                               .y_min = 0,
                                               .y_max = 10,
                                               .surface = {.type = models::Surface::ice}}});
  const io::scene::TerrainMesh mesh =
      terrain_mesh(patched, {.x_min = -10, .x_max = 20, .y_min = -10, .y_max = 20});
  EXPECT_EQ(expect_heights_of(patched, mesh), 0U) << "flat at 0.2 m";
  EXPECT_EQ(mesh.vertices[2], 0.2);
  ASSERT_EQ(mesh.surfaces.size(), 2U);
  EXPECT_EQ(mesh.surfaces[1].name, "ice");
  const io::scene::Rgb ice = surface_color(models::Surface::ice);
  std::size_t on_ice = 0;
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    on_ice += mesh.colors[3 * v] == ice[0] && mesh.colors[3 * v + 1] == ice[1] ? 1 : 0;
  }
  EXPECT_EQ(on_ice, 21U * 21U) << "the 10 m × 10 m patch at 0.5 m, edges included";
}

TEST(TerrainMesh, ALargeAreaStaysWithinTheVertexBudget) {
  const models::FlatTerrain flat({});
  const io::scene::TerrainMesh mesh =
      terrain_mesh(flat, {.x_min = 0, .x_max = 2000, .y_min = -40, .y_max = 40});
  EXPECT_LE(mesh.vertex_count(), 65'536U);
  EXPECT_GT(mesh.vertex_count(), 60'000U) << "and uses most of it";
  const double dx = mesh.vertices[3] - mesh.vertices[0];
  EXPECT_GT(dx, 0.5);
  EXPECT_THROW((void)terrain_mesh(flat, {.x_min = 0, .x_max = 0, .y_min = 0, .y_max = 1}),
               std::invalid_argument);
}

}  // namespace
}  // namespace hil::runtime

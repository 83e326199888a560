// DEM grid evaluation (models/terrain/dem_grid.hpp, models/terrain/terrain_dem.hpp): bilinear
// heights exact at nodes and midpoints, normals of the bilinear surface, per-cell surfaces, edge
// clamping.

#include "models/terrain/dem_grid.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <gtest/gtest.h>

#include "models/terrain/terrain_dem.hpp"

namespace hil::models {
namespace {

// 3 × 3 nodes, 2 m cells, first centre at (10, 20). Heights south row first.
constexpr GridGeometry kGeometry{.ncols = 3, .nrows = 3, .x0 = 10.0, .y0 = 20.0, .cellsize = 2.0};

DemGrid make_grid() {
  return {kGeometry,
          {0.0, 1.0, 4.0,   // y = 20
           2.0, 3.0, 5.0,   // y = 22
           6.0, 7.0, 9.0},  // y = 24
          {Surface::dry, Surface::wet, Surface::snow, Surface::ice, Surface::sand, Surface::clay,
           Surface::dry, Surface::dry, Surface::ice}};
}

TEST(DemGrid, ExactAtNodes) {
  const DemGrid g = make_grid();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_DOUBLE_EQ(g.height(10.0 + 2.0 * c, 20.0 + 2.0 * r), g.node(c, r)) << c << "," << r;
    }
  }
}

TEST(DemGrid, MidpointsAreMeansOfTheirNodes) {
  const DemGrid g = make_grid();
  EXPECT_DOUBLE_EQ(g.height(11.0, 20.0), 0.5);  // edge midpoint
  EXPECT_DOUBLE_EQ(g.height(10.0, 21.0), 1.0);
  EXPECT_DOUBLE_EQ(g.height(11.0, 21.0), (0.0 + 1.0 + 2.0 + 3.0) / 4);  // cell centre
  EXPECT_DOUBLE_EQ(g.height(13.0, 23.0), (3.0 + 5.0 + 7.0 + 9.0) / 4);
  // A general point: bilinear by hand, fu = 0.25, fv = 0.75 in the south-west cell.
  EXPECT_DOUBLE_EQ(g.height(10.5, 21.5),
                   0.25 * (0.75 * 0 + 0.25 * 1) + 0.75 * (0.75 * 2 + 0.25 * 3));
}

TEST(DemGrid, NormalIsTheGradientOfTheBilinearPatch) {
  const DemGrid g = make_grid();
  // South-west cell centre: dz/dx = ((1−0)+(3−2))/2/2 = 0.5, dz/dy = ((2−0)+(3−1))/2/2 = 1.
  const Eigen::Vector3d n = g.normal(11.0, 21.0);
  const Eigen::Vector3d expected = Eigen::Vector3d(-0.5, -1.0, 1.0).normalized();
  EXPECT_NEAR((n - expected).norm(), 0.0, 1e-15);
  EXPECT_GT(n.z(), 0.0);
}

TEST(DemGrid, OutsideIsClampedToTheEdge) {
  const DemGrid g = make_grid();
  EXPECT_DOUBLE_EQ(g.height(-100.0, -100.0), 0.0);  // south-west corner node
  EXPECT_DOUBLE_EQ(g.height(100.0, 100.0), 9.0);    // north-east corner node
  EXPECT_DOUBLE_EQ(g.height(11.0, -50.0), 0.5);     // south edge, between nodes
  // Beyond the south edge the ground continues level in y; x slope of the edge remains.
  const Eigen::Vector3d n = g.normal(11.0, -50.0);
  EXPECT_DOUBLE_EQ(n.y(), 0.0);
  EXPECT_NEAR((n - Eigen::Vector3d(-0.5, 0.0, 1.0).normalized()).norm(), 0.0, 1e-15);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isfinite(g.height(nan, nan)));  // a corrupt position never indexes outside
  EXPECT_TRUE(g.normal(nan, 1e300).allFinite());
}

TEST(DemGrid, SurfaceOfTheContainingCell) {
  const DemGrid g = make_grid();
  EXPECT_EQ(g.surface(10.0, 20.0), Surface::dry);
  EXPECT_EQ(g.surface(10.9, 20.9), Surface::dry);  // still nearest to node (0, 0)
  EXPECT_EQ(g.surface(11.1, 20.0), Surface::wet);  // crossed into cell (1, 0)
  EXPECT_EQ(g.surface(14.5, 20.0), Surface::snow);
  EXPECT_EQ(g.surface(12.0, 22.0), Surface::sand);
  EXPECT_EQ(g.surface(14.0, 22.5), Surface::clay);
  EXPECT_EQ(g.surface(14.0, 24.0), Surface::ice);
  EXPECT_EQ(g.surface(500.0, 500.0), Surface::ice);  // clamped: north-east cell
  EXPECT_EQ(g.surface(-500.0, 22.0), Surface::ice);  // clamped: west cell of row 1
}

TEST(DemGrid, NoSurfaceGridMeansFallbackEverywhere) {
  const DemGrid g(kGeometry, std::vector<double>(9, 1.0), {}, Surface::sand);
  EXPECT_EQ(g.surface(12.0, 22.0), Surface::sand);
}

TEST(DemGrid, RejectsSizesThatDoNotMatchTheGeometry) {
  EXPECT_THROW(DemGrid(kGeometry, std::vector<double>(8, 0.0), {}), std::invalid_argument);
  EXPECT_THROW(DemGrid(kGeometry, std::vector<double>(9, 0.0), std::vector<Surface>(3)),
               std::invalid_argument);
  EXPECT_THROW(DemGrid(kGeometry, std::vector<double>(9, 1e308), {}), std::invalid_argument);
  GridGeometry tiny = kGeometry;
  tiny.cellsize = 1e-300;  // slopes would overflow to inf
  EXPECT_THROW(DemGrid(tiny, std::vector<double>(9, 0.0), {}), std::invalid_argument);
}

TEST(DemTerrain, MapsSurfaceClassesToTheRigTable) {
  SurfaceTable table = default_surface_table();
  table[static_cast<std::size_t>(Surface::sand)].cone_index_pa = 1.5e6;
  table[static_cast<std::size_t>(Surface::sand)].type = Surface::dry;  // forced back to sand
  const DemTerrain t(make_grid(), table);
  const SurfaceProperties p = t.surface(12.0, 22.0);
  EXPECT_EQ(p.type, Surface::sand);
  EXPECT_EQ(p.cone_index_pa, 1.5e6);
  EXPECT_EQ(t.surface(10.0, 20.0).type, Surface::dry);
  EXPECT_DOUBLE_EQ(t.height(11.0, 21.0), 1.5);
}

}  // namespace
}  // namespace hil::models

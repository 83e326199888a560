// Analytic terrains (models/terrain_flat, terrain_incline, terrain_bumps): heights and
// normals against closed forms.

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "models/terrain/terrain_bumps.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/terrain/terrain_incline.hpp"

namespace hil::models {
namespace {

void expect_vec_near(const Eigen::Vector3d& a, const Eigen::Vector3d& b, double tol) {
  EXPECT_NEAR(a.x(), b.x(), tol);
  EXPECT_NEAR(a.y(), b.y(), tol);
  EXPECT_NEAR(a.z(), b.z(), tol);
}

TEST(FlatTerrain, HeightNormalAndSurfaceEverywhere) {
  const FlatTerrain t({.z0 = 1.5, .surface = {.type = Surface::ice, .friction_scale = 0.1}});
  for (const double x : {-100.0, 0.0, 3.7}) {
    EXPECT_EQ(t.height(x, -x), 1.5);
    expect_vec_near(t.normal(x, 2 * x), Eigen::Vector3d::UnitZ(), 0.0);
    EXPECT_EQ(t.surface(x, x).type, Surface::ice);
    EXPECT_EQ(t.surface(x, x).friction_scale, 0.1);
  }
}

TEST(InclineTerrain, FifteenPercentAlongXHasTheTextbookNormal) {
  const InclineTerrain t({.grade_percent = 15.0, .rise_direction = 0.0});
  EXPECT_NEAR(t.height(10.0, 0.0), 1.5, 1e-12);  // 15 % = 1.5 m per 10 m
  EXPECT_NEAR(t.height(10.0, 7.0), 1.5, 1e-12);  // level across the grade
  EXPECT_NEAR(t.height(-4.0, 0.0), -0.6, 1e-12);
  const Eigen::Vector3d expected = Eigen::Vector3d(-0.15, 0.0, 1.0) / std::sqrt(1.0 + 0.0225);
  expect_vec_near(t.normal(3.0, -2.0), expected, 1e-15);
  EXPECT_NEAR(t.normal(0, 0).norm(), 1.0, 1e-15);
}

TEST(InclineTerrain, GradeDirectionRotatesTheSlope) {
  // Rising towards +y (north-west of x, 90°): the normal tilts towards −y.
  const InclineTerrain t({.grade_percent = 10.0, .rise_direction = std::numbers::pi / 2, .z0 = 2});
  EXPECT_NEAR(t.height(5.0, 10.0), 3.0, 1e-12);
  EXPECT_NEAR(t.height(5.0, 0.0), 2.0, 1e-12);
  expect_vec_near(t.normal(0, 0), Eigen::Vector3d(0.0, -0.1, 1.0) / std::sqrt(1.01), 1e-15);
  // Diagonal 45°: the same 10 % along the diagonal, 10/√2 % along each axis.
  const InclineTerrain d({.grade_percent = 10.0, .rise_direction = std::numbers::pi / 4});
  EXPECT_NEAR(d.height(1.0, 1.0), 0.1 * std::sqrt(2.0), 1e-12);
}

TEST(BumpsTerrain, HeightAndSlopeOfASineAlongX) {
  const BumpsTerrain t({.amplitude_x = 0.05, .wavelength_x = 2.0});
  EXPECT_NEAR(t.height(0.5, 3.0), 0.05, 1e-15);    // crest at λ/4
  EXPECT_NEAR(t.height(1.5, -3.0), -0.05, 1e-15);  // trough at 3λ/4
  EXPECT_NEAR(t.height(1.0, 0.0), 0.0, 1e-15);
  expect_vec_near(t.normal(0.5, 0.0), Eigen::Vector3d::UnitZ(), 1e-15);  // flat at the crest
  // Steepest at x = 0: dz/dx = A·2π/λ = 0.05π.
  const double s = 0.05 * std::numbers::pi;
  expect_vec_near(t.normal(0.0, 9.0), Eigen::Vector3d(-s, 0.0, 1.0) / std::sqrt(1 + s * s), 1e-15);
}

TEST(BumpsTerrain, BothDirectionsAddAndZeroWavelengthSwitchesOff) {
  const BumpsTerrain egg({.amplitude_x = 0.1,
                          .wavelength_x = 4.0,
                          .amplitude_y = 0.02,
                          .wavelength_y = 1.0,
                          .z0 = 1.0});
  EXPECT_NEAR(egg.height(1.0, 0.25), 1.12, 1e-15);
  const double sx = 0.1 * 2 * std::numbers::pi / 4.0;
  const double sy = 0.02 * 2 * std::numbers::pi;
  expect_vec_near(egg.normal(0.0, 0.0), Eigen::Vector3d(-sx, -sy, 1).normalized(), 1e-15);
  const BumpsTerrain off({.amplitude_x = 0.1, .wavelength_x = 0.0});
  EXPECT_EQ(off.height(1.0, 1.0), 0.0);
  expect_vec_near(off.normal(0.3, 0.0), Eigen::Vector3d::UnitZ(), 0.0);
}

TEST(BumpsTerrain, NormalMatchesFiniteDifferenceOfHeight) {
  const BumpsTerrain t(
      {.amplitude_x = 0.07, .wavelength_x = 3.0, .amplitude_y = 0.03, .wavelength_y = 1.7});
  const double h = 1e-6;
  for (const double x : {-1.3, 0.2, 2.9}) {
    const double dzdx = (t.height(x + h, 0.4) - t.height(x - h, 0.4)) / (2 * h);
    const double dzdy = (t.height(x, 0.4 + h) - t.height(x, 0.4 - h)) / (2 * h);
    expect_vec_near(t.normal(x, 0.4), Eigen::Vector3d(-dzdx, -dzdy, 1).normalized(), 1e-8);
  }
}

}  // namespace
}  // namespace hil::models

namespace hil::models {
namespace {

TEST(Terrain, SampleIsHeightNormalAndSurfaceInOneCall) {
  const FlatTerrain flat({.z0 = 0.3, .surface = {.type = Surface::wet}});
  const InclineTerrain incline({.grade_percent = 12.0, .rise_direction = 0.4, .z0 = 1.0});
  const BumpsTerrain bumps({.amplitude_x = 0.05,
                            .wavelength_x = 3.0,
                            .amplitude_y = 0.02,
                            .wavelength_y = 5.0,
                            .surface = {.type = Surface::snow}});
  for (const Terrain* t :
       {static_cast<const Terrain*>(&flat), static_cast<const Terrain*>(&incline),
        static_cast<const Terrain*>(&bumps)}) {
    for (const double x : {-7.3, 0.0, 2.9}) {
      const TerrainSample s = t->sample(x, 0.5 * x + 1.0);
      EXPECT_EQ(s.height, t->height(x, 0.5 * x + 1.0));
      EXPECT_EQ(s.normal, t->normal(x, 0.5 * x + 1.0));
      EXPECT_EQ(s.surface.type, t->surface(x, 0.5 * x + 1.0).type);
    }
  }
}

}  // namespace
}  // namespace hil::models

#include "models/terrain/terrain_patches.hpp"

namespace hil::models {
namespace {

TEST(PatchedTerrain, PatchesChangeTheSurfaceNotTheGroundAndTheLastOneWins) {
  const auto base = std::make_shared<InclineTerrain>(
      InclineTerrainParams{.grade_percent = 5.0, .surface = {.type = Surface::dry}});
  const PatchedTerrain t(base, {{.x_min = 10,
                                 .x_max = 30,
                                 .y_min = -5,
                                 .y_max = 5,
                                 .surface = {.type = Surface::sand, .cone_index_pa = 400e3}},
                                {.x_min = 25,
                                 .x_max = 50,
                                 .y_min = -5,
                                 .y_max = 5,
                                 .surface = {.type = Surface::clay, .cone_index_pa = 600e3}}});
  EXPECT_EQ(t.surface(5.0, 0.0).type, Surface::dry);
  EXPECT_EQ(t.surface(20.0, 0.0).type, Surface::sand);
  EXPECT_EQ(t.surface(27.0, 0.0).type, Surface::clay);  // overlap: the later patch
  EXPECT_EQ(t.sample(40.0, 4.9).surface.cone_index_pa, 600e3);
  EXPECT_EQ(t.surface(40.0, 5.1).type, Surface::dry);  // beside the patch
  EXPECT_EQ(t.height(20.0, 0.0), base->height(20.0, 0.0));
  EXPECT_EQ(t.sample(20.0, 0.0).normal, base->normal(20.0, 0.0));
  EXPECT_THROW(PatchedTerrain(base, {{.x_min = 3, .x_max = 1}}), std::invalid_argument);
}

}  // namespace
}  // namespace hil::models

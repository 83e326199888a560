// The lidar's ray caster (models/sensors/lidar/ray_cast.hpp) against analytic intersections:
// planes, inclines, the objects' faces; the marcher against a brute-force search on bumps.
#include "models/sensors/lidar/ray_cast.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "models/sensors/lidar/terrain_slope.hpp"
#include "models/terrain/terrain_bumps.hpp"
#include "models/terrain/terrain_flat.hpp"
#include "models/terrain/terrain_incline.hpp"

namespace hil::models::lidar {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

Eigen::Vector3d direction(double azimuth_deg, double elevation_deg) {
  return {std::cos(elevation_deg * kDeg) * std::cos(azimuth_deg * kDeg),
          std::cos(elevation_deg * kDeg) * std::sin(azimuth_deg * kDeg),
          std::sin(elevation_deg * kDeg)};
}

TEST(LidarRayCast, FlatGroundAtKnownHeightIsHitAtHOverSinOfTheDepression) {
  const FlatTerrain flat({.z0 = 0.3});
  const Eigen::Vector3d o(5.0, -2.0, 2.1);  // 1.8 m above the ground
  for (const double el : {-15.0, -7.0, -3.0, -1.0}) {
    const RayHit hit = cast_terrain(flat, slope_bound(flat, {0, 0}, 10), o, direction(30, el), 200);
    ASSERT_TRUE(hit.hit()) << el;
    EXPECT_NEAR(hit.range, 1.8 / std::sin(-el * kDeg), 1e-4) << el;
    EXPECT_NEAR(hit.cos_incidence, std::sin(-el * kDeg), 1e-9);
  }
  EXPECT_FALSE(cast_terrain(flat, 0.01, o, direction(0, 1.0), 200).hit());   // upwards
  EXPECT_FALSE(cast_terrain(flat, 0.01, o, direction(0, -1.0), 100).hit());  // 103 m: out of range
}

TEST(LidarRayCast, InclineIsHitWhereTheRayMeetsItsPlane) {
  // z = x·tan(10°) rising along +x; a horizontal ray from x = 0, z = 1 meets it at x = 1/tan(10°)
  InclineTerrainParams p;
  p.grade_percent = 100.0 * std::tan(10.0 * kDeg);
  const InclineTerrain incline(p);
  const double s = slope_bound(incline, {0, 0}, 20);
  const RayHit hit = cast_terrain(incline, s, {0, 0, 1}, {1, 0, 0}, 100);
  ASSERT_TRUE(hit.hit());
  EXPECT_NEAR(hit.range, 1.0 / std::tan(10.0 * kDeg), 1e-4);
}

TEST(LidarRayCast, MarchingOnBumpsFindsTheFirstCrossingOfABruteForceSearch) {
  const BumpsTerrain bumps(
      {.amplitude_x = 0.15, .wavelength_x = 3.0, .amplitude_y = 0.1, .wavelength_y = 5.0});
  const double s = slope_bound(bumps, {0, 0}, 60);
  EXPECT_GE(s, 2 * std::numbers::pi * std::hypot(0.15 / 3.0, 0.1 / 5.0));
  const Eigen::Vector3d o(0.3, 0.2, 1.5);
  int hits = 0;
  for (double az = 0; az < 360; az += 7.5) {
    for (const double el : {-15.0, -9.0, -5.0, -3.0, -2.0}) {
      const Eigen::Vector3d d = direction(az, el);
      // Brute force: the first sign change of the gap in 0.5 mm steps
      double t_ref = 0.0;
      for (double t = 0.0; t < 60.0; t += 5e-4) {
        const Eigen::Vector3d p = o + t * d;
        if (p.z() <= bumps.height(p.x(), p.y())) {
          t_ref = t;
          break;
        }
      }
      const RayHit hit = cast_terrain(bumps, s, o, d, 60.0);
      ASSERT_EQ(hit.hit(), t_ref > 0.0) << az << " " << el;
      if (hit.hit()) {
        ++hits;
        EXPECT_NEAR(hit.range, t_ref, 1e-3) << az << " " << el;  // the search's own step
      }
    }
  }
  EXPECT_GT(hits, 200);
}

TEST(LidarRayCast, BoxIsHitOnTheFaceTheRayEnters) {
  const WorldObject box{
      .name = "b", .shape = ObjectShape::box, .length = 4, .width = 2, .height = 1.5};
  const ObjectState at{.x = 10, .y = 0, .z = 0, .yaw = 0};
  // Straight along x at 1 m height: the rear face x = 8
  RayHit hit = cast_object(box, at, {0, 0, 1}, {1, 0, 0}, 100);
  ASSERT_TRUE(hit.hit());
  EXPECT_DOUBLE_EQ(hit.range, 8.0);
  EXPECT_DOUBLE_EQ(hit.cos_incidence, 1.0);
  // Turned by 90°: its length lies along y, the face is at x = 9
  hit = cast_object(box, {.x = 10, .yaw = std::numbers::pi / 2}, {0, 0, 1}, {1, 0, 0}, 100);
  EXPECT_NEAR(hit.range, 9.0, 1e-12);
  // From above: the top face z = 1.5
  hit = cast_object(box, at, {10.5, 0.5, 5}, {0, 0, -1}, 100);
  EXPECT_NEAR(hit.range, 3.5, 1e-12);
  // Over it, beside it, behind the sensor, beyond the range: nothing
  EXPECT_FALSE(cast_object(box, at, {0, 0, 1.6}, {1, 0, 0}, 100).hit());
  EXPECT_FALSE(cast_object(box, at, {0, 1.01, 1}, {1, 0, 0}, 100).hit());
  EXPECT_FALSE(cast_object(box, at, {0, 0, 1}, {-1, 0, 0}, 100).hit());
  EXPECT_FALSE(cast_object(box, at, {0, 0, 1}, {1, 0, 0}, 7.9).hit());
}

TEST(LidarRayCast, CylinderAndConeAreHitOnTheirSurfaces) {
  const WorldObject cyl{.name = "c", .shape = ObjectShape::cylinder, .width = 1, .height = 2};
  RayHit hit = cast_object(cyl, {.x = 5}, {0, 0, 1}, {1, 0, 0}, 100);
  EXPECT_NEAR(hit.range, 4.5, 1e-12);
  hit = cast_object(cyl, {.x = 5}, {0, 0.3, 1}, {1, 0, 0}, 100);  // off-centre chord
  EXPECT_NEAR(hit.range, 5.0 - std::sqrt(0.25 - 0.09), 1e-12);
  EXPECT_NEAR(hit.cos_incidence, std::sqrt(0.25 - 0.09) / 0.5, 1e-12);
  EXPECT_FALSE(cast_object(cyl, {.x = 5}, {0, 0, 2.1}, {1, 0, 0}, 100).hit());
  // Cone of base radius 0.5, 1 m high: at height z its radius is 0.5·(1 − z)
  const WorldObject cone{.name = "k", .shape = ObjectShape::cone, .width = 1, .height = 1};
  for (const double z : {0.1, 0.5, 0.9}) {
    hit = cast_object(cone, {.x = 5}, {0, 0, z}, {1, 0, 0}, 100);
    ASSERT_TRUE(hit.hit());
    EXPECT_NEAR(hit.range, 5.0 - 0.5 * (1 - z), 1e-12) << z;
    // The side leans back by atan(0.5): a horizontal ray meets it at cos = 1/√(1 + 0.25)
    EXPECT_NEAR(hit.cos_incidence, 1.0 / std::sqrt(1.25), 1e-12);
  }
  EXPECT_FALSE(cast_object(cone, {.x = 5}, {0, 0, 1.01}, {1, 0, 0}, 100).hit());
  hit = cast_object(cone, {.x = 5}, {5, 0, 3}, {0, 0, -1}, 100);  // onto the apex
  EXPECT_NEAR(hit.range, 2.0, 1e-9);
}

TEST(LidarRayCast, TheNearestOfTerrainAndObjectsIsTheHit) {
  const FlatTerrain flat({});
  const WorldObject box{
      .name = "b", .shape = ObjectShape::box, .length = 1, .width = 1, .height = 1};
  const std::array objects{box};
  const std::array states{ObjectState{.x = 6}};
  const RayWorld world{.terrain = &flat, .slope_bound = 0.01, .objects = objects, .states = states};
  // Down at 5.71°: the ground at 10 m is behind the box's rear face at x = 5.5
  const Eigen::Vector3d d = Eigen::Vector3d(1, 0, -0.1).normalized();
  const RayHit hit = cast_ray(world, {0, 0, 1}, d, 100);
  EXPECT_NEAR(hit.range, 5.5 / d.x(), 1e-12);
  const RayHit ground = cast_ray({.terrain = &flat, .slope_bound = 0.01}, {0, 0, 1}, d, 100);
  EXPECT_NEAR(ground.range, 10.0 / d.x(), 1e-4);
}

}  // namespace
}  // namespace hil::models::lidar

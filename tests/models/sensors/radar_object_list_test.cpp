// The radar's object list (models/sensors/radar/radar_object_list.hpp) against geometry worked
// out by hand: relative velocity −v for a target closing at v (the target moving, the vehicle
// moving, the vehicle heading north), the field of view's and the range's edges, the nearest
// point of a box and a cylinder, the mount's offset and yaw, nearest-first ordering up to
// max_objects, dynamic properties, and the noise's statistics against the configured σ.

#include "models/sensors/radar/radar_object_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace hil::models::radar {
namespace {

constexpr double kPi = std::numbers::pi;

RadarParams exact(double fov_deg = 90.0, double range = 200.0) {
  return {.range_max = range,
          .fov_azimuth = fov_deg * kPi / 180.0,
          .max_objects = 32,
          .distance_noise = 0.0,
          .velocity_noise = 0.0};
}

/// A thin pole: its footprint's nearest point is (almost) its centre.
WorldObject pole() {
  return {.name = "pole", .shape = ObjectShape::cylinder, .width = 1e-6, .height = 2.0};
}

struct World {
  std::vector<WorldObject> objects;
  std::vector<ObjectState> states;
  void add(const WorldObject& o, const ObjectState& s) {
    objects.push_back(o);
    states.push_back(s);
  }
};

TEST(RadarObjectList, ATargetApproachingAtVGivesMinusV) {
  World w;
  w.add({.name = "car",
         .shape = ObjectShape::box,
         .kind = ObjectKind::vehicle,
         .length = 4.0,
         .width = 2.0,
         .height = 1.5,
         .rcs_dbsm = 10.0},
        {.x = 50.0, .y = 0.0, .yaw = kPi, .vx = -12.5, .vy = 0.0, .moving = true});
  RadarObjectList radar(exact(), 1, 1);
  const auto list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_NEAR(list[0].vrel_long, -12.5, 1e-12);
  EXPECT_NEAR(list[0].vrel_lat, 0.0, 1e-12);
  EXPECT_NEAR(list[0].dist_long, 48.0, 1e-12);  // its rear face: 50 − 4/2
  EXPECT_NEAR(list[0].dist_lat, 0.0, 1e-12);
  EXPECT_EQ(list[0].dynamic, DynamicProperty::oncoming);
  EXPECT_EQ(list[0].rcs_dbsm, 10.0);
}

TEST(RadarObjectList, TheVehiclesOwnMotionCountsToo) {
  World w;
  w.add(pole(), {.x = 30.0, .y = 0.0});
  RadarObjectList radar(exact(), 1, 1);
  CarrierState carrier{.velocity = {8.0, 0.0, 0.0}};  // driving east at 8 m/s towards it
  auto list = radar.measure(carrier, w.objects, w.states);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_NEAR(list[0].vrel_long, -8.0, 1e-12);
  EXPECT_EQ(list[0].dynamic, DynamicProperty::stationary);

  // Heading north at 8 m/s, the pole 30 m north: the same figures in the sensor's frame
  w.states[0] = {.x = 0.0, .y = 30.0};
  carrier = {.yaw = kPi / 2, .velocity = {0.0, 8.0, 0.0}};
  list = radar.measure(carrier, w.objects, w.states);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_NEAR(list[0].dist_long, 30.0, 1e-5);
  EXPECT_NEAR(list[0].dist_lat, 0.0, 1e-5);
  EXPECT_NEAR(list[0].vrel_long, -8.0, 1e-12);
  EXPECT_NEAR(list[0].vrel_lat, 0.0, 1e-12);
}

TEST(RadarObjectList, TheMountsOffsetYawAndTheBodysRotationAreTheSensors) {
  World w;
  w.add(pole(), {.x = 2.0, .y = 20.0});
  RadarParams p = exact();
  p.mount.position = {2.0, 0.5, 0.0};
  p.mount.yaw = kPi / 2;  // looking left
  RadarObjectList radar(p, 1, 1);
  // Yawing left at 0.5 rad/s, not translating: the mount moves at ω × r = (−0.25, 1, 0)
  const CarrierState carrier{.angular_velocity = {0.0, 0.0, 0.5}};
  const auto list = radar.measure(carrier, w.objects, w.states);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_NEAR(list[0].dist_long, 19.5, 1e-5);  // 20 − 0.5 along the sensor's x (world y)
  EXPECT_NEAR(list[0].dist_lat, 0.0, 1e-5);
  EXPECT_NEAR(list[0].vrel_long, -1.0, 1e-12);  // −(world y of the mount's velocity)
  EXPECT_NEAR(list[0].vrel_lat, -0.25, 1e-12);  // sensor y = −world x: −(+0.25)
}

TEST(RadarObjectList, TheFieldOfViewsEdges) {
  World w;
  const double r = 40.0;
  for (const double deg : {44.9, 45.1, -44.9, -45.1}) {
    const double a = deg * kPi / 180.0;
    w.add(pole(), {.x = r * std::cos(a), .y = r * std::sin(a)});
  }
  RadarObjectList radar(exact(90.0), w.objects.size(), 1);
  const auto list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 2U);
  std::vector<std::uint32_t> seen{list[0].target, list[1].target};
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 2}));  // ±44.9° in, ±45.1° out
}

TEST(RadarObjectList, TheRangesEdgeAtTheNearestPoint) {
  World w;
  WorldObject box{.name = "wall", .shape = ObjectShape::box, .length = 2.0, .width = 6.0};
  w.add(box, {.x = 100.9});  // nearest face at 99.9 m
  w.add(box, {.x = 101.1});  // at 100.1 m
  RadarObjectList radar(exact(90.0, 100.0), 2, 1);
  const auto list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_EQ(list[0].target, 0U);
  EXPECT_NEAR(list[0].dist_long, 99.9, 1e-9);
}

TEST(RadarObjectList, TheNearestPointOfATurnedBoxAndOfACylinder) {
  World w;
  // 4 × 2 m box turned 90°: its 2 m side faces the sensor; nearest face at 20 − 1
  w.add({.name = "b", .shape = ObjectShape::box, .length = 4.0, .width = 2.0},
        {.x = 20.0, .y = 0.0, .yaw = kPi / 2});
  // a 3 m cylinder 10 m off at 45°: its circle 1.5 m closer along the line of sight
  w.add({.name = "c", .shape = ObjectShape::cylinder, .width = 3.0},
        {.x = 10.0 / std::sqrt(2.0), .y = 10.0 / std::sqrt(2.0)});
  RadarObjectList radar(exact(120.0), 2, 1);
  const auto list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 2U);
  EXPECT_EQ(list[0].target, 1U);  // nearest first
  EXPECT_NEAR(list[0].range, 8.5, 1e-12);
  EXPECT_NEAR(list[0].dist_long, 8.5 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(list[1].dist_long, 19.0, 1e-12);
  EXPECT_NEAR(list[1].dist_lat, 0.0, 1e-12);
}

TEST(RadarObjectList, NearestFirstUpToMaxObjects) {
  World w;
  for (const double x : {50.0, 10.0, 40.0, 20.0, 30.0}) w.add(pole(), {.x = x});
  RadarParams p = exact();
  p.max_objects = 3;
  RadarObjectList radar(p, w.objects.size(), 1);
  const auto list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 3U);
  EXPECT_EQ(list[0].target, 1U);
  EXPECT_EQ(list[1].target, 3U);
  EXPECT_EQ(list[2].target, 4U);
}

TEST(RadarObjectList, DynamicProperties) {
  World w;
  w.add(pole(), {.x = 20.0, .y = 0.0, .vx = 5.0, .moving = true});              // moving away
  w.add(pole(), {.x = 25.0, .y = 2.0, .vx = 0.0, .vy = -3.0, .moving = true});  // crossing
  w.add(pole(), {.x = 30.0, .y = -2.0, .vx = 0.2});                             // below 0.5 m/s
  RadarObjectList radar(exact(), 3, 1);
  auto list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 3U);
  EXPECT_EQ(list[0].dynamic, DynamicProperty::moving);
  EXPECT_EQ(list[1].dynamic, DynamicProperty::crossing_moving);
  EXPECT_EQ(list[2].dynamic, DynamicProperty::stationary);
  w.states[0].vx = 0.0;  // the first stops: it was seen moving
  list = radar.measure({}, w.objects, w.states);
  EXPECT_EQ(list[0].dynamic, DynamicProperty::stopped);
}

TEST(RadarObjectList, IdsPersistWhileTrackedAndAreNotReusedAtOnce) {
  World w;
  w.add(pole(), {.x = 10.0});
  w.add(pole(), {.x = 20.0});
  w.add(pole(), {.x = 30.0});
  RadarObjectList radar(exact(), 3, 1);
  auto list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 3U);
  const std::uint8_t id0 = list[0].id;
  const std::uint8_t id1 = list[1].id;
  const std::uint8_t id2 = list[2].id;
  EXPECT_NE(id0, id1);
  EXPECT_NE(id1, id2);
  // Object 0 moves behind the sensor (lost), object 2 comes closer than object 1
  w.states[0].x = -10.0;
  w.states[2].x = 15.0;
  list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 2U);
  EXPECT_EQ(list[0].target, 2U);
  EXPECT_EQ(list[0].id, id2);  // kept through the reordering
  EXPECT_EQ(list[1].id, id1);
  // Object 0 returns: a new track, not the id it just lost
  w.states[0].x = 40.0;
  list = radar.measure({}, w.objects, w.states);
  ASSERT_EQ(list.size(), 3U);
  EXPECT_EQ(list[2].target, 0U);
  EXPECT_NE(list[2].id, id0);
  EXPECT_NE(list[2].id, id1);
  EXPECT_NE(list[2].id, id2);
}

TEST(RadarObjectList, NoiseHasTheConfiguredSigmaAndIsSeeded) {
  World w;
  w.add(pole(), {.x = 50.0, .y = 5.0, .vx = -10.0, .moving = true});
  RadarParams p = exact();
  p.distance_noise = 0.4;
  p.velocity_noise = 0.25;
  RadarObjectList radar(p, 1, derive_seed(42, "radar.front"));
  RadarObjectList again(p, 1, derive_seed(42, "radar.front"));
  RadarObjectList exact_radar(exact(), 1, 1);
  const RadarObject truth = exact_radar.measure({}, w.objects, w.states)[0];
  constexpr int kCycles = 20000;
  std::array<double, 4> sum{};
  std::array<double, 4> sum2{};
  for (int k = 0; k < kCycles; ++k) {
    const RadarObject o = radar.measure({}, w.objects, w.states)[0];
    const RadarObject o2 = again.measure({}, w.objects, w.states)[0];
    ASSERT_EQ(o.dist_long, o2.dist_long);  // same seed, same noise
    const std::array<double, 4> e{o.dist_long - truth.dist_long, o.dist_lat - truth.dist_lat,
                                  o.vrel_long - truth.vrel_long, o.vrel_lat - truth.vrel_lat};
    for (std::size_t i = 0; i < 4; ++i) {
      sum[i] += e[i];
      sum2[i] += e[i] * e[i];
    }
  }
  const std::array<double, 4> sigma{0.4, 0.4, 0.25, 0.25};
  for (std::size_t i = 0; i < 4; ++i) {
    const double mean = sum[i] / kCycles;
    const double sd = std::sqrt(sum2[i] / kCycles - mean * mean);
    EXPECT_LT(std::abs(mean), 4.0 * sigma[i] / std::sqrt(kCycles)) << i;
    EXPECT_NEAR(sd, sigma[i], 0.03 * sigma[i]) << i;  // σ's standard error: σ/√(2N) ≈ 0.5 %
  }
}

}  // namespace
}  // namespace hil::models::radar

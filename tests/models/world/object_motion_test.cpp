// A moving object's path and speed profile (models/world/object_motion.hpp) against the
// constant-acceleration kinematics it is made of: s = v0·t + a·t²/2, v² = v0² + 2a·s. From
// rest at the first point, at the point's speed in between, never faster than the bound
// allows, slowed in time for a slower point, at rest at the last.

#include "models/world/object_motion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace hil::models {
namespace {

MovingObjectSpec along(std::vector<PathPoint> path, double a = 2.0) {
  MovingObjectSpec s;
  s.object.name = "target";
  s.path = std::move(path);
  s.max_acceleration = a;
  return s;
}

TEST(ObjectMotion, TrapezoidOnAStraightPathIsTheAnalyticOne) {
  // 100 m at 10 m/s, 2 m/s²: 5 s (25 m) up, 5 s (50 m) at 10 m/s, 5 s (25 m) down
  const ObjectMotion m(along({{0, 0, 10}, {100, 0, 10}}));
  EXPECT_NEAR(m.duration(), 15.0, 1e-12);
  EXPECT_DOUBLE_EQ(m.length(), 100.0);
  ASSERT_EQ(m.phases().size(), 3U);
  for (const double t : {0.0, 1.0, 2.5, 4.9}) {  // speeding up: s = a·t²/2
    const ObjectState s = m.at(t);
    EXPECT_NEAR(s.x, 0.5 * 2.0 * t * t, 1e-12) << t;
    EXPECT_NEAR(s.vx, 2.0 * t, 1e-12) << t;
    EXPECT_TRUE(s.moving);
  }
  EXPECT_NEAR(m.at(7.0).x, 25.0 + 10.0 * 2.0, 1e-12);
  EXPECT_NEAR(m.at(7.0).vx, 10.0, 1e-12);
  EXPECT_NEAR(m.at(13.0).x, 100.0 - 0.5 * 2.0 * 2.0 * 2.0, 1e-12);  // 2 s before the stop
  EXPECT_NEAR(m.at(13.0).vx, 4.0, 1e-12);
  const ObjectState end = m.at(20.0);
  EXPECT_DOUBLE_EQ(end.x, 100.0);
  EXPECT_EQ(end.vx, 0.0);
  EXPECT_FALSE(end.moving);
}

TEST(ObjectMotion, ATooShortPathIsATriangleBelowTheSpeed) {
  // 4 m at 10 m/s, 2 m/s²: up over 2 m to √(2·2·2) = 2√2 m/s, then down
  const ObjectMotion m(along({{0, 0, 10}, {4, 0, 10}}));
  ASSERT_EQ(m.phases().size(), 2U);
  EXPECT_NEAR(m.duration(), 2.0 * std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(m.at(std::sqrt(2.0)).x, 2.0, 1e-12);
  EXPECT_NEAR(m.at(std::sqrt(2.0)).vx, 2.0 * std::sqrt(2.0), 1e-12);
}

TEST(ObjectMotion, NeverExceedsTheAccelerationBoundAndSlowsInTimeForASlowerPoint) {
  // 10 m/s, then 4 m/s from x = 60 on, then 8 m/s from x = 80 on; a = 1.5 m/s²
  const double a = 1.5;
  const ObjectMotion m(along({{0, 0, 10}, {60, 0, 4}, {80, 0, 8}, {150, 0, 8}}, a));
  const double dt = 1e-3;
  double v_prev = 0.0;
  double x_prev = 0.0;
  double max_v_in_slow_part = 0.0;
  for (double t = dt; t < m.duration() + 1.0; t += dt) {
    const ObjectState s = m.at(t);
    const double v = std::hypot(s.vx, s.vy);
    EXPECT_LE(std::abs(v - v_prev), a * dt + 1e-9) << "at " << t;
    EXPECT_GE(s.x, x_prev - 1e-12) << "never backwards, at " << t;
    EXPECT_LE(v, 10.0 + 1e-12);
    if (s.x >= 60.0 && s.x <= 80.0) max_v_in_slow_part = std::max(max_v_in_slow_part, v);
    v_prev = v;
    x_prev = s.x;
  }
  EXPECT_LE(max_v_in_slow_part, 4.0 + 1e-9) << "at 4 m/s from the point that asks for it";
  EXPECT_GE(max_v_in_slow_part, 4.0 - 1e-9);
  EXPECT_EQ(v_prev, 0.0) << "at rest at the end";
  EXPECT_DOUBLE_EQ(x_prev, 150.0);
}

TEST(ObjectMotion, FollowsACornerWithItsHeadingAndVelocityAlongEachLeg) {
  // East 10 m, then north 10 m, at 1 m/s (a = 2: 0.25 m to speed up)
  const ObjectMotion m(along({{0, 0, 1}, {10, 0, 1}, {10, 10, 1}}));
  const ObjectState before = m.at(-1.0);
  EXPECT_EQ(before.x, 0.0);
  EXPECT_EQ(before.yaw, 0.0);
  EXPECT_FALSE(before.moving);
  // 0.25 m in 0.5 s to 1 m/s, then 1 m/s: the corner (s = 10 m) at 10.25 s, s = 15 m at 15.25 s
  const ObjectState on_second = m.at(15.25);
  EXPECT_NEAR(on_second.x, 10.0, 1e-12);
  EXPECT_NEAR(on_second.y, 5.0, 1e-9);
  EXPECT_NEAR(on_second.yaw, std::numbers::pi / 2, 1e-12);
  EXPECT_NEAR(on_second.vy, 1.0, 1e-12);
  EXPECT_NEAR(on_second.vx, 0.0, 1e-12);
}

TEST(ObjectMotion, AStaticObjectStaysAtItsPose) {
  MovingObjectSpec s;
  s.object.name = "crate";
  s.start = {.x = 3, .y = -2, .yaw = 0.5};
  const ObjectMotion m(s);
  EXPECT_EQ(m.duration(), 0.0);
  for (const double t : {-1.0, 0.0, 100.0}) {
    const ObjectState st = m.at(t);
    EXPECT_EQ(st.x, 3.0);
    EXPECT_EQ(st.y, -2.0);
    EXPECT_EQ(st.yaw, 0.5);
    EXPECT_FALSE(st.moving);
  }
}

TEST(ObjectMotion, RefusesAPathItCannotFollow) {
  EXPECT_THROW(ObjectMotion(along({{0, 0, 1}})), std::invalid_argument);
  EXPECT_THROW(ObjectMotion(along({{0, 0, 1}, {0, 0, 1}})), std::invalid_argument);
  EXPECT_THROW(ObjectMotion(along({{0, 0, 0}, {1, 0, 1}})), std::invalid_argument);
  EXPECT_THROW(ObjectMotion(along({{0, 0, 1}, {1, 0, 1}}, 0.0)), std::invalid_argument);
}

}  // namespace
}  // namespace hil::models

// Aerodynamic loads and wind (models/chassis/aero.hpp) against hand-computed values.

#include "models/chassis/aero.hpp"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

namespace hil::models {
namespace {

constexpr AeroParams kCar{.air_density = 1.2,
                          .drag_coefficient = 0.3,
                          .frontal_area = 2.0,
                          .side_force_coefficient = 0.9,
                          .side_area = 5.0,
                          .x_cp = 0.4};
const Eigen::Vector3d kStill = Eigen::Vector3d::Zero();  // NOLINT(cert-err58-cpp): no throw

TEST(Aero, DragAtThirtyMetresPerSecond) {
  const AeroLoads l = aero_loads(kCar, {30.0, 0, 0}, kStill);
  EXPECT_DOUBLE_EQ(l.force.x(), -0.5 * 1.2 * 0.3 * 2.0 * 900.0);  // −324 N
  EXPECT_EQ(l.force.y(), 0.0);
  EXPECT_EQ(l.moment.z(), 0.0);
  EXPECT_DOUBLE_EQ(aero_loads(kCar, {-30.0, 0, 0}, kStill).force.x(), 324.0);  // reversing
}

TEST(Aero, NoRelativeWindNoLoads) {
  const Eigen::Vector3d v(12.0, -3.0, 0.0);
  const AeroLoads l = aero_loads(kCar, v, v);  // moving with the air
  EXPECT_EQ(l.force, Eigen::Vector3d::Zero());
  EXPECT_EQ(l.moment, Eigen::Vector3d::Zero());
}

TEST(Aero, TailWindReducesDragExactly) {
  // 30 m/s with a 10 m/s tail wind = 20 m/s of airspeed: drag × (20/30)².
  const double still = aero_loads(kCar, {30.0, 0, 0}, kStill).force.x();
  const double tail = aero_loads(kCar, {30.0, 0, 0}, {10.0, 0, 0}).force.x();
  EXPECT_DOUBLE_EQ(tail, still * 4.0 / 9.0);
  const double head = aero_loads(kCar, {30.0, 0, 0}, {-10.0, 0, 0}).force.x();
  EXPECT_DOUBLE_EQ(head, still * 16.0 / 9.0);
}

TEST(Aero, CrosswindFromTheLeftPushesRightAndYawsAwayFromTheWind) {
  // Standing still, 15 m/s blowing from the left (+y) towards the right (−y).
  const AeroLoads l = aero_loads(kCar, kStill, {0.0, -15.0, 0.0});
  EXPECT_DOUBLE_EQ(l.force.y(), -0.5 * 1.2 * 0.9 * 5.0 * 225.0);
  EXPECT_LT(l.force.y(), 0.0);
  EXPECT_DOUBLE_EQ(l.moment.z(), 0.4 * l.force.y());  // nose turns right, away from the wind
  EXPECT_EQ(l.force.x(), 0.0);
  // Driving at 20 m/s in it: |v_rel| = 25 raises both drag and side force.
  const AeroLoads d = aero_loads(kCar, {20.0, 0, 0}, {0.0, -15.0, 0.0});
  EXPECT_DOUBLE_EQ(d.force.x(), -0.5 * 1.2 * 0.3 * 2.0 * 25.0 * 20.0);
  EXPECT_DOUBLE_EQ(d.force.y(), -0.5 * 1.2 * 0.9 * 5.0 * 25.0 * 15.0);
}

TEST(Wind, MeteorologicalFromDirectionInEarthAxes) {
  // From +y (direction π/2): blows towards −y.
  const Eigen::Vector3d w = wind_velocity_earth(10.0, std::numbers::pi / 2);
  EXPECT_NEAR(w.x(), 0.0, 1e-12);
  EXPECT_NEAR(w.y(), -10.0, 1e-12);
  // A vehicle heading along +y (yaw π/2) sees that wind as a pure head wind (−x body).
  const Eigen::Vector3d b = earth_to_body_yaw(w, std::numbers::pi / 2);
  EXPECT_NEAR(b.x(), -10.0, 1e-12);
  EXPECT_NEAR(b.y(), 0.0, 1e-12);
  // Heading along +x it comes from the left: negative side force.
  const Eigen::Vector3d side = earth_to_body_yaw(w, 0.0);
  EXPECT_LT(aero_loads(kCar, kStill, side).force.y(), 0.0);
}

}  // namespace
}  // namespace hil::models

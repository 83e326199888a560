// Road loads (models/chassis/road_load.hpp): grade force and RAVON eq. (1). (The coast-down with
// drag and rolling resistance is tested on the whole vehicle: vehicle_test.cpp.)

#include "models/chassis/road_load.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "models/terrain/terrain_incline.hpp"

namespace hil::models {
namespace {

constexpr double g = kStandardGravity;

TEST(GradeForce, TenPercentUphillAndEq1Agree) {
  const double m = 2600.0;
  const double theta = std::atan(0.10);  // 10 % grade rising ahead
  EXPECT_NEAR(grade_force(m, g, theta), -m * g * 0.1 / std::sqrt(1.01), 1e-9);
  EXPECT_NEAR(normal_load_on_grade(m, g, theta), m * g / std::sqrt(1.01), 1e-9);
  // RAVON eq. (1) with the incline terrain's normal: flat-road gravity + G' = inclined gravity.
  const InclineTerrain road({.grade_percent = 10.0});
  const Eigen::Vector3d G_prime = inclination_force(m, g, road.normal(0, 0));
  EXPECT_NEAR(G_prime.x(), grade_force(m, g, theta), 1e-9);
  EXPECT_EQ(G_prime.y(), 0.0);
  const Eigen::Vector3d total = Eigen::Vector3d(0, 0, -m * g) + G_prime;
  EXPECT_NEAR(total.z(), -normal_load_on_grade(m, g, theta), 1e-9);  // weight into the road
  EXPECT_NEAR(total.norm(), m * g, 1e-9);  // only the direction of gravity changes
  EXPECT_EQ(inclination_force(m, g, Eigen::Vector3d::UnitZ()), Eigen::Vector3d::Zero());
}

}  // namespace
}  // namespace hil::models

// External road inputs (models/terrain/road_input.hpp): per-wheel friction scale and road normal
// from channels, robust against garbage values.

#include "models/terrain/road_input.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace hil::models {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(FrictionScaleFromInput, GarbageFromTheBusIsContained) {
  EXPECT_EQ(sanitize_friction_scale(0.5), 0.5);
  EXPECT_EQ(sanitize_friction_scale(1e-4), 1e-4);  // RAVON §3.2: wheel off the ground
  EXPECT_EQ(sanitize_friction_scale(kNan), 1.0);
  EXPECT_EQ(sanitize_friction_scale(-2.0), 0.0);
  EXPECT_EQ(sanitize_friction_scale(1e9), kMaxExternalFrictionScale);
}

TEST(RoadNormalFromInput, NormalizesAndRejectsImpossibleNormals) {
  const Eigen::Vector3d n = road_normal_from_input(-0.15, 0.0, 1.0);
  EXPECT_NEAR((n - Eigen::Vector3d(-0.15, 0, 1) / std::sqrt(1.0225)).norm(), 0.0, 1e-15);
  EXPECT_EQ(road_normal_from_input(0, 0, 0), Eigen::Vector3d::UnitZ());
  EXPECT_EQ(road_normal_from_input(kNan, 0, 1), Eigen::Vector3d::UnitZ());
  EXPECT_EQ(road_normal_from_input(0.1, 0, -1), Eigen::Vector3d::UnitZ());  // upside down
}

}  // namespace
}  // namespace hil::models

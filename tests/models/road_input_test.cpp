// External road inputs (models/road_input.hpp): per-wheel friction scale on top of the map,
// road normal from channels, robustness against garbage values.

#include "models/road_input.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "models/terrain_flat.hpp"

namespace hil::models {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(WheelFrictionOverride, ChannelScaleMultipliesTheMapScale) {
  const FlatTerrain wet({.surface = {.type = Surface::wet, .friction_scale = 0.7}});
  WheelFrictionOverride o;
  o.set(0, 0.5);
  o.set(3, 1e-4);  // RAVON §3.2: wheel off the ground
  EXPECT_DOUBLE_EQ(o.surface_at(wet, 0, 1.0, 2.0).friction_scale, 0.35);
  EXPECT_EQ(o.surface_at(wet, 0, 1.0, 2.0).type, Surface::wet);
  EXPECT_DOUBLE_EQ(o.surface_at(wet, 1, 1.0, 2.0).friction_scale, 0.7);  // never set: map only
  EXPECT_DOUBLE_EQ(o.surface_at(wet, 3, 1.0, 2.0).friction_scale, 0.7e-4);
}

TEST(WheelFrictionOverride, GarbageFromTheBusIsContained) {
  WheelFrictionOverride o;
  o.set(0, kNan);
  o.set(1, -2.0);
  o.set(2, 1e9);
  o.set(kMaxWheels, 0.1);  // out of range: ignored
  EXPECT_EQ(o.scale(0), 1.0);
  EXPECT_EQ(o.scale(1), 0.0);
  EXPECT_EQ(o.scale(2), kMaxExternalFrictionScale);
  EXPECT_EQ(o.scale(kMaxWheels), 1.0);
  EXPECT_DOUBLE_EQ(apply_friction_scale({.friction_scale = 0.8}, 0.5).friction_scale, 0.4);
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

// A sensor's pose from the body's and its mount (models/sensors/sensor_mount.hpp), against
// rotations worked out by hand: the z-y-x order of the attitude, the mount's offset carried
// round by the body's yaw, and the mount's own angles composed after the body's.

#include "models/sensors/sensor_mount.hpp"

#include <gtest/gtest.h>

#include <numbers>

namespace hil::models {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(SensorMount, TheAttitudeRotatesYawThenPitchThenRoll) {
  // Yaw 90° takes x to y; pitch 90° (nose down in ISO 8855) takes x to −z.
  EXPECT_TRUE(attitude(0, 0, kPi / 2).col(0).isApprox(Eigen::Vector3d::UnitY(), 1e-12));
  EXPECT_TRUE(attitude(0, kPi / 2, 0).col(0).isApprox(-Eigen::Vector3d::UnitZ(), 1e-12));
  // z-y-x: roll is applied first in the body, so with yaw 90° and roll 90° the body's y axis
  // ends along world z.
  EXPECT_TRUE(attitude(kPi / 2, 0, kPi / 2).col(1).isApprox(Eigen::Vector3d::UnitZ(), 1e-12));
}

TEST(SensorMount, TheMountIsCarriedRoundByTheBody) {
  const SensorMount roof{.position = {1.0, 0.5, 1.2}, .yaw = kPi / 2};  // looking left
  const SensorPose pose =
      sensor_pose({10.0, 20.0, 0.5}, attitude(0, 0, kPi / 2), roof);  // body heading +y
  EXPECT_TRUE(pose.origin.isApprox(Eigen::Vector3d(10.0 - 0.5, 20.0 + 1.0, 1.7), 1e-12));
  // The sensor's boresight: body yaw 90° then mount yaw 90° → world −x.
  EXPECT_TRUE(pose.rotation.col(0).isApprox(-Eigen::Vector3d::UnitX(), 1e-12));
}

TEST(SensorMount, AnUnmountedSensorSitsAtTheCgWithTheBodysAxes) {
  const Eigen::Matrix3d body = attitude(0.1, -0.2, 0.3);
  const SensorPose pose = sensor_pose({1, 2, 3}, body, {});
  EXPECT_TRUE(pose.origin.isApprox(Eigen::Vector3d(1, 2, 3), 1e-15));
  EXPECT_TRUE(pose.rotation.isApprox(body, 1e-15));
}

}  // namespace
}  // namespace hil::models

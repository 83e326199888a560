#include "models/sensors/sensor_mount.hpp"

#include <Eigen/Geometry>

namespace hil::models {

Eigen::Matrix3d attitude(double roll, double pitch, double yaw) noexcept {
  return (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

SensorPose sensor_pose(const Eigen::Vector3d& body_position, const Eigen::Matrix3d& body_attitude,
                       const SensorMount& mount) noexcept {
  return {.origin = body_position + body_attitude * mount.position,
          .rotation = body_attitude * attitude(mount.roll, mount.pitch, mount.yaw)};
}

}  // namespace hil::models
